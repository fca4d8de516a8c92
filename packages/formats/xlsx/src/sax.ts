import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { QuireError, type ParseLimits } from '@quire/core';
import type { SafeZip } from '@quire/format-ooxml';

export interface SaxHandlers {
  /** Local name (prefix stripped) and attributes as written. */
  open(local: string, attrs: Record<string, string>, selfClosing: boolean): void;
  close(local: string): void;
  text(t: string): void;
}

const localOf = (name: string) => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
};

/**
 * Streams one zip entry through a SAX parser: the part is inflated chunk by chunk and never held
 * as one string or one object graph, so a sheet's memory is what the handlers keep. A DOCTYPE is
 * refused (no entity expansion), nesting is bounded, and the inflated size is re-checked.
 */
export async function saxEntry(zip: SafeZip, part: string, limits: ParseLimits, h: SaxHandlers): Promise<boolean> {
  const stream = zip.stream(part);
  if (!stream) return false;
  const parser = new SaxesParser({ xmlns: false, position: false });
  let depth = 0;
  let failure: unknown;
  parser.on('doctype', () => {
    throw new QuireError('FILE_003', `Refused ${part}: XML with a DOCTYPE`, { part, reason: 'xml_doctype' });
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (++depth > limits.maxXmlDepth) throw new QuireError('FILE_003', `Refused ${part}: XML nested deeper than ${limits.maxXmlDepth}`, { part, reason: 'xml_depth_limit' });
    h.open(localOf(tag.name), tag.attributes as Record<string, string>, tag.isSelfClosing);
    if (tag.isSelfClosing) { depth--; h.close(localOf(tag.name)); }
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    if (tag.isSelfClosing) return;
    depth--;
    h.close(localOf(tag.name));
  });
  parser.on('text', (t: string) => h.text(t));
  parser.on('error', (e: Error) => { failure ??= e; });
  const decoder = new StringDecoder('utf8');
  let inflated = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (e: unknown) => { failure ??= e; (stream as unknown as { pause?: () => void }).pause?.(); reject(failure); };
    stream.on('data', (chunk: Buffer) => {
      if (failure) return;
      inflated += chunk.length;
      if (inflated > limits.maxUncompressedBytes) return fail(new QuireError('FILE_003', `Entry ${part} inflates past the size limit`, { reason: 'zip_size_limit' }));
      try { parser.write(decoder.write(chunk)); } catch (e) { fail(e); }
      if (failure) fail(failure);
    });
    stream.on('end', () => {
      if (failure) return;
      try { parser.write(decoder.end()); parser.close(); } catch (e) { return fail(e); }
      if (failure) return fail(failure);
      resolve();
    });
    stream.on('error', (e: unknown) => fail(e));
  }).catch((e) => {
    if ((e as { name?: string }).name === 'QuireError') throw e;
    throw new QuireError('FILE_003', `File corrupted: ${part} is not well-formed XML`, { part, reason: (e as Error).message });
  });
  return true;
}
