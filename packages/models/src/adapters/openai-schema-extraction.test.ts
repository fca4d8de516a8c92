import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Document } from '@quire/core';
import { OpenAiCompatibleModel } from './openai-compatible-model.js';
import { createLanguageModel } from './create-language-model.js';

/** A chat-completions server in the test: records each request and answers from a script. */
function chatServer(script: ((body: any) => { status?: number; content?: string; raw?: string })[]) {
  const requests: { headers: http.IncomingHttpHeaders; url: string; body: any }[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data);
      requests.push({ headers: req.headers, url: req.url ?? '', body });
      const step = script[Math.min(requests.length - 1, script.length - 1)](body);
      res.writeHead(step.status ?? 200, { 'content-type': 'application/json' });
      res.end(step.raw ?? JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: step.content ?? '' }, finish_reason: 'stop' }] }));
    });
  });
  return {
    requests,
    start: () => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`))),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const doc: Document = {
  format: 'pdf', pageCount: 1, warnings: [],
  pages: [{
    number: 1, width: 612, height: 792, words: [], selectionMarks: [],
    elements: [
      { kind: 'text', id: 'txt-1', category: 'Title', text: 'INVOICE', box: null, page: 1, confidence: 1 },
      { kind: 'text', id: 'txt-2', category: 'Text', text: 'Invoice No: INV-7', box: null, page: 1, confidence: 1 },
      {
        kind: 'table', id: 'tbl-1', page: 1, box: null, rows: 1, cols: 2, headerRows: 0, confidence: null,
        cells: [
          { id: 'tbl-1-r0c0', row: 0, col: 0, rowSpan: 1, colSpan: 1, text: 'Total', box: null, isHeader: false, confidence: null },
          { id: 'tbl-1-r0c1', row: 0, col: 1, rowSpan: 1, colSpan: 1, text: '42.50', box: null, isHeader: false, confidence: null },
        ],
      },
    ],
  }],
};

const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' } }, required: ['invoice_number', 'total'] };
const good = JSON.stringify({ values: { invoice_number: 'INV-7', total: 42.5 }, citations: { invoice_number: ['txt-2'], total: ['tbl-1-r0c1'] }, confidence: { invoice_number: 0.9, total: 0.8 } });

describe('OpenAI-compatible adapter against a local chat-completions server', () => {
  it('sends a chat-completions request with response_format json_schema and returns the checked answer', async () => {
    const srv = chatServer([() => ({ content: good })]);
    const baseUrl = await srv.start();
    try {
      const model = new OpenAiCompatibleModel({ baseUrl, apiKey: 'sk-test', model: 'small', strongModel: 'big', timeoutMs: 5000 });
      const answer = await model.extractSchema({ document: doc, schema, prompt: 'Amounts in EUR', wantConfidence: true });
      expect(answer.values).toEqual({ invoice_number: 'INV-7', total: 42.5 });
      expect(answer.citations).toEqual({ invoice_number: ['txt-2'], total: ['tbl-1-r0c1'] });
      expect(answer.confidence).toEqual({ invoice_number: 0.9, total: 0.8 });
      expect(srv.requests).toHaveLength(1);
      const { url, headers, body } = srv.requests[0];
      expect(url).toBe('/v1/chat/completions');
      expect(headers.authorization).toBe('Bearer sk-test');
      expect(body.model).toBe('small');
      expect(body.messages[0].role).toBe('system');
      expect(body.messages[1].content).toContain('Amounts in EUR');
      expect(body.messages[1].content).toContain('[txt-2] Invoice No: INV-7');
      expect(body.response_format.type).toBe('json_schema');
      expect(body.response_format.json_schema.schema.properties.values).toEqual(schema);
      expect(body.response_format.json_schema.schema.required).toEqual(['values', 'citations', 'confidence']);
      // effort picks the strong model
      await model.extractSchema({ document: doc, schema, effort: true });
      expect(srv.requests[1].body.model).toBe('big');
    } finally { await srv.stop(); }
  });

  it('retries once with the problems listed when the output is invalid, then accepts the fixed answer', async () => {
    const bad = JSON.stringify({ values: { invoice_number: 'INV-7', total: 'forty-two' }, citations: { invoice_number: ['txt-99'], total: ['tbl-1-r0c1'] } });
    const srv = chatServer([() => ({ content: bad }), () => ({ content: '```json\n' + good + '\n```' })]);
    const baseUrl = await srv.start();
    try {
      const model = new OpenAiCompatibleModel({ baseUrl, model: 'm', timeoutMs: 5000 });
      const answer = await model.extractSchema({ document: doc, schema });
      expect(srv.requests).toHaveLength(2);
      const feedback = srv.requests[1].body.messages.at(-1).content as string;
      expect(feedback).toMatch(/values\/total must be number/);
      expect(feedback).toMatch(/txt-99/);
      expect(srv.requests[1].body.messages.at(-2).role).toBe('assistant');
      expect(answer.values).toEqual({ invoice_number: 'INV-7', total: 42.5 });
      expect(answer.confidence).toBeUndefined();
    } finally { await srv.stop(); }
  });

  it('after a second invalid answer it nulls what fails the schema and drops ids not in the extraction', async () => {
    const bad = JSON.stringify({ values: { invoice_number: 'INV-7', total: 'n/a' }, citations: { invoice_number: ['txt-2', 'txt-404'], total: ['tbl-1-r0c1'] } });
    const srv = chatServer([() => ({ content: bad })]);
    const baseUrl = await srv.start();
    try {
      const answer = await new OpenAiCompatibleModel({ baseUrl, model: 'm', timeoutMs: 5000 }).extractSchema({ document: doc, schema });
      expect(srv.requests).toHaveLength(2);
      expect(answer.values).toEqual({ invoice_number: 'INV-7', total: null });
      expect(answer.citations).toEqual({ invoice_number: ['txt-2'], total: null });
      expect(answer.notes?.['/total']).toMatch(/failed schema validation/);
    } finally { await srv.stop(); }
  });

  it('non-JSON twice fails PROC_001; HTTP 429 and 5xx map to retryable codes', async () => {
    const srv = chatServer([() => ({ content: 'Sorry, I cannot help.' })]);
    let baseUrl = await srv.start();
    try {
      await expect(new OpenAiCompatibleModel({ baseUrl, model: 'm', timeoutMs: 5000 }).extractSchema({ document: doc, schema })).rejects.toMatchObject({ code: 'PROC_001' });
      expect(srv.requests).toHaveLength(2);
    } finally { await srv.stop(); }
    const limited = chatServer([() => ({ status: 429, raw: '{"error":"slow down"}' })]);
    baseUrl = await limited.start();
    try {
      await expect(new OpenAiCompatibleModel({ baseUrl, model: 'm', timeoutMs: 5000 }).extractSchema({ document: doc, schema })).rejects.toMatchObject({ code: 'PROC_004' });
    } finally { await limited.stop(); }
    const broken = chatServer([() => ({ status: 502, raw: 'bad gateway' })]);
    baseUrl = await broken.start();
    try {
      await expect(new OpenAiCompatibleModel({ baseUrl, model: 'm', timeoutMs: 5000 }).extractSchema({ document: doc, schema })).rejects.toMatchObject({ code: 'PROC_003' });
    } finally { await broken.stop(); }
  });

  it('readChart sends the chart picture to the vision model and checks the table it answers, asking again once when it is malformed', async () => {
    const uneven = JSON.stringify({ chart_type: 'bar', categories: ['2022', '2023', '2024'], series: [{ name: 'Sales', values: [10, 12] }] });
    const fixed = JSON.stringify({
      chart_type: 'bar', title: 'Sales', x_axis_title: 'Year', y_axis_title: 'EUR m',
      categories: ['2022', '2023', 2024], series: [{ name: 'Sales', values: [10, '12.5', null] }, { name: 'Costs', values: [7, 8, 9] }],
    });
    const srv = chatServer([() => ({ content: uneven }), () => ({ content: '```json\n' + fixed + '\n```' })]);
    const baseUrl = await srv.start();
    try {
      const model = new OpenAiCompatibleModel({ baseUrl, model: 'text', visionModel: 'eyes', timeoutMs: 5000 });
      const chart = await model.readChart({ image: { bytes: new Uint8Array([1, 2, 3]), mime: 'image/png' }, caption: 'Figure 2: Sales', textInside: '2022 2023 2024' });
      expect(chart).toEqual({
        chartType: 'bar', title: 'Sales', sourceRanges: [], axes: { x: { title: 'Year' }, y: { title: 'EUR m' } },
        series: [{ name: 'Sales', categories: ['2022', '2023', 2024], values: [10, 12.5, null] }, { name: 'Costs', categories: ['2022', '2023', 2024], values: [7, 8, 9] }],
      });
      expect(srv.requests).toHaveLength(2);
      const first = srv.requests[0].body;
      expect(first.model).toBe('eyes');
      expect(first.response_format).toEqual({ type: 'json_object' });
      expect(first.messages[1].content[0].text).toContain('Figure 2: Sales');
      expect(first.messages[1].content[1].image_url.url).toBe('data:image/png;base64,AQID');
      expect(srv.requests[1].body.messages.at(-1).content).toContain('series 1 has 2 values for 3 categories');
    } finally { await srv.stop(); }
  });

  it('readChart fails PROC_001 after two unusable answers, and needs a vision model', async () => {
    const srv = chatServer([() => ({ content: JSON.stringify({ categories: ['a'], series: [{ name: 's', values: ['lots'] }] }) })]);
    const baseUrl = await srv.start();
    try {
      const image = { bytes: new Uint8Array([1]), mime: 'image/png' };
      await expect(new OpenAiCompatibleModel({ baseUrl, model: 'm', visionModel: 'v', timeoutMs: 5000 }).readChart({ image })).rejects.toMatchObject({ code: 'PROC_001' });
      expect(srv.requests).toHaveLength(2);
      await expect(new OpenAiCompatibleModel({ baseUrl, model: 'm', timeoutMs: 5000 }).readChart({ image })).rejects.toMatchObject({ code: 'GENERAL_005' });
      expect(srv.requests).toHaveLength(2);
    } finally { await srv.stop(); }
  });

  it('effort: a verification pass gets the first answer with its cited text, and its corrected value wins', async () => {
    // the first answer misreads the total (45.20 for the cited 42.50); the verification corrects it
    const misread = JSON.stringify({ values: { invoice_number: 'INV-7', total: 45.2 }, citations: { invoice_number: ['txt-2'], total: ['tbl-1-r0c1'] }, confidence: { invoice_number: 0.9, total: 0.95 } });
    const corrected = JSON.stringify({ values: { invoice_number: 'INV-7', total: 42.5 }, citations: { invoice_number: ['txt-2'], total: ['tbl-1-r0c1'] }, confidence: { invoice_number: 0.95, total: 0.9 } });
    const srv = chatServer([() => ({ content: misread }), () => ({ content: corrected })]);
    const baseUrl = await srv.start();
    try {
      const model = new OpenAiCompatibleModel({ baseUrl, model: 'small', strongModel: 'big', timeoutMs: 5000 });
      const answer = await model.extractSchema({ document: doc, schema, effort: true, wantConfidence: true });
      expect(srv.requests).toHaveLength(2);
      expect(srv.requests.map((r) => r.body.model)).toEqual(['big', 'big']);
      const check = srv.requests[1].body;
      expect(check.messages[0].content).toMatch(/check a structured answer/);
      expect(check.response_format).toEqual(srv.requests[0].body.response_format);
      const asked = check.messages[1].content as string;
      expect(asked).toContain('"values":{"invoice_number":"INV-7","total":45.2}');
      expect(asked).toContain('"citations":{"invoice_number":["txt-2"],"total":["tbl-1-r0c1"]}');
      expect(asked).toContain('/total = 45.2 cites [tbl-1-r0c1] "42.50"');
      expect(asked).toContain('[txt-2] Invoice No: INV-7');
      expect(answer.values).toEqual({ invoice_number: 'INV-7', total: 42.5 });
      expect(answer.citations).toEqual({ invoice_number: ['txt-2'], total: ['tbl-1-r0c1'] });
      // the corrected total changed in verification: its confidence is capped; the unchanged number keeps the model's
      expect(answer.confidence).toEqual({ invoice_number: 0.95, total: 0.7 });
      expect(answer.notes).toEqual({});
    } finally { await srv.stop(); }
  });

  it('effort without a strong model still verifies, with the configured model', async () => {
    const srv = chatServer([() => ({ content: good })]);
    const baseUrl = await srv.start();
    try {
      const answer = await new OpenAiCompatibleModel({ baseUrl, model: 'small', timeoutMs: 5000 }).extractSchema({ document: doc, schema, effort: true });
      expect(srv.requests.map((r) => r.body.model)).toEqual(['small', 'small']);
      expect(answer.values).toEqual({ invoice_number: 'INV-7', total: 42.5 });
      expect(answer.confidence).toBeUndefined();
    } finally { await srv.stop(); }
  });

  it('effort: a verification answer that is invalid twice leaves the first answer, with a note', async () => {
    const invalid = JSON.stringify({ values: { invoice_number: 7, total: 'n/a' }, citations: { invoice_number: ['txt-77'], total: [] } });
    const srv = chatServer([() => ({ content: good }), () => ({ content: invalid }), () => ({ content: 'no idea' })]);
    const baseUrl = await srv.start();
    try {
      const answer = await new OpenAiCompatibleModel({ baseUrl, model: 'm', timeoutMs: 5000 }).extractSchema({ document: doc, schema, effort: true, wantConfidence: true });
      expect(srv.requests).toHaveLength(3);
      // the retry of the verification lists its problems
      const retry = srv.requests[2].body.messages;
      expect(retry.at(-2).role).toBe('assistant');
      expect(retry.at(-1).content).toMatch(/values\/invoice_number must be string/);
      expect(retry.at(-1).content).toMatch(/txt-77/);
      expect(answer.values).toEqual({ invoice_number: 'INV-7', total: 42.5 });
      expect(answer.citations).toEqual({ invoice_number: ['txt-2'], total: ['tbl-1-r0c1'] });
      expect(answer.confidence).toEqual({ invoice_number: 0.9, total: 0.8 });
      expect(answer.notes?.['']).toMatch(/verification pass \(effort\) gave no valid answer.*first answer is kept: the answer is not valid JSON/);
    } finally { await srv.stop(); }
  });

  it('agentic confidence is cross-checked: unsupported citations cap it, a missing one is filled from the evidence, null has none', async () => {
    const wide = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, title: { type: 'string' }, po: { type: ['string', 'null'] } } };
    const content = JSON.stringify({
      values: { invoice_number: 'INV-8', total: 42.5, title: 'Invoice', po: null },
      citations: { invoice_number: ['txt-2'], total: ['tbl-1-r0c1'], title: ['txt-1'], po: null },
      confidence: { invoice_number: 0.99, total: 0.9, po: 0.5 },
    });
    const srv = chatServer([() => ({ content })]);
    const baseUrl = await srv.start();
    try {
      const answer = await new OpenAiCompatibleModel({ baseUrl, model: 'm', timeoutMs: 5000 }).extractSchema({ document: doc, schema: wide, wantConfidence: true });
      expect(srv.requests).toHaveLength(1);
      // INV-8 is not what txt-2 says (INV-7): capped; the title has no model figure: the supported default
      expect(answer.confidence).toEqual({ invoice_number: 0.3, total: 0.9, title: 0.6, po: null });
    } finally { await srv.stop(); }
  });

  it('createLanguageModel picks the built-in engine unless an endpoint is configured', async () => {
    const calls: unknown[] = [];
    const builtin = createLanguageModel(undefined, { extractSchema: (r) => { calls.push(r); return { values: {}, citations: {} }; } });
    expect(builtin.id).toBe('builtin');
    await builtin.extractSchema({ document: doc, schema });
    expect(calls).toHaveLength(1);
    expect(createLanguageModel({ baseUrl: 'http://127.0.0.1:1/v1', model: 'x', timeoutMs: 1000 }).id).toBe('openai:x');
  });
});
