import type { ParseLimits } from '@quire/core';
import type { SafeZip } from '@quire/format-ooxml';
import { saxEntry } from './sax.js';

/**
 * The shared string table, streamed: each <si> becomes its plain text (rich-text runs concatenated,
 * phonetic guides <rPh> left out).
 */
export async function readSharedStrings(zip: SafeZip, part: string | undefined, limits: ParseLimits): Promise<string[]> {
  const out: string[] = [];
  if (!part) return out;
  let inSi = false, inT = false, inPh = 0;
  let cur = '';
  await saxEntry(zip, part, limits, {
    open(local) {
      if (local === 'si') { inSi = true; cur = ''; }
      else if (local === 'rPh') inPh++;
      else if (local === 't' && inSi && inPh === 0) inT = true;
    },
    close(local) {
      if (local === 'si') { out.push(cur); inSi = false; }
      else if (local === 'rPh') inPh--;
      else if (local === 't') inT = false;
    },
    text(t) { if (inT) cur += t; },
  });
  return out;
}
