// Fleet worker for the 'charts' queue(s): thin wiring over @quire/steps.
import { runWorkerService } from '@quire/steps';

const { stop } = await runWorkerService('worker-charts', ['charts']);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
