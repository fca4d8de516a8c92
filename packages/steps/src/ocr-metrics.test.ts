import { createLogger, loadConfig, Metrics } from '@quire/runtime';
import { renderScan } from '../../../tests/fixtures/scans/generate.js';
import { ensureBuilt } from '../../../scripts/lib/fleet.mjs';
import { createStepServices } from './step-services.js';

describe('OCR metrics', () => {
  // the onnx engine's worker thread runs the built module
  beforeAll(async () => { await ensureBuilt(); }, 180_000);

  it('records the time and mean confidence of each OCR-read page under the engine that read it', async () => {
    const metrics = new Metrics();
    const services = createStepServices({ config: loadConfig({ QUIRE_OCR_ENGINE: 'onnx', QUIRE_OCR_WORKERS: '1', QUIRE_JOB_THREADS: '0' }), log: createLogger('silent'), metrics });
    try {
      const scan = await renderScan();
      const page = await services.ocr.recognize(scan.png, { number: 1, widthPt: 295, heightPt: 418 });
      expect(page.ocr?.engine).toBe('onnx');
      const text = await metrics.render();
      expect(text).toMatch(/quire_ocr_page_seconds_count\{engine="onnx"\} 1/);
      expect(text).toMatch(/quire_ocr_page_confidence_count\{engine="onnx"\} 1/);
    } finally {
      await services.close();
    }
  }, 120_000);
});
