import { describeOcrWorkerConformance } from '../test/ocr-worker.conformance.js';
import { createTesseractWorker } from './tesseract-worker.js';

describeOcrWorkerConformance('tesseract.js (wasm)', createTesseractWorker);
