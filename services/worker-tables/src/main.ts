// Fleet worker for the 'tables' queue(s): thin wiring over @quire/steps.
import { runWorkerService } from '@quire/steps';

const { stop } = await runWorkerService('worker-tables', ['tables']);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
