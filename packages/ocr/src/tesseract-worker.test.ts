import { describeOcrWorkerConformance } from '../test/ocr-worker.conformance.js';
import { createTesseractWorker } from './tesseract-worker.js';

describeOcrWorkerConformance('tesseract.js (wasm)', createTesseractWorker);

describe('tesseract.js thread output', () => {
  it('reaches onEngineOutput as lines, not the process stdout', async () => {
    const tesseract = (await import('tesseract.js')).default;
    const { languageDataPath } = await import('./tesseract-settings.js');
    const { TESSERACT_THREAD_URL } = await import('./tesseract-worker.js');
    const tw = await tesseract.createWorker('eng', tesseract.OEM.LSTM_ONLY, {
      workerPath: TESSERACT_THREAD_URL as unknown as string, langPath: languageDataPath('eng'), gzip: true, cacheMethod: 'none', logger: () => {}, errorHandler: () => {},
    });
    const lines: unknown[] = [];
    (tw as unknown as { worker: { on(e: 'message', cb: (m: any) => void): void } }).worker.on('message', (m) => { if (m?.quireEngineOutput) lines.push(m.quireEngineOutput); });
    // an init-only parameter makes the engine's thread print a warning with console.log
    await tw.setParameters({ tessedit_ocr_engine_mode: '1' } as never);
    // the warning is posted before the reply, from the same thread: it has arrived when the call returns
    await tw.terminate();
    expect(lines).toContainEqual({ stream: 'stdout', line: expect.stringContaining('can only be set during initialization: tessedit_ocr_engine_mode') });
  }, 60_000);
});
