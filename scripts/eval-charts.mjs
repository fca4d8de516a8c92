// Chart accuracy on the pdf-charts corpus: charts drawn as vector paths in PDFs, with the exact series of
// the workbook/presentation they were rendered from (NAME.expected.json, see the folder's SOURCES.md).
// The document goes through extraction and the /charts reconstruction (reconstructCharts), as a user's would.
// - recognition: recall (expected charts found as chart figures on their page) and precision (chart
//   figures that are an expected chart; every other drawing must stay an image)
// - chart type / title: matched charts whose chart_type / title equals the expected one (no title: null)
// - points: expected points whose value came back within 0.5% of the chart's value range (pies: within
//   0.5 percentage points of the slice's share; percent-stacked: of its percent of the category)
// - series names: expected series whose name (or the legend label drawn for an unnamed series) came back
// - exact: points of charts that print data labels whose value came back equal to the expected one
// The validation part (scripts/lib/corpus.mjs) is reported in aggregate only.
// Usage: node scripts/build.mjs && node scripts/eval-charts.mjs [dir] [--json] [--part dev|validation|all] [--summary FILE]
//        (EVAL_ONLY=substring restricts the files)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractDocument } from '../packages/extract/dist/index.js';
import { reconstructCharts } from '../packages/tables/dist/index.js';
import { partOf } from './lib/corpus.mjs';
import { folderEvalArgs, ratioFigure, writeSummary } from './lib/eval-summary.mjs';
import { aggregateStats, pageStats } from './lib/chart-page-stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { parts, summaryOut, dir, asJson, only } = folderEvalArgs(process.argv.slice(2), path.join(root, '../shared/corpus/pdf-charts'));
const TOLERANCE = 0.005;

const norm = (s) => String(s ?? '').normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
const truthValues = (chart, s) => (chart.chart_type.startsWith('pie') || chart.chart_type.startsWith('doughnut') ? s.values_share_percent
  : chart.chart_type.includes('percent-stacked') ? s.values_percent_of_category : s.values) ?? s.values;

/** Range of a chart's expected values (0 included: value axes start at or cross 0); 100 for shares and percents. */
function rangeOf(chart) {
  if (/^(pie|doughnut)|percent-stacked/.test(chart.chart_type)) return 100;
  const vs = chart.series.flatMap((s) => truthValues(chart, s)).filter((v) => typeof v === 'number');
  return Math.max(0, ...vs) - Math.min(0, ...vs) || 1;
}

/** Points of an expected chart that a reconstructed one gives within tolerance; series matched by name, else by position. */
function comparePoints(expected, got) {
  const range = rangeOf(expected);
  const labelled = (expected.features ?? []).includes('data-labels');
  let points = 0, within = 0, names = 0, labelledPoints = 0, exact = 0;
  expected.series.forEach((es, i) => {
    const label = norm(es.name ?? es.legend_label);
    const byName = got.series.find((gs) => label && norm(gs.name) === label);
    if (byName) names++;
    const gs = byName ?? got.series[i];
    truthValues(expected, es).forEach((v, k) => {
      points++;
      const g = gs?.values?.[k];
      if (v === null || v === undefined) { if (g === null || g === undefined) within++; return; }
      if (typeof g === 'number' && Math.abs(g - v) <= TOLERANCE * range) within++;
      if (labelled) { labelledPoints++; if (g === v) exact++; }
    });
  });
  return { points, within, names, series: expected.series.length, labelledPoints, exact };
}

