import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type LivePage, type Progress, runJob } from './api';
import { citationLeaves, markdownSpan, valueAt, type OverlayElement } from './elements';

/** What the inspector shows: any element, placed on a page or not. */
export type Inspected = Omit<OverlayElement, 'box'>;
import { safeTable } from './safe-table';

const message = (e: unknown) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e));

export function ProgressLine({ p }: { p: Progress | null }) {
  if (!p) return null;
  const total = p.pagesTotal ?? 0, done = p.pagesDone ?? 0;
  return (
    <div class="progress" data-status={p.status}>
      <span>{p.status}{total ? ` · ${done}/${total} pages` : ''} <small>({p.via === 'events' ? 'live events' : 'polling'})</small></span>
      {total ? <progress max={total} value={done} /> : null}
    </div>
  );
}

/**
 * Each page's markdown as the service finished it (live page events), open while the job runs; PDF and image
 * pages are read on their own first (provisional: running headers and heading levels are settled at the end).
 */
export function LivePages({ pages, running }: { pages: readonly LivePage[]; running: boolean }) {
  if (!pages.length) return null;
  return (
    <details id="live-pages" open={running}>
      <summary>{pages.length} page{pages.length === 1 ? '' : 's'} as they were read</summary>
      {pages.map((p) => (
        <article key={p.page} class="live-page" data-page={p.page}>
          <h4>Page {p.page}{p.provisional ? <small> (provisional)</small> : null}</h4>
          <pre>{p.error ? `(could not be read: ${p.error.code} ${p.error.message})` : p.markdown || '(no text on this page)'}</pre>
        </article>
      ))}
    </details>
  );
}

/** The selected element: its JSON and where it sits in markdown_with_ids. */
export function Inspector({ el, markdownWithIds }: { el: Inspected | null; markdownWithIds: string }) {
  const mark = useRef<HTMLElement>(null);
  useEffect(() => { mark.current?.scrollIntoView({ block: 'center' }); }, [el?.key]);
  if (!el) return <p class="hint">Click a box to see its JSON and its place in <code>markdown_with_ids</code>.</p>;
  const span = el.id ? markdownSpan(markdownWithIds, el.id) : undefined;
  return (
    <div id="inspector">
      <h3>
        <span class={`swatch cat-${el.category.replace(' ', '-')}`} /> <span id="selected-id">{el.id ?? `(${el.category}, no id)`}</span>
        <small> {el.category} · page {el.page}{el.confidence !== undefined ? ` · confidence ${el.confidence}` : ''}</small>
      </h3>
      <pre class="json">{JSON.stringify(el.json, null, 2)}</pre>
      <h4>In <code>markdown_with_ids</code></h4>
      {span
        ? <pre class="markdown">{markdownWithIds.slice(Math.max(0, span.start - 400), span.start)}<mark ref={mark}>{markdownWithIds.slice(span.start, span.end)}</mark>{markdownWithIds.slice(span.end, span.end + 400)}</pre>
        : <p class="hint">{el.id ? `${el.id} does not appear in markdown_with_ids.` : `A ${el.category} has no id: markdown_with_ids does not mark it.`}</p>}
    </div>
  );
}

export function MarkdownPane({ markdown, markdownWithIds }: { markdown: string; markdownWithIds: string }) {
  const [withIds, setWithIds] = useState(false);
  return (
    <div id="markdown">
      <label><input type="checkbox" checked={withIds} onChange={(e) => setWithIds((e.target as HTMLInputElement).checked)} /> show <code>markdown_with_ids</code></label>
      <pre class="markdown">{withIds ? markdownWithIds : markdown}</pre>
    </div>
  );
}

interface TabProps { extractionId: string; onCite(ids: string[]): void }

/** POST /tables on the extraction: each table as rendered HTML; clicking one marks the tables it came from. */
export function TablesTab({ extractionId, onCite }: TabProps) {
  const [tables, setTables] = useState<{ table_content: unknown; citations: string[] }[] | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [merge, setMerge] = useState(false);
  const run = async () => {
    setError(null); setTables(null);
    try {
      const job = await runJob('/tables', { extraction_id: extractionId, tables_config: { merge, table_format: 'html' } }, setProgress);
      setTables(((job.result as { tables_output?: { tables?: [] } }).tables_output?.tables) ?? []);
    } catch (e) { setError(message(e)); }
  };
  return (
    <div>
      <div class="row"><label><input type="checkbox" checked={merge} onChange={(e) => setMerge((e.target as HTMLInputElement).checked)} /> merge tables across pages</label> <button onClick={run}>Run /tables</button></div>
      <ProgressLine p={progress} />
      {error ? <p class="error">{error}</p> : null}
      {tables?.length === 0 ? <p class="hint">No tables in this document.</p> : null}
      {tables?.map((t, i) => (
        <figure key={i} class="table-result" onClick={() => onCite(t.citations)}>
          <figcaption>Table {i + 1} · from {t.citations.join(', ')}</figcaption>
          {typeof t.table_content === 'string' ? <HtmlTable html={t.table_content} /> : <pre class="json">{JSON.stringify(t.table_content, null, 2)}</pre>}
        </figure>
      ))}
    </div>
  );
}

