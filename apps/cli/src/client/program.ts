import fs from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { Quire, type FormCell, type FormSource, type JobProgress } from '@quire/sdk';
import { resolveConnection } from './cli-config.js';
import { documentCommands, readJsonFile, type ClientContext } from './document-commands.js';
import { CliError, EXIT, describeError, exitCodeFor } from './exit-codes.js';
import { createReporter, progressMode } from './progress.js';

/** Runs a client command line (without `node quire`) and returns the exit code. */
export async function runClient(argv: string[]): Promise<number> {
  const controller = new AbortController();
  const interrupt = () => controller.abort(new CliError('interrupted', EXIT.INTERRUPTED));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  let exit: number = EXIT.OK;
  const ctx: ClientContext = {
    signal: controller.signal,
    client: (cmd) => {
      const g = cmd.optsWithGlobals<{ url?: string; apiKey?: string; config?: string; retries: number }>();
      const conn = resolveConnection({ url: g.url, apiKey: g.apiKey, config: g.config });
      return new Quire({ baseUrl: conn.url, apiKey: conn.apiKey, maxRetries: g.retries });
    },
  };
  const program = buildProgram(ctx, (code) => { exit = code; });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exit;
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    if (controller.signal.aborted) { process.stderr.write('interrupted\n'); return EXIT.INTERRUPTED; }
    process.stderr.write(`error: ${describeError(e)}\n`);
    return exitCodeFor(e);
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}

function buildProgram(ctx: ClientContext, setExit: (code: number) => void): Command {
  const program = new Command('quire')
    .description('Send documents to a Quire service. Connection: --url/--api-key, else QUIRE_URL/QUIRE_API_KEY, else the config file.')
    .option('--url <url>', 'service URL (env QUIRE_URL; default http://127.0.0.1:8080)')
    .option('--api-key <key>', 'API key (env QUIRE_API_KEY)')
    .option('--config <file>', 'config file {"url", "api_key"} (env QUIRE_CONFIG; default ~/.config/quire/config.json)')
    .option('--retries <n>', 'retries of retryable errors per request', (v) => nonNegativeInt(v), 3)
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', `
Running a service: quire serve (embedded mode) · quire admin … (organizations, keys, flags; 'quire admin help')
Exit codes: 0 ok · 1 some documents (or the call) failed · 2 usage error · 3 no/refused API key or bad config file
            4 service unreachable · 130 interrupted (jobs in flight are canceled)`);

  for (const cmd of documentCommands(ctx, setExit)) program.addCommand(configure(cmd));

  const form = configure(new Command('form').description('PDF forms: detect cells, fill from instructions, clear values (chain with --form-id)'));
  for (const op of ['detect', 'fill', 'clear'] as const) {
    const sub = configure(new Command(op)).description(`POST /form/${op}; prints the FormResult JSON`)
      .argument('[input]', 'the PDF: a file or an http(s) URL (or --form-id)')
      .option('--form-id <id>', 'a form_id from an earlier detect, fill or clear')
      .option('--pages <range>', 'page_range, e.g. 1-2')
      .option('--fields <file>', 'form_fields: a JSON array of FormCell (e.g. edited detect output)')
      .option('-o, --out <file>', 'also save the resulting PDF here')
      .addOption(new Option('--progress <mode>', 'progress display').choices(['tty', 'plain', 'none']));
    if (op === 'fill') sub.requiredOption('--instructions <text>', 'what to fill in, in plain words');
    sub.action(async (input: string | undefined, _o, cmd: Command) => {
      const o = cmd.opts<{ formId?: string; pages?: string; fields?: string; out?: string; instructions?: string; progress?: string }>();
      if (!!input === !!o.formId) throw new CliError('give exactly one of a PDF (file or URL) and --form-id', EXIT.USAGE);
      const source: FormSource = o.formId ? { form_id: o.formId } : /^https?:\/\//i.test(input!) ? new URL(input!) : input!;
      if (typeof source === 'string' && !fs.existsSync(source)) throw new CliError(`No such file: ${source}`, EXIT.USAGE);
      const options = { ...(o.pages ? { page_range: o.pages } : {}), ...(o.fields ? { form_fields: readJsonFile(o.fields, '--fields') as unknown as FormCell[] } : {}) };
      const client = ctx.client(cmd);
      const call = { signal: ctx.signal, onProgress: progressLine(o.progress, input ?? o.formId!) };
      const result = op === 'fill' ? await client.formFill(source, o.instructions!, options, call)
        : op === 'detect' ? await client.formDetect(source, options, call) : await client.formClear(source, options, call);
      if (o.out) fs.writeFileSync(o.out, await client.downloadPdf(result.pdf_url, { signal: ctx.signal }));
      printJson(result);
    });
    form.addCommand(sub);
  }
  program.addCommand(form);

  const jobs = configure(new Command('jobs').description('Asynchronous jobs: get, wait, cancel'));
  jobs.addCommand(configure(new Command('get')).argument('<jobId>').description('GET /job/{jobId}: the job as JSON')
    .action(async (id: string, _o, cmd: Command) => printJson(await ctx.client(cmd).getJob(id, { signal: ctx.signal }))));
  jobs.addCommand(configure(new Command('wait')).argument('<jobId>').description('Wait for a job (live progress) and print its result JSON')
    .addOption(new Option('--progress <mode>', 'progress display').choices(['tty', 'plain', 'none']))
    .action(async (id: string, _o, cmd: Command) => printJson(await ctx.client(cmd).waitForJob(id, { signal: ctx.signal, onProgress: progressLine(cmd.opts<{ progress?: string }>().progress, id) }))));
  jobs.addCommand(configure(new Command('cancel')).argument('<jobId>').description('DELETE /job/{jobId}')
    .action(async (id: string, _o, cmd: Command) => printJson(await ctx.client(cmd).cancelJob(id, { signal: ctx.signal }))));
  program.addCommand(jobs);

  program.addCommand(configure(new Command('usage')).description('GET /usage: credits, pages and documents with a timeline')
    .addOption(new Option('--granularity <g>', 'timeline buckets').choices(['day', 'week', 'month']))
    .option('--from <date>', 'start (ISO date or date-time)')
    .option('--to <date>', 'end (ISO date or date-time)')
    .action(async (_o, cmd: Command) => {
      const o = cmd.opts<{ granularity?: 'day' | 'week' | 'month'; from?: string; to?: string }>();
      printJson(await ctx.client(cmd).usage(o, { signal: ctx.signal }));
    }));
  return program;
}

/** Usage errors inside subcommands also come back as CommanderError, not process.exit. */
function configure(cmd: Command): Command {
  return cmd.exitOverride().showHelpAfterError('(add --help for usage)');
}

/** For single-call commands: status lines on stderr (a terminal gets them updated in place). */
function progressLine(flag: string | undefined, label: string): ((p: JobProgress) => void) | undefined {
  const mode = progressMode(flag, process.env, process.stderr);
  if (mode === 'none') return undefined;
  const reporter = createReporter(mode === 'tty' ? 'plain' : mode, process.stderr);
  return (p) => reporter.update(label, p.status, p.pages_done, p.pages_total);
}

const printJson = (v: unknown): void => { process.stdout.write(JSON.stringify(v, null, 2) + '\n'); };

function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new CliError(`--retries: expected a whole number, got "${v}"`, EXIT.USAGE);
  return n;
}
