// The machine-readable summary every eval script writes with `--summary FILE` and scripts/eval.mjs
// collects: rows of kind × measure with one figure per corpus part. A figure is { value, n }: value
// a share in 0..1 (or null when no document of that part has the measure), n the units it covers
// (files, fields, relations …, as the measure's name says).
import fs from 'node:fs';
import path from 'node:path';
import { partsFromArgs } from './corpus.mjs';

/**
 * Removes `--name VALUE` / `--name=VALUE` from args (mutated) and returns VALUE, so that positional
 * arguments (a corpus directory) stay positional whatever options come before them.
 */
export function takeOption(args, name) {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  if (args[i].includes('=')) return args.splice(i, 1)[0].slice(name.length + 3);
  return args.splice(i, 2)[1];
}

export const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** A figure: the mean of the numbers in xs (undefined/null skipped). */
export function meanFigure(xs) {
  const nums = xs.filter((v) => typeof v === 'number' && Number.isFinite(v));
  return { value: mean(nums), n: nums.length };
}

/** A figure: hits out of total. */
export const ratioFigure = (hits, total) => ({ value: total ? hits / total : null, n: total });

/**
 * Writes { eval, parts, rows: [{ kind, measure, unit, dev?, validation? }], seconds } to file (when given).
 * `unit` names what n counts.
 */
export function writeSummary(file, summary) {
  if (!file) return;
  fs.writeFileSync(file, JSON.stringify(summary, null, 1));
}

/** "0.939 (n=12)" for a figure, "–" for none. */
export const formatFigure = (f, digits = 3) => (!f || f.value === null || f.value === undefined ? '–' : `${f.value.toFixed(digits)} (${f.n})`);

/**
 * The options the folder evals (tables, charts) share: the corpus parts (`--part`), `--summary FILE`,
 * `--json`, EVAL_ONLY (one file), and the folder (first positional argument, else `defaultDir`).
 */
export function folderEvalArgs(argv, defaultDir) {
  const args = [...argv];
  const parts = partsFromArgs(args);
  takeOption(args, 'part');
  const summaryOut = takeOption(args, 'summary');
  const positional = args.filter((a) => !a.startsWith('--'));
  return { parts, summaryOut, dir: path.resolve(positional[0] ?? defaultDir), asJson: args.includes('--json'), only: process.env.EVAL_ONLY };
}
