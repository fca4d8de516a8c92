import fs from 'node:fs';
import path from 'node:path';
import type { FileInput } from '@quire/sdk';
import { CliError, EXIT } from './exit-codes.js';

/** One document of a run: what to send, what to call it, where its output goes (relative to --out). */
export interface DocumentInput { label: string; input: FileInput; outputStem: string }

const SUPPORTED = new Set(['.pdf', '.png', '.jpg', '.jpeg', '.tif', '.tiff', '.docx', '.pptx', '.xlsx', '.html', '.htm']);

/**
 * FILE, DIR (every supported file below it, sorted, output paths mirroring the tree) and URL arguments. Output
 * stems are unique: files that clash (a.pdf and a.docx) keep their extension, anything else gets -2, -3….
 */
export function expandInputs(args: string[]): DocumentInput[] {
  const docs: DocumentInput[] = [];
  for (const arg of args) {
    if (/^https?:\/\//i.test(arg)) {
      let url: URL;
      try { url = new URL(arg); } catch { throw new CliError(`Not a valid URL: ${arg}`, EXIT.USAGE); }
      const base = path.posix.basename(url.pathname);
      docs.push({ label: arg, input: url, outputStem: base ? stripExt(safeName(base)) : safeName(url.hostname) });
      continue;
    }
    let stat: fs.Stats;
    try { stat = fs.statSync(arg); } catch { throw new CliError(`No such file or directory: ${arg}`, EXIT.USAGE); }
    if (stat.isDirectory()) {
      const files = walk(arg).filter((f) => SUPPORTED.has(path.extname(f).toLowerCase())).sort();
      for (const f of files) docs.push({ label: f, input: f, outputStem: stripExt(path.relative(arg, f)) });
    } else {
      docs.push({ label: arg, input: arg, outputStem: stripExt(path.basename(arg)) });
    }
  }
  if (!docs.length) throw new CliError(`No documents found in ${args.join(' ')} (supported: ${[...SUPPORTED].join(' ')})`, EXIT.USAGE);
  return uniqueStems(docs);
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.')) return [];
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full) : e.isFile() ? [full] : [];
  });
}

function uniqueStems(docs: DocumentInput[]): DocumentInput[] {
  const counts = new Map<string, number>();
  for (const d of docs) counts.set(d.outputStem, (counts.get(d.outputStem) ?? 0) + 1);
  const taken = new Set<string>();
  return docs.map((d) => {
    let stem = d.outputStem;
    if (counts.get(stem)! > 1 && typeof d.input === 'string') stem = `${stem}.${path.extname(d.input).slice(1)}`;
    for (let n = 2; taken.has(stem); n++) stem = `${d.outputStem}-${n}`;
    taken.add(stem);
    return { ...d, outputStem: stem };
  });
}

const stripExt = (p: string) => p.slice(0, p.length - path.extname(p).length) || p;
const safeName = (s: string) => decodeURIComponent(s).replace(/[^A-Za-z0-9._-]+/g, '_');
