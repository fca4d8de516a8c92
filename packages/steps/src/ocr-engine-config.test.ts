import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '@quire/runtime';
import { checkOcrEngine, ocrPoolOptions } from './step-services.js';

describe('OCR engine configuration', () => {
  it('defaults to auto (tesseract.js or PP-OCR per page), with no binary to check', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ ocrEngine: 'auto', tesseractPath: 'tesseract', ocrTessdataDir: undefined });
    expect(() => checkOcrEngine(config)).not.toThrow();
    expect(ocrPoolOptions(config)).toMatchObject({ engine: 'auto', tesseractPath: 'tesseract', tessdataDir: undefined });
  });

  it('still takes wasm, tesseract.js alone', () => {
    expect(ocrPoolOptions(loadConfig({ QUIRE_OCR_ENGINE: 'wasm' }))).toMatchObject({ engine: 'wasm' });
  });

  it('takes onnx (PP-OCR) and auto to the pool, with no binary to check', () => {
    for (const engine of ['onnx', 'auto'] as const) {
      const config = loadConfig({ QUIRE_OCR_ENGINE: engine });
      expect(() => checkOcrEngine(config)).not.toThrow();
      expect(ocrPoolOptions(config)).toMatchObject({ engine });
    }
  });

  it('refuses an unknown engine, naming the variable', () => {
    expect(() => loadConfig({ QUIRE_OCR_ENGINE: 'gpu' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUIRE_OCR_ENGINE: 'gpu' })).toThrow(/QUIRE_OCR_ENGINE="gpu"/);
  });

  it('passes the native engine, its binary and the model folder to the pool', () => {
    const config = loadConfig({ QUIRE_OCR_ENGINE: 'native', QUIRE_TESSERACT_PATH: '/opt/tess/bin/tesseract', QUIRE_OCR_TESSDATA: 'models' });
    expect(ocrPoolOptions(config)).toEqual({ size: config.ocrWorkers, engine: 'native', tesseractPath: '/opt/tess/bin/tesseract', tessdataDir: path.resolve('models') });
  });

  it('fails the start with a clear message when the native binary is missing or is not tesseract', () => {
    const missing = loadConfig({ QUIRE_OCR_ENGINE: 'native', QUIRE_TESSERACT_PATH: '/nonexistent/bin/tesseract' });
    expect(() => checkOcrEngine(missing)).toThrow(ConfigError);
    expect(() => checkOcrEngine(missing)).toThrow(/QUIRE_OCR_ENGINE=native: the tesseract executable "\/nonexistent\/bin\/tesseract" was not found.*QUIRE_TESSERACT_PATH/s);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-not-tess-'));
    try {
      const other = path.join(dir, 'tesseract');
      fs.writeFileSync(other, '#!/bin/sh\necho "not an OCR program"\n', { mode: 0o755 });
      expect(() => checkOcrEngine(loadConfig({ QUIRE_OCR_ENGINE: 'native', QUIRE_TESSERACT_PATH: other }))).toThrow(/does not look like tesseract/);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });
});
