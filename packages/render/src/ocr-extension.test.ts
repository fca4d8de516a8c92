import type { Document } from '@quire/core';
import { renderExtraction } from './render-extraction.js';

const page = (number: number, extra?: Record<string, unknown>) => ({ number, width: 612, height: 792, elements: [], words: [], selectionMarks: [], ...(extra ? { extra } : {}) });

describe('extensions.ocr', () => {
  it('names the engine, mean confidence and time of each OCR-read page, and only those', () => {
    const doc: Document = {
      format: 'pdf', pageCount: 3, warnings: [],
      pages: [page(1), page(2, { ocr: { engine: 'wasm+onnx', meanConfidence: 0.912, seconds: 2.5 } }), page(3, { ocr: { engine: 'onnx', meanConfidence: 0.97, seconds: 1.1 } })],
    };
    expect(renderExtraction(doc).extensions.ocr).toEqual({ pages: [
      { page_number: 2, engine: 'wasm+onnx', mean_confidence: 0.912, seconds: 2.5 },
      { page_number: 3, engine: 'onnx', mean_confidence: 0.97, seconds: 1.1 },
    ] });
  });

  it('is absent when no page was read by OCR', () => {
    expect(renderExtraction({ format: 'pdf', pageCount: 1, warnings: [], pages: [page(1)] }).extensions).not.toHaveProperty('ocr');
  });
});
