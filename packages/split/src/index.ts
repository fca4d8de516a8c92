export { splitBuiltin } from './split.js';
export type { PageSignals } from './boundaries.js';
export { splitsByTopic, type TopicSplit } from './by-topic.js';
