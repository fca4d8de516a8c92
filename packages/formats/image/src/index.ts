export { readImage, type ImageReadResult } from './read-image.js';
export { pageSizePt } from './page-size.js';
