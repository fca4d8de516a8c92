export { readImage, type ImageReadResult } from './read-image.js';
export { pageSizePt } from './page-size.js';
export { cropImage, type CroppedPng } from './crop.js';
