import { classifyBuiltin } from '@quire/classify';
import { mapFormInstructionsByLabel } from '@quire/forms';
import { BuiltinLanguageModel, createLanguageModel, type OpenAiSettings } from '@quire/models';
import { extractSchemaBuiltin } from '@quire/schema';
import { splitBuiltin } from '@quire/split';
import { startChatServer, type ChatReply } from '../support/chat-server.js';
import { describeLanguageModelConformance } from './language-model-suite.js';

describeLanguageModelConformance('built-in engine', async () => ({
  model: createLanguageModel(undefined, { extractSchema: extractSchemaBuiltin, classify: classifyBuiltin, split: splitBuiltin, mapFormInstructions: mapFormInstructionsByLabel }),
  failures: [
    { what: 'a build without the step\'s engine', model: new BuiltinLanguageModel({}), code: 'GENERAL_005', methods: ['extractSchema', 'classify', 'split'] },
  ],
}));

const between = (text: string, start: string, end: string) => text.slice(text.indexOf(start) + start.length, text.indexOf(end));

/**
 * A model behind the local chat-completions server that answers every task in the format asked, with
 * the slips real models make: an invented pipeline, topic, page and cell, an out-of-range confidence,
 * a value of the wrong type, a citation of an id the document does not have, text beyond a field's length.
 */
function scriptedModel(body: { messages: { content: unknown }[] }): string {
  const system = String(body.messages[0].content);
  const user = typeof body.messages[1].content === 'string' ? body.messages[1].content : '';
  if (system.startsWith('You route documents')) {
    const pipelines = JSON.parse(between(user, 'Pipelines:\n', '\n\nDocument:')) as { pipeline_id: string }[];
    return JSON.stringify({ pipeline_id: pipelines[0].pipeline_id, scores: [...pipelines.map((p, i) => ({ pipeline_id: p.pipeline_id, score: i ? 0.2 : 0.9 })), { pipeline_id: 'invented', score: 1 }] });
  }
  if (system.startsWith('You split')) {
    const [a, b, c] = (JSON.parse(between(user, 'Topics:\n', '\n\nPages:')) as { name: string }[]).map((t) => t.name);
    return JSON.stringify({ groups: [{ topic: a, pages: [1], confidence: 0.9 }, { topic: b, pages: [1, 2], confidence: 1.5 }, { topic: 'invented', pages: [3] }, { topic: c, pages: [3, 99] }] });
  }
  if (system.startsWith('You fill form fields')) {
    const { cells } = JSON.parse(user) as { cells: { index: number; type: string; label: string }[] };
    return JSON.stringify({
      assignments: [...cells.map((c) => ({ cell_index: c.index, value: c.type === 'checkbox' ? 'true' : 'Jane Doe 123456', confidence: 0.8, instruction: c.label })), { cell_index: 99, value: 'blue', instruction: 'Favourite colour: blue' }],
      unmatched: [],
    });
  }
  if (system.startsWith('You extract structured data') || system.startsWith('You check a structured answer')) {
    const id = /\[([\w-]+)\] Invoice number:/.exec(user)?.[1];
    return JSON.stringify({
      values: { invoice_number: 'INV-2024-001', invoice_date: '2024-03-15', total: 'one hundred and twenty', vendor: { name: 'ACME Supplies Ltd' }, line_items: [{ description: 'Paper A4', amount: 50 }] },
      citations: { invoice_number: [id], invoice_date: ['txt-999'], total: [id], vendor: { name: [id] }, line_items: [{ description: [id], amount: [] }] },
      confidence: { invoice_number: 0.9, invoice_date: 1.7, total: 0.5, vendor: { name: 0.8 }, line_items: [{ description: 0.6, amount: 0.4 }] },
    });
  }
  if (system.startsWith('Describe the figure')) return 'A bar chart of revenue by region; North leads.';
  if (system.startsWith('You read the data of one chart')) {
    return JSON.stringify({ chart_type: 'bar', title: 'Revenue', categories: ['North', 'South'], series: [{ name: '2024', values: [10, '12 %'] }] });
  }
  throw new Error(`the scripted model has no answer for: ${system.slice(0, 80)}`);
}

describeLanguageModelConformance('OpenAI-compatible adapter (local chat-completions server)', async () => {
  const servers = await Promise.all([
    startChatServer(scriptedModel),
    startChatServer((): ChatReply => ({ status: 429 })),
    startChatServer((): ChatReply => ({ status: 503 })),
    startChatServer((): ChatReply => ({ status: 400 })),
    startChatServer(() => 'Sorry, I cannot help with that.'),
    startChatServer((): ChatReply => ({ hang: true })),
    startChatServer(() => ''),
  ]);
  const [working, limited, down, refused, prose, hanging, gone] = servers;
  await gone.close(); // its port now refuses connections
  const model = (baseUrl: string, more: Partial<OpenAiSettings> = {}) => createLanguageModel({ baseUrl, model: 'm', timeoutMs: 5_000, ...more }, {});
  return {
    model: model(working.baseUrl, { visionModel: 'eyes' }),
    failures: [
      { what: 'HTTP 429', model: model(limited.baseUrl), code: 'PROC_004' },
      { what: 'HTTP 503', model: model(down.baseUrl), code: 'PROC_003' },
      { what: 'HTTP 400', model: model(refused.baseUrl), code: 'PROC_001' },
      { what: 'an answer that is not JSON', model: model(prose.baseUrl), code: 'PROC_001' },
      { what: 'no answer within the time limit', model: model(hanging.baseUrl, { timeoutMs: 100 }), code: 'PROC_002' },
      { what: 'an endpoint that refuses connections', model: model(gone.baseUrl), code: 'PROC_003' },
    ],
    close: async () => { await Promise.all(servers.filter((s) => s !== gone).map((s) => s.close())); },
  };
});
