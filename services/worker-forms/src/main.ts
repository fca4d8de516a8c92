// Fleet worker for the 'forms' queue(s): thin wiring over @quire/steps.
import { runWorkerService } from '@quire/steps';

const { stop } = await runWorkerService('worker-forms', ['forms']);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