/** Why a matched chart falls short, as classes (never naming the file): counted per part in aggregate. */
function failureReasons(exp, got, score) {
  const reasons = [];
  if (got.chart_type !== exp.chart_type) reasons.push(`type ${family(exp.chart_type)} read as ${family(got.chart_type)}${got.chart_type === exp.chart_type.replace(/-(percent-)?stacked$/, '') ? ' (stacking missed)' : ''}`);
  if (got.series.length !== exp.series.length) reasons.push(got.series.length < exp.series.length ? 'series count: fewer' : 'series count: more');
  const expN = Math.max(...exp.series.map((s) => s.values.length)), gotN = Math.max(0, ...got.series.map((s) => s.values.length));
  if (gotN !== expN) reasons.push(gotN < expN ? 'category count: fewer' : 'category count: more');
  if (score.names < score.series) {
    // what came back for each series missing its name (classes only, no text): a default "Series k", another
    // chart series' name, or other text; and whether the expected name is one the legend draws
    for (const [i, es] of exp.series.entries()) {
      const label = norm(es.name ?? es.legend_label);
      if (got.series.some((gs) => label && norm(gs.name) === label)) continue;
      const g = norm(got.series[i]?.name);
      const kind = !got.series[i] ? 'no series' : /^series \d+$/.test(g) ? 'default "Series k"' : exp.series.some((o) => norm(o.name ?? o.legend_label) === g) ? 'another series\' name' : 'other text';
      reasons.push(`series names missing (${family(exp.chart_type)}): got ${kind}${es.in_legend === false ? ', not in the legend' : es.name === null ? ', unnamed (legend label)' : ''}`);
    }
  }
  if (score.within < score.points) reasons.push(reasons.some((r) => r.startsWith('series count') || r.startsWith('category count')) ? 'points off (with a count mismatch)' : 'points off (counts agree)');
  if ((exp.features ?? []).includes('data-labels') && score.exact < score.labelledPoints) reasons.push('data labels not taken exactly');
  return [...new Set(reasons)];
}

/** A chart type's family: the plot kind without stacking, one bucket for combined charts. */
const family = (t) => (t.includes('+') ? 'combined' : t.replace(/-(percent-)?stacked$/, '').replace(/^bubble$/, 'scatter').replace(/^doughnut$/, 'pie').replace(/^radar-filled$/, 'radar'));

const files = fs.readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort().filter((f) => !only || f.includes(only))
  .filter((f) => parts.includes(partOf('pdf-charts', f)) && fs.existsSync(path.join(dir, f.replace(/\.pdf$/, '.expected.json'))));
