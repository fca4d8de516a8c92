// Test-only helpers (imported by *.test.ts): structure comparison, qpdf check, pdf.js render/text.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdfJs } from './pdfjs.js';
import type { DetectedCell } from './types.js';

/** A cell without its value: what must survive fill → clear unchanged. */
export const shape = (c: DetectedCell) => ({
  page: c.page_number, type: c.type, label: c.label, box: c.bounding_box.map((n) => Math.round(n * 200) / 200),
  row: c.row, col: c.col, table: c.table_idx, options: c.options, max: c.maxLength,
  boxes: c.checkbox_details?.map((d) => ({ text: d.text, at: d.center_coord.map((n) => Math.round(n * 200) / 200) })),
});

export const value = (c: DetectedCell) => (c.type === 'checkbox' ? (c.checkbox_details ?? []).filter((d) => d.selected).map((d) => d.text).join('|') : c.text);

const hasQpdf = spawnSync('qpdf', ['--version']).status === 0;
let warned = false;
/** `qpdf --check` exit status (0 = clean, 3 = warnings only), or null when qpdf is not installed. */
export function qpdfCheck(pdf: Uint8Array): { status: number; out: string } | null {
  if (!hasQpdf) {
    if (!warned) console.warn('qpdf not installed: skipping the qpdf --check assertions (apt-get install -y qpdf)');
    warned = true;
    return null;
  }
  const file = path.join(os.tmpdir(), `quire-forms-${process.pid}-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    const r = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
    return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Renders every page with pdf.js (form appearances on) and returns the share of non-white pixels per page. */
export async function renderInk(pdf: Uint8Array): Promise<number[]> {
  const doc = await openPdfJs(pdf);
  const out: number[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const vp = page.getViewport({ scale: 0.5 });
    const canvas = createCanvas(Math.ceil(vp.width), Math.ceil(vp.height));
    await page.render({ canvas: canvas as never, canvasContext: canvas.getContext('2d') as never, viewport: vp, background: 'white', annotationMode: pdfjs.AnnotationMode.ENABLE }).promise;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] < 128) ink++;
    out.push(ink / (data.length / 4));
  }
  await doc.destroy();
  return out;
}

/** Page text (pdf.js getTextContent) plus the text pdf.js reads from widget appearance streams. */
export async function allText(pdf: Uint8Array): Promise<string> {
  const doc = await openPdfJs(pdf);
  let s = '';
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const tc = await page.getTextContent();
    s += tc.items.map((i) => ('str' in i ? i.str : '')).join(' ') + '\n';
    for (const a of await page.getAnnotations()) if (Array.isArray(a.textContent)) s += a.textContent.join(' ') + '\n';
  }
  await doc.destroy();
  return s;
}
