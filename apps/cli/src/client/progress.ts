import cliProgress from 'cli-progress';

/** What a run reports as documents move; a terminal gets bars, anything else plain lines. */
export interface Reporter {
  start(total: number, skipped: number): void;
  /** A document's job moved: status and pages done of total when known. */
  update(label: string, status: string, pagesDone?: number, pagesTotal?: number): void;
  done(label: string, message: string): void;
  failed(label: string, message: string): void;
  skipped(label: string, output: string): void;
  stop(): void;
}

export type ProgressMode = 'tty' | 'plain' | 'none';

/** --progress, else QUIRE_PROGRESS, else whether stderr is a terminal. */
export function progressMode(flag: string | undefined, env: NodeJS.ProcessEnv, stream: NodeJS.WriteStream): ProgressMode {
  const v = flag ?? env.QUIRE_PROGRESS;
  if (v === 'tty' || v === 'plain' || v === 'none') return v;
  return stream.isTTY ? 'tty' : 'plain';
}

export function createReporter(mode: ProgressMode, stream: NodeJS.WriteStream): Reporter {
  if (mode === 'tty') return new BarReporter(stream);
  if (mode === 'plain') return new LineReporter(stream);
  return new LineReporter(stream, true);
}

/** One overall bar (documents) and one bar per document in flight (pages). */
class BarReporter implements Reporter {
  private readonly multi: cliProgress.MultiBar;
  private overall?: cliProgress.SingleBar;
  private readonly bars = new Map<string, cliProgress.SingleBar>();
  private finished = 0;

  constructor(private readonly stream: NodeJS.WriteStream) {
    this.multi = new cliProgress.MultiBar({
      stream, hideCursor: true, clearOnComplete: false, forceRedraw: true,
      noTTYOutput: true, notTTYSchedule: 200, // also draw when the terminal was forced (QUIRE_PROGRESS=tty)
      format: ' {bar} {value}/{total} {unit} | {name} {status}', barsize: 24,
    }, cliProgress.Presets.shades_classic);
  }
  start(total: number, skipped: number): void {
    this.overall = this.multi.create(total, skipped, { unit: 'documents', name: 'all', status: skipped ? `(${skipped} already done)` : '' });
    this.finished = skipped;
  }
  update(label: string, status: string, pagesDone?: number, pagesTotal?: number): void {
    let bar = this.bars.get(label);
    if (!bar) {
      bar = this.multi.create(pagesTotal ?? 1, 0, { unit: 'pages', name: shorten(label), status });
      this.bars.set(label, bar);
    }
    if (pagesTotal !== undefined) bar.setTotal(pagesTotal);
    bar.update(pagesDone ?? 0, { status });
  }
  done(label: string, message: string): void { this.finish(label, message, true); }
  failed(label: string, message: string): void { this.finish(label, `FAILED ${message}`, false); }
  skipped(): void { /* counted in start() */ }
  stop(): void { this.multi.stop(); }

  private finish(label: string, message: string, ok: boolean): void {
    const bar = this.bars.get(label) ?? this.multi.create(1, 0, { unit: 'pages', name: shorten(label), status: '' });
    if (ok) bar.update(bar.getTotal(), { status: message }); else bar.update({ status: message });
    bar.stop();
    this.overall?.update(++this.finished);
  }
}

/** A line per event: greppable and log-friendly. */
class LineReporter implements Reporter {
  private total = 0;
  private n = 0;
  private readonly last = new Map<string, string>();
  constructor(private readonly stream: NodeJS.WriteStream, private readonly quiet = false) {}
  start(total: number, skipped: number): void {
    this.total = total;
    this.n = skipped;
    if (!this.quiet) this.write(`${total} document(s)${skipped ? `, ${skipped} already done (--force to redo)` : ''}`);
  }
  update(label: string, status: string, pagesDone?: number, pagesTotal?: number): void {
    const line = `${label}: ${status}${pagesTotal !== undefined ? ` ${pagesDone ?? 0}/${pagesTotal} pages` : ''}`;
    if (this.last.get(label) === line) return;
    this.last.set(label, line);
    if (!this.quiet) this.write(line);
  }
  done(label: string, message: string): void { this.n++; if (!this.quiet) this.write(`[${this.n}/${this.total}] ok ${label} ${message}`); }
  failed(label: string, message: string): void { this.n++; this.write(`[${this.n}/${this.total}] FAILED ${label}: ${message}`); }
  skipped(label: string, output: string): void { if (!this.quiet) this.write(`skip ${label} (${output} exists)`); }
  stop(): void {}
  private write(s: string) { this.stream.write(s + '\n'); }
}

const shorten = (s: string) => (s.length > 40 ? `…${s.slice(-39)}` : s);