const results = [];
for (const file of files) {
  const part = partOf('pdf-charts', file);
  const truth = JSON.parse(fs.readFileSync(path.join(dir, file.replace(/\.pdf$/, '.expected.json')), 'utf8'));
  const res = { name: file.replace(/\.pdf$/, ''), part, expected: truth.charts.length, found: 0, chartFigures: 0, matched: 0, typeOk: 0, titleOk: 0, points: 0, within: 0, series: 0, names: 0, labelledPoints: 0, exact: 0, details: [] };
  try {
    const doc = await extractDocument(new Uint8Array(fs.readFileSync(path.join(dir, file))), 'pdf');
    const out = reconstructCharts(doc, 'no series read from the drawing');
    const figures = doc.pages.flatMap((p) => p.elements.filter((e) => e.kind === 'figure' && e.visualType === 'chart'));
    res.chartFigures = figures.length;
    const pool = out.charts.map((c) => ({ c, used: false }));
    for (const exp of truth.charts) {
      let best = null;
      for (const cand of pool) {
        if (cand.used || cand.c.page !== exp.page) continue;
        const score = comparePoints(exp, cand.c);
        if (!best || score.within > best.score.within) best = { cand, score };
      }
      if (!best) {
        const total = exp.series.reduce((n, s) => n + s.values.length, 0);
        const onPage = doc.pages.find((p) => p.number === exp.page)?.elements.filter((e) => e.kind === 'figure') ?? [];
        const reason = out.charts.some((c) => c.page === exp.page) ? 'not found: page\'s charts taken by other expected charts'
          : onPage.length ? `not found: drawing kept as a figure (${[...new Set(onPage.map((e) => e.visualType))].join('/')})` : 'not found: no figure on the page';
        // what the page's drawing holds: reported in aggregate over the not-found charts of a part
        const stats = await pageStats(new Uint8Array(fs.readFileSync(path.join(dir, file))), exp.page).catch(() => null);
        res.points += total; res.series += exp.series.length; res.details.push({ page: exp.page, expected: exp.chart_type, got: null, within: 0, total, reasons: [reason], stats, features: exp.features }); continue;
      }
      best.cand.used = true;
      res.matched++;
      if (best.cand.c.chart_type === exp.chart_type) res.typeOk++;
      if (norm(best.cand.c.title) === norm(exp.title)) res.titleOk++;
      res.points += best.score.points; res.within += best.score.within; res.series += best.score.series; res.names += best.score.names;
      res.labelledPoints += best.score.labelledPoints; res.exact += best.score.exact;
      const reasons = failureReasons(exp, best.cand.c, best.score);
      // pages of charts read short of the truth: what their drawing holds, in aggregate like the not-found ones
      const shortStats = reasons.length ? await pageStats(new Uint8Array(fs.readFileSync(path.join(dir, file))), exp.page).catch(() => null) : null;
      res.details.push({ page: exp.page, expected: exp.chart_type, got: best.cand.c.chart_type, points: `${best.score.within}/${best.score.points}`, names: `${best.score.names}/${best.score.series}`, within: best.score.within, total: best.score.points, reasons, shortStats, features: exp.features });
    }
    // a chart figure that is no expected chart (unconverted ones included) lowers precision
    res.found = res.matched;
  } catch (e) {
    res.error = e instanceof Error ? e.message : String(e);
  }
  results.push(res);
  if (part === 'dev' && !asJson) {
    console.log(`${res.name}: charts ${res.matched}/${res.expected} (chart figures ${res.chartFigures}), type ${res.typeOk}/${res.matched}, points ${res.within}/${res.points}, names ${res.names}/${res.series}${res.error ? ` ERROR ${res.error}` : ''}`);
    for (const d of res.details) console.log(`   p${d.page} ${d.expected} → ${d.got ?? 'not found'}${d.points ? ` points ${d.points} names ${d.names}` : ''}`);
  }
}