function HtmlTable({ html }: { html: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => { host.current?.replaceChildren(safeTable(html)); }, [html]);
  return <div class="html-table" ref={host} />;
}

const EXAMPLE_SCHEMA = JSON.stringify({ type: 'object', properties: { title: { type: 'string', description: 'The document title' } } }, null, 2);

/** POST /schema on the extraction: every value with its citations; hovering a value marks the cited elements. */
export function SchemaTab({ extractionId, onCite }: TabProps) {
  const [schema, setSchema] = useState(EXAMPLE_SCHEMA);
  const [out, setOut] = useState<{ values: unknown; citations: unknown } | null>(null);
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setError(null); setOut(null);
    let input: unknown;
    try { input = JSON.parse(schema); } catch (e) { setError(`The schema is not JSON: ${(e as Error).message}`); return; }
    try {
      const job = await runJob('/schema', { extraction_id: extractionId, schema_config: { input_schema: input } }, setProgress);
      const r = job.result as { schema_output?: { values: unknown; citations: unknown }; details?: { notes?: Record<string, string> } };
      setOut(r.schema_output ?? { values: null, citations: null });
      setNotes(r.details?.notes ?? {});
    } catch (e) { setError(message(e)); }
  };
  const leaves = out ? citationLeaves(out.citations) : [];
  return (
    <div>
      <label class="stack">JSON schema<textarea id="schema-input" rows={8} value={schema} onInput={(e) => setSchema((e.target as HTMLTextAreaElement).value)} /></label>
      <button onClick={run}>Run /schema</button>
      <ProgressLine p={progress} />
      {error ? <p class="error">{error}</p> : null}
      {out ? (
        <table class="values">
          <thead><tr><th>field</th><th>value</th><th>citations</th></tr></thead>
          <tbody>
            {leaves.length === 0 ? <tr><td colSpan={3}>No cited values.</td></tr> : null}
            {leaves.map((l) => (
              <tr key={l.path} onMouseEnter={() => onCite(l.ids)} onClick={() => onCite(l.ids)}>
                <td><code>{l.path || '(root)'}</code></td><td>{JSON.stringify(valueAt(out.values, l.path)) ?? 'null'}</td><td>{l.ids.join(', ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {Object.keys(notes).length ? <ul class="hint">{Object.entries(notes).map(([k, v]) => <li key={k}><code>{k}</code>: {v}</li>)}</ul> : null}
      {out ? <details><summary>values JSON</summary><pre class="json">{JSON.stringify(out.values, null, 2)}</pre></details> : null}
    </div>
  );
}

/** What a form run drew: its cells, and the job whose output PDF to show under them (fill and clear). */
export interface FormRun { result: unknown; outputJobId?: string }

/**
 * POST /form/detect on the same document: the form cells are drawn over its pages. POST /form/fill
 * with instructions: the filled PDF (the job's output) is shown instead, its cells over it.
 */
export function FormsTab({ source, onRun }: { source: () => FormData; onRun(run: FormRun): void }) {
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [summary, setSummary] = useState<string | null>(null);
  const [instructions, setInstructions] = useState('');
  const run = async (op: 'detect' | 'fill') => {
    setError(null); setSummary(null);
    const form = source();
    if (op === 'fill') form.set('instructions', instructions);
    try {
      const job = await runJob(`/form/${op}`, form, setProgress);
      const result = job.result as { form_fields?: unknown[]; fields_filled?: number; details?: unknown };
      setSummary(`${result.form_fields?.length ?? 0} form cells drawn${op === 'fill' ? ` on the filled PDF; ${result.fields_filled ?? 0} filled` : ''}.`);
      onRun(op === 'fill' ? { result, outputJobId: job.job_id } : { result });
    } catch (e) { setError(message(e)); }
  };
  return (
    <div>
      <p class="hint">Detects the fillable cells of a PDF form (text, checkbox, signature) and draws them on the pages.</p>
      <button onClick={() => run('detect')}>Run /form/detect</button>
      <label class="stack">Fill instructions<textarea id="fill-instructions" rows={3} placeholder="Name: Ada Lovelace; tick the agreement box" value={instructions} onInput={(e) => setInstructions((e.target as HTMLTextAreaElement).value)} /></label>
      <button onClick={() => run('fill')} disabled={!instructions.trim()}>Run /form/fill</button>
      <ProgressLine p={progress} />
      {error ? <p class="error">{error}</p> : null}
      {summary ? <p id="forms-summary">{summary}</p> : null}
    </div>
  );
}
