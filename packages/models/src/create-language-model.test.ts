import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLanguageModel } from './create-language-model.js';
import type { FillableCell } from './language-model.js';

const cells: FillableCell[] = [
  { index: 0, label: 'Full name', type: 'text', page: 1, currentText: '' },
  { index: 1, label: 'Married', type: 'checkbox', page: 1, currentText: '' },
];

describe('createLanguageModel', () => {
  it('is the built-in engine when no model is configured', async () => {
    const lm = createLanguageModel({});
    expect(lm.id).toBe('builtin');
    const a = await lm.mapFormInstructions({ instructions: 'Full name: Jane Doe; Favourite colour: blue', cells });
    expect(a.assignments).toEqual([expect.objectContaining({ cellIndex: 0, value: 'Jane Doe' })]);
    expect(a.unmatched).toEqual(['Favourite colour: blue']);
    await expect(lm.classify({ document: {} as never, pipelines: [] })).rejects.toMatchObject({ code: 'GENERAL_005' });
  });

  describe('OpenAI-compatible endpoint', () => {
    let server: http.Server;
    let url = '';
    const seen: { auth?: string; body: Record<string, any> }[] = [];
    let reply: (body: Record<string, any>) => { status: number; json: unknown } = () => ({ status: 500, json: {} });
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        let data = '';
        req.on('data', (c) => (data += c));
        req.on('end', () => {
          const body = JSON.parse(data);
          seen.push({ auth: req.headers.authorization, body });
          const r = reply(body);
          res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify(r.json));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('sends the cells and instructions and maps the answer; unknown indexes become unmatched', async () => {
      reply = () => ({ status: 200, json: { choices: [{ message: { content: '```json\n' + JSON.stringify({
        assignments: [{ cellIndex: 0, value: 'Jane Doe', instruction: 'name is Jane Doe' }, { cellIndex: 7, value: 'x', instruction: 'pet: cat' }],
        unmatched: ['colour: blue'],
      }) + '\n```' } }] } });
      const lm = createLanguageModel({ llm: { baseUrl: url, apiKey: 'sk-test', model: 'tiny', timeoutMs: 5000 } });
      expect(lm.id).toBe('openai:tiny');
      const a = await lm.mapFormInstructions({ instructions: 'name is Jane Doe, pet: cat, colour: blue', cells });
      expect(a.assignments).toEqual([{ cellIndex: 0, value: 'Jane Doe', instruction: 'name is Jane Doe', confidence: 0.9 }]);
      expect(a.unmatched).toEqual(['colour: blue', 'pet: cat']);
      const last = seen[seen.length - 1];
      expect(last.auth).toBe('Bearer sk-test');
      expect(last.body.model).toBe('tiny');
      expect(JSON.parse(last.body.messages[1].content)).toMatchObject({ instructions: 'name is Jane Doe, pet: cat, colour: blue', cells: [{ index: 0, label: 'Full name' }, { index: 1, type: 'checkbox' }] });
    });

    it('fails with spec codes on endpoint errors and unusable answers', async () => {
      const lm = createLanguageModel({ llm: { baseUrl: url, model: 'tiny', timeoutMs: 5000 } });
      reply = () => ({ status: 429, json: { error: 'slow down' } });
      await expect(lm.mapFormInstructions({ instructions: 'x', cells })).rejects.toMatchObject({ code: 'PROC_004' });
      reply = () => ({ status: 200, json: { choices: [{ message: { content: 'I cannot do that' } }] } });
      await expect(lm.mapFormInstructions({ instructions: 'x', cells })).rejects.toMatchObject({ code: 'PROC_001' });
    });
  });
});
