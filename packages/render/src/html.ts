import type { TextElement } from '@quire/core';
import type { RenderOptions } from './output-types.js';
import { headingLevel, listItemLabel, type Block } from './blocks.js';
import { escapeHtml, renderTableHtml } from './table-render.js';
import { chartGridHtml } from './chart-table.js';

const inline = (s: string) => escapeHtml(s.trim()).replace(/\r?\n/g, '<br>');

/** Legacy return_html: the same body as the markdown, as an HTML fragment (lists nested by depth). */
export function renderHtml(blocks: readonly Block[], opts: RenderOptions): string {
  const out: string[] = [];
  const open: { tag: 'ul' | 'ol'; depth: number }[] = [];
  const closeTo = (depth: number) => {
    while (open.length > 0 && open[open.length - 1].depth > depth) out.push(`</li></${open.pop()!.tag}>`);
  };
  for (const b of blocks) {
    const el = b.element;
    if (b.kind !== 'list') closeTo(-1);
    if (el.kind === 'table') out.push(renderTableHtml(el));
    else if (el.kind === 'figure') {
      const url = opts.imageUrl?.(el);
      const cap = el.caption ? `<figcaption>${inline(el.caption)}</figcaption>` : '';
      const data = b.chartGrid ? chartGridHtml(b.chartGrid) : '';
      out.push(`<figure>${url ? `<img src="${escapeHtml(url)}" alt="${escapeHtml(el.caption ?? '')}">` : ''}${data}${cap}</figure>`);
    } else if (b.kind === 'heading') {
      const n = headingLevel(el as TextElement);
      out.push(`<h${n}>${inline(el.text)}</h${n}>`);
    } else if (b.kind === 'list') {
      const t = el as TextElement;
      const item = listItemLabel(t); // a label markdown cannot number ("1.2.", "b)") is text in a bulleted item, as in markdown
      const depth = Math.max(0, t.listDepth ?? 0), tag = item.number !== undefined ? 'ol' : 'ul';
      closeTo(depth);
      const top = open[open.length - 1];
      if (top && top.depth === depth && top.tag !== tag) { out.push(`</li></${open.pop()!.tag}>`); }
      const cur = open[open.length - 1];
      if (!cur || cur.depth < depth) { out.push(`<${tag}>`); open.push({ tag, depth }); } else out.push('</li>');
      out.push(`<li>${item.label ? `${escapeHtml(item.label)} ` : ''}${inline(t.text)}`);
    } else if ((el as TextElement).extra?.code === true) {
      out.push(`<pre>${escapeHtml(el.text)}</pre>`);
    } else {
      const tag = (el as TextElement).category === 'caption' ? 'p class="caption"' : 'p';
      out.push(`<${tag}>${inline(el.text)}</p>`);
    }
  }
  closeTo(-1);
  return out.join('\n');
}
