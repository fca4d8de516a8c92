import type { OutlineEntry } from '@quire/core';
import type { PDFDocumentProxy } from './pdfjs.js';

const MAX_ENTRIES = 10_000;
const MAX_DEPTH = 32;

interface OutlineNode { title: string; dest: unknown; items: OutlineNode[] }

/** The bookmarks, depth-first, level 1 at the top, with each entry's destination page (1-indexed) where it resolves. */
export async function readOutline(doc: PDFDocumentProxy): Promise<OutlineEntry[]> {
  const roots = (await doc.getOutline()) as OutlineNode[] | null;
  const out: OutlineEntry[] = [];
  const walk = async (nodes: OutlineNode[], level: number) => {
    for (const node of nodes) {
      if (out.length >= MAX_ENTRIES) return;
      const entry: OutlineEntry = { title: (node.title ?? '').replace(/\s+/g, ' ').trim(), level };
      const page = await resolvePage(doc, node.dest);
      if (page !== undefined) entry.page = page;
      out.push(entry);
      if (node.items?.length && level < MAX_DEPTH) await walk(node.items, level + 1);
    }
  };
  if (roots) await walk(roots, 1);
  return out;
}

async function resolvePage(doc: PDFDocumentProxy, dest: unknown): Promise<number | undefined> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    if (!Array.isArray(explicit) || explicit.length === 0) return undefined;
    const target = explicit[0];
    if (Number.isInteger(target)) return (target as number) + 1;
    if (target && typeof target === 'object' && 'num' in target) return (await doc.getPageIndex(target as { num: number; gen: number })) + 1;
  } catch {
    // a dangling destination is not worth failing the document for
  }
  return undefined;
}

export async function readTitle(doc: PDFDocumentProxy): Promise<string | undefined> {
  const { info, metadata } = await doc.getMetadata();
  const fromInfo = (info as { Title?: unknown } | undefined)?.Title;
  const raw = (typeof fromInfo === 'string' && fromInfo.trim()) || metadata?.get('dc:title');
  const title = typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim() : '';
  return title || undefined;
}
