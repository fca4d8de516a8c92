import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, ensureBuilt } from '../../scripts/lib/fleet.mjs';

/** `quire serve` configured for the native OCR engine without the binary: it refuses to start, before opening anything. */
describe('embedded: QUIRE_OCR_ENGINE=native without tesseract', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('exits with status 2 and says which setting to fix; nothing is created', async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-ocr-engine-')), 'data');
    const r = await new Promise<{ code: number; err: string }>((resolve) => {
      execFile(process.execPath, [path.join(ROOT, 'apps/cli/dist/main.js'), 'serve'], {
        cwd: ROOT, encoding: 'utf8', timeout: 30_000,
        env: { ...process.env, NODE_NO_WARNINGS: '1', QUIRE_MODE: 'embedded', QUIRE_PORT: '0', QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent', QUIRE_OCR_ENGINE: 'native', QUIRE_TESSERACT_PATH: '/nonexistent/bin/tesseract' },
      }, (e, _out, err) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, err }));
    });
    try {
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/QUIRE_OCR_ENGINE=native: the tesseract executable "\/nonexistent\/bin\/tesseract" was not found/);
      expect(r.err).toMatch(/QUIRE_TESSERACT_PATH/);
      expect(r.err).not.toMatch(/\n\s+at /); // a message, not a stack trace
      expect(fs.existsSync(dataDir)).toBe(false);
    } finally { fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }); }
  }, 60_000);
});
