import { render } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { ApiError, apiJson, forgetKey, type LivePage, type Progress, runJob, storedKey, storeKey } from './api';
import { CATEGORIES, type Category, extractionOverlay, formOverlay, type Overlay, type OverlayElement } from './elements';
import { Pages } from './page-view';
import { type FormRun, FormsTab, type Inspected, Inspector, LivePages, MarkdownPane, ProgressLine, SchemaTab, TablesTab } from './panels';
import './app.css';

interface Extraction { jobId: string; result: { extraction_id?: string; page_count: number; markdown: string; bounding_boxes: { markdown_with_ids?: string } } }

type Tab = 'elements' | 'tables' | 'schema' | 'forms';

function App() {
  const [key, setKey] = useState(storedKey());
  if (!key) return <KeyGate onKey={(k) => { storeKey(k); setKey(k); }} />;
  return <Playground onForget={() => { forgetKey(); setKey(null); }} />;
}

/** Asks for the API key once; it stays in sessionStorage (this tab only, gone when it closes). */
function KeyGate({ onKey }: { onKey(key: string): void }) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (ev: Event) => {
    ev.preventDefault();
    const key = new FormData(ev.target as HTMLFormElement).get('key')!.toString().trim();
    try {
      // a cheap authenticated call checks the key before the page keeps it
      await apiJson('/usage', { headers: { 'x-api-key': key } });
      onKey(key);
    } catch (e) { setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e)); }
  };
  return (
    <main class="gate">
      <h1>Quire playground</h1>
      <form id="key-form" onSubmit={submit}>
        <label class="stack">API key<input name="key" type="password" autocomplete="off" required placeholder="qk_…" /></label>
        <button>Use this key</button>
        <p class="hint">Kept in this tab's session storage and sent as <code>x-api-key</code> with every call.</p>
        {error ? <p class="error">{error}</p> : null}
      </form>
    </main>
  );
}

