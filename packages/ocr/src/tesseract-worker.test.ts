import { describeOcrWorkerConformance } from './ocr-worker.conformance.js';
import { createTesseractWorker } from './tesseract-worker.js';

describeOcrWorkerConformance('tesseract.js (wasm)', createTesseractWorker);