const sum = (rs, k) => rs.reduce((n, r) => n + r[k], 0);
const aggregate = (rs) => ({
  files: rs.length, failed: rs.filter((r) => r.error).length,
  recall: ratioFigure(sum(rs, 'matched'), sum(rs, 'expected')),
  precision: ratioFigure(sum(rs, 'matched'), sum(rs, 'chartFigures')),
  type: ratioFigure(sum(rs, 'typeOk'), sum(rs, 'matched')),
  title: ratioFigure(sum(rs, 'titleOk'), sum(rs, 'matched')),
  points: ratioFigure(sum(rs, 'within'), sum(rs, 'points')),
  names: ratioFigure(sum(rs, 'names'), sum(rs, 'series')),
  exact: ratioFigure(sum(rs, 'exact'), sum(rs, 'labelledPoints')),
});
const byPart = Object.fromEntries(parts.map((p) => [p, aggregate(results.filter((r) => r.part === p))]));
/** Per expected chart type (over the dev part's files): charts found and points within tolerance. */
function byType(rs) {
  const t = new Map();
  for (const d of rs.flatMap((r) => r.details)) {
    const e = t.get(d.expected) ?? { charts: 0, found: 0, within: 0, points: 0 };
    e.charts++; if (d.got) e.found++; e.within += d.within; e.points += d.total;
    t.set(d.expected, e);
  }
  return [...t.entries()].sort().map(([type, e]) => `${type} ${e.found}/${e.charts} charts, ${e.within}/${e.points} points`).join('; ');
}
/** Per family of the expected chart type and per failure reason: counts over many files, no per-file line. */
function breakdowns(rs) {
  const fam = new Map(), reasons = new Map(), features = new Map();
  for (const r of rs) for (const d of r.details) {
    const k = family(d.expected);
    const e = fam.get(k) ?? { charts: 0, found: 0, within: 0, points: 0 };
    e.charts++; if (d.got) e.found++; e.within += d.within; e.points += d.total; fam.set(k, e);
    for (const why of d.reasons ?? []) reasons.set(why, (reasons.get(why) ?? 0) + 1);
    // the expected charts' feature tags, over the charts read short or not found
    if (d.reasons?.length) for (const f of d.features ?? []) features.set(f, (features.get(f) ?? 0) + 1);
  }
  return {
    features: [...features.entries()].sort((p, q) => q[1] - p[1]).map(([k, n]) => `${k} ×${n}`).join('; ') || 'none',
    families: [...fam.entries()].sort().map(([k, e]) => `${k} ${e.found}/${e.charts} charts, ${e.within}/${e.points} points`).join('; '),
    reasons: [...reasons.entries()].sort((p, q) => q[1] - p[1]).map(([k, n]) => `${k} ×${n}`).join('; ') || 'none',
  };
}
const fmt = (f) => (f.value === null ? '–' : `${f.value.toFixed(3)} (${f.n})`);
if (asJson) console.log(JSON.stringify({ parts: byPart, dev: results.filter((r) => r.part === 'dev') }, null, 1));
else {
  for (const p of parts) {
    const a = byPart[p];
    // by type for the dev part only: a type with one chart in the validation part would name that file's result
    if (p === 'dev') console.log(`\n${p} by expected type: ${byType(results.filter((r) => r.part === p))}`);
    const b = breakdowns(results.filter((r) => r.part === p));
    if (p !== 'dev') console.log(`\n${p} by family of the expected type: ${b.families}\n${p} failure reasons (charts): ${b.reasons}`);
    else console.log(`${p} failure reasons (charts): ${b.reasons}`);
    // what the pages of charts not found hold (form XObjects, shadings, transparency, shapes, axes): counts only
    const missed = results.filter((r) => r.part === p).flatMap((r) => r.details).filter((d) => d.stats);
    if (missed.length) console.log(`${p} not-found charts' pages (${missed.length}; pages per count bucket): ${aggregateStats(missed.map((d) => d.stats))}`);
    const short = results.filter((r) => r.part === p).flatMap((r) => r.details).filter((d) => d.shortStats);
    // over two charts at least: one chart's counts would describe one file
    if (short.length >= 2) console.log(`${p} feature tags of the charts read short or not found: ${b.features}`);
    if (short.length >= 2) console.log(`${p} pages of charts read short (${short.length}; pages per count bucket): ${aggregateStats(short.map((d) => d.shortStats))}`);
    console.log(`${p === 'dev' ? '' : '\n'}${p} (${a.files} files${a.failed ? `, ${a.failed} failed` : ''}): recall ${fmt(a.recall)}, precision ${fmt(a.precision)}, type ${fmt(a.type)}, title ${fmt(a.title)}, points within 0.5% ${fmt(a.points)}, series names ${fmt(a.names)}, exact where data labels are printed ${fmt(a.exact)}`);
  }
}
const figure = (pick) => Object.fromEntries(parts.map((p) => [p, pick(byPart[p])]));
writeSummary(summaryOut, {
  eval: 'charts', parts, seconds: process.uptime(), rows: [
    { kind: 'charts (PDF drawings)', measure: 'recognition recall', unit: 'charts', ...figure((a) => a.recall) },
    { kind: 'charts (PDF drawings)', measure: 'recognition precision', unit: 'chart figures', ...figure((a) => a.precision) },
    { kind: 'charts (PDF drawings)', measure: 'chart type correct', unit: 'charts', ...figure((a) => a.type) },
    { kind: 'charts (PDF drawings)', measure: 'title correct', unit: 'charts', ...figure((a) => a.title) },
    { kind: 'charts (PDF drawings)', measure: 'points within 0.5% of range', unit: 'points', ...figure((a) => a.points) },
    { kind: 'charts (PDF drawings)', measure: 'series names', unit: 'series', ...figure((a) => a.names) },
    { kind: 'charts (PDF drawings)', measure: 'points exact where data labels are printed', unit: 'points', ...figure((a) => a.exact) },
  ],
});
