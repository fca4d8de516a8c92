// Fleet worker for the 'schema' queue(s): thin wiring over @quire/steps.
import { runWorkerService } from '@quire/steps';

const { stop } = await runWorkerService('worker-schema', ['schema']);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
