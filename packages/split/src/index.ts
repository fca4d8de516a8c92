export { splitBuiltin, NEW_DOCUMENT } from './split.js';
export { pageSignals, boundaryProbabilities, type PageSignals } from './boundaries.js';
export { splitsByTopic, type TopicSplit } from './by-topic.js';
