import fs from 'node:fs';
import path from 'node:path';
import { QuireError, type JobProgress } from '@quire/sdk';
import { describeError } from './exit-codes.js';
import type { DocumentInput } from './inputs.js';
import type { Reporter } from './progress.js';

export interface RunOptions {
  /** Output directory; undefined writes the one document's output to stdout. */
  outDir?: string;
  /** Output file extension, with the dot. */
  ext: string;
  force: boolean;
  concurrency: number;
  reporter: Reporter;
  signal: AbortSignal;
  /** Does the work for one document and returns what to write. */
  process: (doc: DocumentInput, onProgress: (p: JobProgress) => void, signal: AbortSignal) => Promise<{ output: string | Uint8Array; summary: string }>;
}

export interface RunSummary { ok: number; failed: number; skipped: number; interrupted: boolean; fatal?: QuireError }

/**
 * Runs documents `concurrency` at a time. Resumable: a document whose output already exists is skipped (unless
 * force), and outputs are written to a temporary name and renamed, so a run stopped midway never leaves a file
 * that looks finished. An error that no other document can escape (the key refused, the service unreachable)
 * stops starting new documents.
 */
export async function runDocuments(docs: DocumentInput[], o: RunOptions): Promise<RunSummary> {
  const outputOf = (d: DocumentInput) => (o.outDir === undefined ? undefined : path.join(o.outDir, d.outputStem + o.ext));
  const todo = docs.filter((d) => {
    const out = outputOf(d);
    if (out && !o.force && fs.existsSync(out)) { o.reporter.skipped(d.label, out); return false; }
    return true;
  });
  const summary: RunSummary = { ok: 0, failed: 0, skipped: docs.length - todo.length, interrupted: false };
  o.reporter.start(docs.length, summary.skipped);
  let next = 0;
  const worker = async () => {
    while (next < todo.length && !summary.fatal && !o.signal.aborted) {
      const doc = todo[next++];
      try {
        o.reporter.update(doc.label, 'uploading');
        const { output, summary: line } = await o.process(doc, (p) => o.reporter.update(doc.label, p.status, p.pages_done, p.pages_total), o.signal);
        const out = outputOf(doc);
        if (out) writeAtomically(out, output);
        else process.stdout.write(typeof output === 'string' && !output.endsWith('\n') ? output + '\n' : output);
        summary.ok++;
        o.reporter.done(doc.label, out ? `→ ${out} (${line})` : line);
      } catch (e) {
        if (o.signal.aborted) { summary.interrupted = true; o.reporter.failed(doc.label, 'interrupted'); continue; }
        summary.failed++;
        o.reporter.failed(doc.label, describeError(e));
        if (e instanceof QuireError && (e.code.startsWith('AUTH_') || e.status === 0)) summary.fatal ??= e;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, todo.length)) }, worker));
  } finally {
    o.reporter.stop();
  }
  summary.interrupted ||= o.signal.aborted;
  return summary;
}

function writeAtomically(file: string, data: string | Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}
