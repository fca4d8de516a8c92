// The cost of checking a stored job payload against its kind's schemas (parseJobPayload, run where each
// handler starts), for the largest payloads the gateway writes, beside a JSON.parse of the same JSON
// (what reading the job row costs anyway).
// Usage: node scripts/build.mjs && node scripts/bench-job-payloads.mjs [rounds=200]
import { parseJobPayload } from '../packages/queue/dist/index.js';

const rounds = Number(process.argv[2] ?? 200);
const cell = (i) => ({
  page_number: 1 + (i % 50), type: i % 3 ? 'text' : 'checkbox', bounding_box: [0.1, 0.2, 0.3, 0.4], text: `value ${i}`, row: i % 7, col: i % 5,
  ...(i % 3 ? {} : { checkbox_details: [{ center_coord: [0.1, 0.2], selected: true, text: 'Yes' }, { center_coord: [0.3, 0.2], selected: false, text: 'No' }] }),
});
const formFill = (cells) => ['form_fill', { async: false, base_url: 'http://x', instructions: 'fill it', form_fields: Array.from({ length: cells }, (_, i) => cell(i)) }, { form_id: 'f', page_count: 50, source: 'form' }];
const properties = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`field_${i}`, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'number' } } } }]));
const config = { input_schema: { type: 'object', properties }, effort: false, agentic_confidence: false };
const cases = {
  'extract (1,000 pages)': ['extract', { async: false, base_url: 'http://x', pages: '1-1000', show_images: true, figure_description: false, footnote_references: false, detect_selections: false, return_html: false, storage: true }, { blob_key: 'o/j/source', filename: 'a.pdf', size: 123, page_count: 1000, source: 'upload', format: 'pdf' }],
  'form_fill, 500 form_fields': formFill(500),
  'form_fill, 10,000 form_fields': formFill(10_000),
  'classify, 100 pipelines × 100 keywords': ['classify', { async: false, inline_pipelines: true }, { extraction_id: 'e', pipelines: Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, name: `pipeline ${i}`, description: 'x'.repeat(2000), keywords: Array.from({ length: 100 }, (_, k) => `kw${k}`) })) }],
  'schema split, 100 topics × 500 properties': ['schema', { async: true, mode: 'split', config_key: 'k', topics: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`t${i}`, config])) }, { extraction_ids: ['e'], split_id: 's' }],
};
const msPer = (fn) => {
  for (let i = 0; i < 20; i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) fn();
  return (performance.now() - t0) / rounds;
};
for (const [name, [kind, request, input]] of Object.entries(cases)) {
  const json = JSON.stringify({ request, input });
  const check = msPer(() => parseJobPayload(kind, { request, input }));
  const read = msPer(() => JSON.parse(json));
  console.log(`${name.padEnd(42)} ${(json.length / 1024).toFixed(0).padStart(5)} KiB  check ${check.toFixed(3)} ms   JSON.parse ${read.toFixed(3)} ms`);
}
