import fs from 'node:fs';
import { Command, Option } from 'commander';
import type { ExtractOptions, JobProgress, Quire, SplitRequest } from '@quire/sdk';
import { CliError, EXIT } from './exit-codes.js';
import { expandInputs, type DocumentInput } from './inputs.js';
import { createReporter, progressMode } from './progress.js';
import { runDocuments, type RunSummary } from './run-documents.js';

export interface ClientContext {
  /** The client for this run (connection resolved from flags, env and config file). */
  client: (cmd: Command) => Quire;
  signal: AbortSignal;
}

type Produce = (client: Quire, doc: DocumentInput, onProgress: (p: JobProgress) => void, signal: AbortSignal) => Promise<{ output: string; summary: string }>;

/** The options every document command shares: output, resume, concurrency, progress, pages. */
function documentCommand(name: string, description: string): Command {
  return new Command(name).description(description)
    .argument('<inputs...>', 'files, directories (every supported file below) or http(s) URLs')
    .option('-o, --out <dir>', 'write one output per document under DIR (mirrors directories); without it, one document goes to stdout')
    .option('--pages <range>', 'pages to read, e.g. 1-3,5')
    .option('-c, --concurrency <n>', 'documents processed at once', positiveInt, 2)
    .option('-f, --force', 'redo documents whose output already exists (default: skip them, so a rerun resumes)', false)
    .addOption(new Option('--progress <mode>', 'progress display (default: bars on a terminal, lines otherwise; env QUIRE_PROGRESS)').choices(['tty', 'plain', 'none']));
}

export function documentCommands(ctx: ClientContext, setExit: (code: number) => void): Command[] {
  const run = async (cmd: Command, inputs: string[], ext: string, produce: Produce) => {
    const o = cmd.opts<{ out?: string; concurrency: number; force: boolean; progress?: string }>();
    const docs = expandInputs(inputs);
    if (o.out === undefined && docs.length > 1) throw new CliError(`${docs.length} documents: give --out DIR for their outputs`, EXIT.USAGE);
    const client = ctx.client(cmd);
    const reporter = createReporter(progressMode(o.progress, process.env, process.stderr), process.stderr);
    const summary = await runDocuments(docs, {
      outDir: o.out, ext, force: o.force, concurrency: o.concurrency, reporter, signal: ctx.signal,
      process: (doc, onProgress, signal) => produce(client, doc, onProgress, signal),
    });
    setExit(exitOf(summary));
  };
  const extractOptions = (cmd: Command): ExtractOptions => {
    const o = cmd.opts<{ pages?: string; images?: boolean }>();
    return { ...(o.pages ? { pages: o.pages } : {}), ...(o.images ? { figure_processing: { show_images: true } } : {}) };
  };
  const extractFirst = (client: Quire, doc: DocumentInput, cmd: Command, onProgress: (p: JobProgress) => void, signal: AbortSignal) =>
    client.extract(doc.input, extractOptions(cmd), { signal, onProgress });

  const extract = documentCommand('extract', 'Extract documents to markdown or JSON (POST /extract)')
    .addOption(new Option('--format <format>', 'md: the markdown; json: the whole result').choices(['md', 'json']).default('md'))
    .option('--images', 'also crop figure images (figure_processing.show_images)', false)
    .action(async (inputs: string[], _o, cmd: Command) => {
      const format = cmd.opts<{ format: 'md' | 'json' }>().format;
      await run(cmd, inputs, format === 'md' ? '.md' : '.json', async (client, doc, onProgress, signal) => {
        const r = await extractFirst(client, doc, cmd, onProgress, signal);
        return { output: format === 'md' ? r.markdown : JSON.stringify(r, null, 2), summary: `${r.page_count} pages, ${r.credits_used} credits` };
      });
    });

  const schema = documentCommand('schema', 'Extract documents, then apply a JSON schema to each (POST /schema); JSON out')
    .requiredOption('--schema <file>', 'JSON Schema of the data to extract (a file)')
    .option('--prompt <text>', 'schema_prompt: guidance in plain words')
    .action(async (inputs: string[], _o, cmd: Command) => {
      const o = cmd.opts<{ schema: string; prompt?: string }>();
      const input_schema = readJsonFile(o.schema, '--schema');
      await run(cmd, inputs, '.json', async (client, doc, onProgress, signal) => {
        const { extraction_id } = await extractFirst(client, doc, cmd, onProgress, signal);
        const r = await client.schema({ extraction_id: extraction_id!, schema_config: { input_schema, ...(o.prompt ? { schema_prompt: o.prompt } : {}) } }, { signal, async: true });
        return { output: JSON.stringify(r, null, 2), summary: `schema ${r.schema_id}` };
      });
    });

  const tables = documentCommand('tables', 'Extract documents, then their tables (POST /tables); JSON out')
    .option('--merge', 'merge tables that continue across pages', false)
    .addOption(new Option('--table-format <format>', 'table_content as html or json').choices(['html', 'json']).default('html'))
    .action(async (inputs: string[], _o, cmd: Command) => {
      const o = cmd.opts<{ merge: boolean; tableFormat: 'html' | 'json' }>();
      await run(cmd, inputs, '.tables.json', async (client, doc, onProgress, signal) => {
        const { extraction_id } = await extractFirst(client, doc, cmd, onProgress, signal);
        const r = await client.tables({ extraction_id: extraction_id!, tables_config: { merge: o.merge, table_format: o.tableFormat } }, { signal, async: true });
        return { output: JSON.stringify(r, null, 2), summary: `${r.tables_output.tables.length} tables` };
      });
    });

  const split = documentCommand('split', 'Extract documents, then divide each into topic page groups (POST /split); JSON out')
    .requiredOption('--topics <list>', 'topics as "name[:description]" separated by ";", or @FILE with a JSON array of {name, description}')
    .action(async (inputs: string[], _o, cmd: Command) => {
      const split_input = parseTopics(cmd.opts<{ topics: string }>().topics);
      await run(cmd, inputs, '.split.json', async (client, doc, onProgress, signal) => {
        const { extraction_id } = await extractFirst(client, doc, cmd, onProgress, signal);
        const r = await client.split({ extraction_id: extraction_id!, split_config: { split_input } }, { signal, async: true });
        return { output: JSON.stringify(r, null, 2), summary: r.splits.map((s) => `${s.name}: ${s.pages.join(',') || '-'}`).join('; ') };
      });
    });

  return [extract, schema, tables, split];
}