function Playground({ onForget }: { onForget(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [pages, setPages] = useState('');
  const [selections, setSelections] = useState(false);
  const [figures, setFigures] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [livePages, setLivePages] = useState<LivePage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [extraction, setExtraction] = useState<Extraction | null>(null);
  const [forms, setForms] = useState<Overlay | null>(null);
  const [filled, setFilled] = useState<string | null>(null); // a form fill job whose output PDF is shown
  const [layers, setLayers] = useState<ReadonlySet<Category>>(new Set(CATEGORIES));
  const [selected, setSelected] = useState<Inspected | null>(null);
  const [hovered, setHovered] = useState<OverlayElement | null>(null);
  const [cited, setCited] = useState<ReadonlySet<string>>(new Set());
  const [tab, setTab] = useState<Tab>('elements');

  /** The document as a new form (a File can be sent any number of times). */
  const sourceForm = () => {
    const form = new FormData();
    if (file) form.set('file', file, file.name);
    else form.set('file_url', url.trim());
    return form;
  };

  const extract = async (ev: Event) => {
    ev.preventDefault();
    setError(null); setExtraction(null); setForms(null); setFilled(null); setSelected(null); setCited(new Set()); setLivePages([]);
    const form = sourceForm();
    if (pages.trim()) form.set('pages', pages.trim());
    if (selections) form.set('detect_selections', 'true');
    if (figures) form.set('figure_processing', JSON.stringify({ show_images: true }));
    try {
      // a page repeated (a retried job reads it again) replaces the earlier one
      const onPage = (p: LivePage) => setLivePages((prev) => [...prev.filter((q) => q.page !== p.page), p].sort((a, b) => a.page - b.page));
      const job = await runJob('/extract', form, setProgress, onPage);
      setExtraction({ jobId: job.job_id, result: job.result as Extraction['result'] });
    } catch (e) {
      setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
      if (e instanceof ApiError && e.status === 401) onForget();
    }
  };

  const overlay = useMemo(() => (extraction ? extractionOverlay(extraction.result) : null), [extraction]);
  const drawn = useMemo(() => {
    const all = [...(overlay?.drawn ?? []), ...(forms?.drawn ?? [])];
    return all.filter((e) => layers.has(e.category));
  }, [overlay, forms, layers]);
  const counts = useMemo(() => {
    const c = new Map<Category, number>();
    for (const e of [...(overlay?.drawn ?? []), ...(forms?.drawn ?? [])]) c.set(e.category, (c.get(e.category) ?? 0) + 1);
    return c;
  }, [overlay, forms]);
  const toggle = (c: Category) => setLayers((prev) => { const next = new Set(prev); if (next.has(c)) next.delete(c); else next.add(c); return next; });
  const markdownWithIds = extraction?.result.bounding_boxes.markdown_with_ids ?? '';

  return (
    <div class="playground">
      <header class="top">
        <h1>Quire playground</h1>
        <form id="source-form" onSubmit={extract}>
          <input id="file-input" type="file" accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.docx,.pptx,.xlsx,.html,.htm" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
          <span>or</span>
          <input id="url-input" type="url" placeholder="https://…/document.pdf" value={url} disabled={file !== null} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
          <input id="pages-input" placeholder="pages, e.g. 1-3,5" size={12} value={pages} onInput={(e) => setPages((e.target as HTMLInputElement).value)} />
          <label><input type="checkbox" checked={selections} onChange={(e) => setSelections((e.target as HTMLInputElement).checked)} /> selection marks</label>
          <label><input type="checkbox" checked={figures} onChange={(e) => setFigures((e.target as HTMLInputElement).checked)} /> figure images</label>
          <button id="extract-button" disabled={!file && !url.trim()}>Extract</button>
          <button type="button" class="link" onClick={onForget}>forget key</button>
        </form>
        <ProgressLine p={progress} />
        {error ? <p class="error" id="error">{error}</p> : null}
        <LivePages pages={livePages} running={!extraction && !error} />
      </header>
      {extraction && overlay ? (
        <div class="workspace">
          <div class="left">
            <div class="legend">
              {CATEGORIES.map((c) => (
                <label key={c} class={counts.get(c) ? '' : 'empty'}>
                  <input type="checkbox" checked={layers.has(c)} onChange={() => toggle(c)} />
                  <span class={`swatch cat-${c.replace(' ', '-')}`} /> {c} ({counts.get(c) ?? 0})
                </label>
              ))}
            </div>
            <div class="hover" id="hover-info">
              {hovered ? <><b>{hovered.id ?? hovered.category}</b> · {hovered.category}{hovered.confidence !== undefined ? ` · confidence ${hovered.confidence}` : ''} · {hovered.content.slice(0, 160)}</> : 'Hover a box for its id, content and confidence; click it for its JSON (click again for the element under it).'}
            </div>
            <Pages jobId={filled ?? extraction.jobId} imageOf={filled ? 'output' : 'source'} pageCount={extraction.result.page_count} elements={drawn} selectedKey={selected?.key ?? null} hoveredKey={hovered?.key ?? null} cited={cited} onHover={(el) => setHovered((prev) => (prev?.key === el?.key ? prev : el))} onSelect={(el) => { setSelected(el); setTab('elements'); }} />
            {overlay.unplaced.length ? (
              <div id="unplaced">
                <p class="hint">{overlay.unplaced.length} element(s) without a position on a page (the result gives none), listed to inspect:</p>
                {overlay.unplaced.map((u) => <button key={u.key} class={`chip cat-${u.category.replace(' ', '-')}${u.key === selected?.key ? ' on' : ''}`} data-id={u.id ?? undefined} onClick={() => { setSelected(u); setTab('elements'); }}>{u.id ?? u.category}</button>)}
              </div>
            ) : null}
          </div>
          <div class="right">
            <nav class="tabs">
              {(['elements', 'tables', 'schema', 'forms'] as Tab[]).map((t) => <button key={t} class={t === tab ? 'on' : ''} data-tab={t} onClick={() => setTab(t)}>{t}</button>)}
            </nav>
            {tab === 'elements' ? <><Inspector el={selected} markdownWithIds={markdownWithIds} /><MarkdownPane markdown={extraction.result.markdown} markdownWithIds={markdownWithIds} /></> : null}
            {tab === 'tables' ? <NeedsExtractionId id={extraction.result.extraction_id}>{(id) => <TablesTab extractionId={id} onCite={(ids) => setCited(new Set(ids))} />}</NeedsExtractionId> : null}
            {tab === 'schema' ? <NeedsExtractionId id={extraction.result.extraction_id}>{(id) => <SchemaTab extractionId={id} onCite={(ids) => setCited(new Set(ids))} />}</NeedsExtractionId> : null}
            {tab === 'forms' ? <FormsTab source={sourceForm} onRun={(run: FormRun) => { setForms(formOverlay(run.result)); setFilled(run.outputJobId ?? null); }} /> : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}

function NeedsExtractionId({ id, children }: { id?: string; children(id: string): preact.ComponentChildren }) {
  return id ? <>{children(id)}</> : <p class="hint">This extraction was not saved (storage disabled), so /tables and /schema cannot use it.</p>;
}

render(<App />, document.getElementById('app')!);
