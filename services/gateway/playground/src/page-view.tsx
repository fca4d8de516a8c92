import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, pageImageUrl } from './api';
import { elementsAt, type OverlayElement } from './elements';

/** Render scale of page images: enough to read body text at the column's width. */
const PAGE_DPI = 110;

interface PagesProps {
  jobId: string;
  /** source: the document the job was given; output: the PDF a form fill or clear produced. */
  imageOf: 'source' | 'output';
  pageCount: number;
  elements: OverlayElement[];
  selectedKey: string | null;
  hoveredKey: string | null;
  cited: ReadonlySet<string>;
  onHover(el: OverlayElement | null): void;
  onSelect(el: OverlayElement): void;
}

/**
 * Every page of the job's document with its elements' boxes over it (positions in % of the page). The
 * boxes take no pointer events: the sheet finds what is under the pointer (elementsAt), so nested
 * elements (words in a line, cells in a table) can all be reached.
 */
export function Pages(props: PagesProps) {
  const pages = Array.from({ length: props.pageCount }, (_, i) => i + 1);
  return (
    <div id="pages" data-job-id={props.jobId} data-image-of={props.imageOf}>
      {pages.map((n) => <Page key={n} n={n} {...props} elements={props.elements.filter((e) => e.page === n)} />)}
    </div>
  );
}

function Page(props: PagesProps & { n: number }) {
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [near, setNear] = useState(false);
  const sheet = useRef<HTMLDivElement>(null);
  // a page's image is asked for when it comes near the view: a long document does not send one request per page at once
  useEffect(() => {
    if (near || !sheet.current) return;
    const seen = new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) setNear(true); }, { rootMargin: '1200px 0px' });
    seen.observe(sheet.current);
    return () => seen.disconnect();
  }, [near]);
  useEffect(() => {
    if (!near) return;
    let url: string | null = null, live = true;
    pageImageUrl(props.jobId, props.n, PAGE_DPI, props.imageOf)
      .then((u) => { url = u; if (live) setSrc(u); else URL.revokeObjectURL(u); })
      .catch((e: unknown) => live && setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e)));
    return () => { live = false; if (url) URL.revokeObjectURL(url); };
  }, [near, props.jobId, props.n, props.imageOf]);
  /** The elements under the pointer, for a mouse event on the sheet. */
  const under = (ev: MouseEvent) => {
    const r = (ev.currentTarget as HTMLElement).getBoundingClientRect();
    return elementsAt(props.elements, (ev.clientX - r.left) / r.width, (ev.clientY - r.top) / r.height);
  };
  const click = (ev: MouseEvent) => {
    const hits = under(ev);
    if (hits.length === 0) return;
    const at = hits.findIndex((e) => e.key === props.selectedKey);
    props.onSelect(hits[(at + 1) % hits.length]); // the same spot again: the next element under it
  };
  return (
    <section class="page" data-page={props.n}>
      <header>Page {props.n}{error ? <span class="page-error"> — no image: {error}</span> : null}</header>
      <div ref={sheet} class={`sheet${src ? '' : ' blank'}`} onClick={click} onMouseMove={(ev) => props.onHover(under(ev)[0] ?? null)} onMouseLeave={() => props.onHover(null)}>
        {src ? <img src={src} alt={`Page ${props.n}`} data-page-image={props.n} /> : null}
        {props.elements.map((el) => (
          <div
            key={el.key}
            class={`box cat-${el.category.replace(' ', '-')}${el.key === props.selectedKey ? ' selected' : ''}${el.key === props.hoveredKey ? ' hovered' : ''}${el.id && cited(props.cited, el.id) ? ' cited' : ''}`}
            data-key={el.key}
            data-id={el.id ?? undefined}
            data-category={el.category}
            style={{ left: pct(el.box.x0), top: pct(el.box.y0), width: pct(el.box.x1 - el.box.x0), height: pct(el.box.y1 - el.box.y0) }}
          />
        ))}
      </div>
    </section>
  );
}

const pct = (n: number) => `${(n * 100).toFixed(3)}%`;

/** Schema citations of composite mode read <extraction_id>-<element id>: match on the element id at the end. */
function cited(ids: ReadonlySet<string>, id: string): boolean {
  if (ids.has(id)) return true;
  for (const c of ids) if (c.endsWith(`-${id}`) && c.length > id.length + 36) return true;
  return false;
}