function exitOf(s: RunSummary): number {
  if (s.interrupted) return EXIT.INTERRUPTED;
  if (s.fatal) return s.fatal.status === 0 ? EXIT.UNREACHABLE : EXIT.AUTH_CONFIG;
  return s.failed ? EXIT.SOME_FAILED : EXIT.OK;
}

export function readJsonFile(file: string, what: string): Record<string, unknown> {
  let parsed: unknown;
  try { parsed = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { throw new CliError(`${what} ${file}: ${(e as Error).message}`, EXIT.USAGE); }
  if (typeof parsed !== 'object' || parsed === null) throw new CliError(`${what} ${file}: expected a JSON object or array`, EXIT.USAGE);
  return parsed as Record<string, unknown>;
}

function parseTopics(spec: string): SplitRequest['split_config']['split_input'] {
  if (spec.startsWith('@')) {
    const list = readJsonFile(spec.slice(1), '--topics');
    if (!Array.isArray(list)) throw new CliError('--topics file: expected a JSON array of {name, description}', EXIT.USAGE);
    return list as SplitRequest['split_config']['split_input'];
  }
  const topics = spec.split(';').map((s) => s.trim()).filter(Boolean).map((s) => {
    const i = s.indexOf(':');
    return i < 0 ? { name: s } : { name: s.slice(0, i).trim(), description: s.slice(i + 1).trim() };
  });
  if (!topics.length) throw new CliError('--topics: give at least one topic', EXIT.USAGE);
  return topics;
}

export function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`expected a positive integer, got "${v}"`, EXIT.USAGE);
  return n;
}
