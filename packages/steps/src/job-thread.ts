// A job thread of this build (JobThreadPool's entry): the handlers of JOB_HANDLERS with a language
// model client of its own; the OCR pool stays shared in the owning process (see step-services.ts).
import { serveJobThread } from '@quire/jobs';
import { JOB_HANDLERS } from './handlers.js';
import { threadLocalServices } from './step-services.js';

serveJobThread({ handlers: JOB_HANDLERS, services: threadLocalServices });
