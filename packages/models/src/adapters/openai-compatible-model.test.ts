import { QuireError } from '@quire/core';
import { OpenAiCompatibleModel, parseJsonObject } from './openai-compatible-model.js';
import { createLanguageModel } from './create-language-model.js';
import { BuiltinLanguageModel } from './builtin-language-model.js';
import { documentOf, lines, page } from '../../../../tests/fixtures/documents/builder.js';

const settings = { baseUrl: 'http://llm.test/v1', apiKey: 'k', model: 'm', timeoutMs: 1_000 };
const doc = documentOf([1, 2, 3].map((n) => page(n, lines([`Page text ${n}`], 0.1, 0.1))));

/** A fake endpoint answering `content` and recording the requests it saw. */
function fakeFetch(content: string, status = 200) {
  const seen: { url: string; body: Record<string, unknown>; auth?: string }[] = [];
  const fn = (async (url: string, init: RequestInit) => {
    seen.push({ url, body: JSON.parse(String(init.body)), auth: new Headers(init.headers).get('authorization') ?? undefined });
    return new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status });
  }) as unknown as typeof fetch;
  return { fn, seen };
}

describe('OpenAiCompatibleModel', () => {
  it('classify keeps only known pipelines and fills the rest with 0', async () => {
    const { fn, seen } = fakeFetch('```json\n{"pipeline_id":"a","scores":[{"pipeline_id":"a","score":0.9},{"pipeline_id":"zz","score":1}]}\n```');
    const m = new OpenAiCompatibleModel(settings, fn);
    const out = await m.classify({ document: doc, pipelines: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] });
    expect(out).toEqual({ pipelineId: 'a', scores: [{ pipelineId: 'a', score: 0.9 }, { pipelineId: 'b', score: 0 }] });
    expect(seen[0].url).toBe('http://llm.test/v1/chat/completions');
    expect(seen[0].auth).toBe('Bearer k');
    expect(seen[0].body.model).toBe('m');
  });

  it('split drops unknown topics, missing pages and pages claimed twice', async () => {
    const { fn } = fakeFetch(JSON.stringify({ groups: [
      { topic: 'x', pages: [1, 2], confidence: 0.8 }, { topic: 'nope', pages: [3] }, { topic: 'y', pages: [2, 3, 9], confidence: 2 },
    ] }));
    const out = await new OpenAiCompatibleModel(settings, fn).split({ document: doc, topics: [{ name: 'x' }, { name: 'y' }] });
    expect(out.groups).toEqual([{ topic: 'x', pages: [1, 2], confidence: 0.8 }, { topic: 'y', pages: [3], confidence: 1 }]);
  });

  it('form instructions: keeps known cells, truncates to maxLength, reports assignments to unknown cells as unmatched', async () => {
    const { fn, seen } = fakeFetch(JSON.stringify({
      assignments: [{ cell_index: 0, value: 'Jane Doe', instruction: 'name is Jane Doe', confidence: 0.8 }, { cell_index: 7, value: 'cat', instruction: 'pet: cat' }, { cell_index: 1, value: 'ABCDEFG', instruction: 'code ABCDEFG' }],
      unmatched: ['colour: blue'],
    }));
    const cells = [
      { index: 0, label: 'Full name', type: 'text' as const, page: 1, currentText: '' },
      { index: 1, label: 'Code', type: 'text' as const, page: 1, currentText: '', maxLength: 4 },
    ];
    const out = await new OpenAiCompatibleModel({ ...settings, baseUrl: 'http://llm.test/v1/' }, fn).mapFormInstructions({ instructions: 'name is Jane Doe, pet: cat, colour: blue, code ABCDEFG', cells });
    expect(out.assignments).toEqual([
      { cellIndex: 0, value: 'Jane Doe', confidence: 0.8, instruction: 'name is Jane Doe' },
      { cellIndex: 1, value: 'ABCD', confidence: 0.5, instruction: 'code ABCDEFG', note: 'truncated to 4 characters' },
    ]);
    expect(out.unmatched).toEqual(['colour: blue', 'pet: cat']);
    expect(seen[0].url).toBe('http://llm.test/v1/chat/completions');
  });

  it('describeFigure sends the image as a data URL to the vision model', async () => {
    const { fn, seen } = fakeFetch('A bar chart of revenue by region; North leads.');
    const m = new OpenAiCompatibleModel({ ...settings, visionModel: 'eyes' }, fn);
    expect(m.supportsVision).toBe(true);
    const text = await m.describeFigure({ image: { bytes: new Uint8Array([1, 2, 3]), mime: 'image/png' }, caption: 'Figure 1: Revenue' });
    expect(text).toBe('A bar chart of revenue by region; North leads.');
    const body = seen[0].body as { model: string; messages: { content: unknown }[] };
    expect(body.model).toBe('eyes');
    expect(JSON.stringify(body.messages[1].content)).toContain('data:image/png;base64,AQID');
    await expect(new OpenAiCompatibleModel(settings, fn).describeFigure({ image: { bytes: new Uint8Array([1]), mime: 'image/png' } })).rejects.toMatchObject({ code: 'GENERAL_005' });
  });

  it('maps transport failures to the spec codes', async () => {
    const m429 = new OpenAiCompatibleModel(settings, fakeFetch('{}', 429).fn);
    await expect(m429.split({ document: doc, topics: [{ name: 'x' }] })).rejects.toMatchObject({ code: 'PROC_004' });
    const bad = new OpenAiCompatibleModel(settings, fakeFetch('not json').fn);
    await expect(bad.classify({ document: doc, pipelines: [{ id: 'a', name: 'A' }] })).rejects.toBeInstanceOf(QuireError);
    const down = new OpenAiCompatibleModel(settings, (async () => { throw new TypeError('fetch failed'); }) as unknown as typeof fetch);
    await expect(down.classify({ document: doc, pipelines: [{ id: 'a', name: 'A' }] })).rejects.toMatchObject({ code: 'PROC_003' });
  });

  it('withSignal: a call in flight stops when the job\'s signal fires, failing with its reason', async () => {
    let onRequest!: () => void;
    const requested = new Promise<void>((r) => { onRequest = r; });
    // an endpoint that never answers, but gives up when its request is aborted (as fetch does)
    const hanging = ((_url: string, init: RequestInit) => new Promise((_, reject) => {
      onRequest();
      init.signal!.addEventListener('abort', () => reject(init.signal!.reason), { once: true });
    })) as unknown as typeof fetch;
    const job = new AbortController();
    const model = new OpenAiCompatibleModel({ ...settings, timeoutMs: 600_000 }, hanging).withSignal(job.signal);
    const call = model.classify({ document: doc, pipelines: [{ id: 'a', name: 'A' }] });
    await requested;
    const reason = new QuireError('PROC_002', 'Processing took longer than 1 s');
    job.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect('withSignal' in new BuiltinLanguageModel({})).toBe(false); // nothing of the built-in engine's to abort
  });

  it('createLanguageModel picks the adapter from the settings', () => {
    expect(createLanguageModel(undefined, {})).toBeInstanceOf(BuiltinLanguageModel);
    expect(createLanguageModel(settings, {}).id).toBe('openai:m');
  });

  it('parseJsonObject tolerates prose around the object', () => {
    expect(parseJsonObject('Sure! {"a":1} done')).toEqual({ a: 1 });
    expect(parseJsonObject('[1,2]')).toBeNull();
  });
});
