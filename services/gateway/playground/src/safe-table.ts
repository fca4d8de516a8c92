/**
 * Table HTML from /tables (the service's own renderer, but cell text comes from the document) turned
 * into DOM nodes keeping only table structure, spans and text: nothing a document could smuggle in
 * (scripts, handlers, links, styles) reaches the page.
 */
const KEEP = new Set(['TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'TH', 'TD', 'CAPTION', 'COLGROUP', 'COL', 'BR']);
const ATTRS = ['rowspan', 'colspan'];

export function safeTable(html: string): DocumentFragment {
  const parsed = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html').body;
  const out = document.createDocumentFragment();
  const copy = (from: Node, to: Node) => {
    for (const child of Array.from(from.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) { to.appendChild(document.createTextNode(child.textContent ?? '')); continue; }
      if (!(child instanceof Element)) continue;
      if (!KEEP.has(child.tagName)) { copy(child, to); continue; } // unwrap, keep the text
      const el = document.createElement(child.tagName.toLowerCase());
      for (const a of ATTRS) { const v = child.getAttribute(a); if (v && /^\d{1,3}$/.test(v)) el.setAttribute(a, v); }
      copy(child, el);
      to.appendChild(el);
    }
  };
  copy(parsed, out);
  return out;
}
