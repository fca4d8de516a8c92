import { QuireError } from '@quire/core';
import { openPdf, readPdf } from './index.js';
import { makeSimplePdf } from '../../../../tests/fixtures/pdf/documents.js';
import { makeBrokenPageTreePdf, makeEncryptedPdf } from '../../../../tests/fixtures/pdf/damaged.js';

describe('bad input', () => {
  test('a PDF encrypted with a user password is refused with FILE_003 naming the password', async () => {
    const bytes = await makeEncryptedPdf();
    const err = await readPdf(bytes).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuireError);
    expect(err).toMatchObject({ code: 'FILE_003', details: { reason: 'encrypted' } });
    expect((err as Error).message).toMatch(/encrypted with a password/);
    await expect(openPdf(bytes)).rejects.toMatchObject({ code: 'FILE_003', details: { reason: 'encrypted' } });
  });

  test('bytes that are not a PDF, and a truncated PDF, are FILE_003; empty input is FILE_004', async () => {
    await expect(readPdf(new TextEncoder().encode('hello, this is not a pdf at all'))).rejects.toMatchObject({ code: 'FILE_003' });
    const good = await makeSimplePdf(1);
    await expect(readPdf(good.subarray(0, 40))).rejects.toMatchObject({ code: 'FILE_003' });
    await expect(readPdf(new Uint8Array())).rejects.toMatchObject({ code: 'FILE_004' });
  });

  test('the caller\'s bytes are not detached by pdf.js', async () => {
    const bytes = await makeSimplePdf(1);
    await readPdf(bytes);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
  });

  test('a page that cannot be read gets PROC_005 and the others are still returned', async () => {
    const r = await readPdf(await makeBrokenPageTreePdf());
    const ok = r.pages.filter((p) => !p.error);
    const bad = r.pages.filter((p) => p.error);
    expect(ok.map((p) => p.words.map((w) => w.text).join(' '))).toContain('Page 1');
    expect(bad.length).toBeGreaterThanOrEqual(1);
    expect(bad[0]).toMatchObject({ number: 2, words: [], error: { code: 'PROC_005' } });
    expect(r.warnings.some((w) => w.startsWith('Page 2 could not be read'))).toBe(true);
  });
});

describe('limits', () => {
  test('more pages than maxPages is refused before any page is read (REQ_003)', async () => {
    let pagesSeen = 0;
    await expect(readPdf(await makeSimplePdf(4), { limits: { maxPages: 3 }, onPage: () => { pagesSeen++; } }))
      .rejects.toMatchObject({ code: 'REQ_003' });
    expect(pagesSeen).toBe(0);
    // the limit counts the selected pages
    await expect(readPdf(await makeSimplePdf(4), { limits: { maxPages: 3 }, pages: [1, 4] })).resolves.toMatchObject({ pageCount: 4 });
  });

  test('a page over maxPageSidePt gets an error and is skipped; the others are read', async () => {
    const bytes = await makeSimplePdf(3, (i) => (i === 2 ? [5000, 5000] : [612, 792]));
    const r = await readPdf(bytes, { limits: { maxPageSidePt: 4000 } });
    expect(r.pages.map((p) => p.number)).toEqual([1, 2, 3]);
    expect(r.pages[1]).toMatchObject({ width: 5000, height: 5000, words: [], error: { code: 'PROC_005', message: expect.stringMatching(/4000 pt/) } });
    expect(r.pages[0].words.length).toBeGreaterThan(0);
    expect(r.pages[2].words.length).toBeGreaterThan(0);
    // with the default limit (14,400 pt) the same page is read
    expect((await readPdf(bytes)).pages[1].error).toBeUndefined();
  });
});
