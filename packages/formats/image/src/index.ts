export { readImage, type ImageReadResult } from './read-image.js';
export { cropImage, type CroppedPng } from './crop.js';
export { pageSizePt } from './page-size.js';
