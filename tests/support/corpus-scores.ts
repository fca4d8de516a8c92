// Per-file scores of a corpus test, summed up the same way for each part: the dev part is printed file by
// file, the validation part only as totals (scripts/lib/corpus.mjs says which files are which).

/** One file's word F1 against its ground truth and the checks it failed. */
export interface FileScore { f1: number; problems: string[] }

export interface PartScores {
  scored: [string, FileScore][];
  meanF1: number;
  /** Share of scored files without a problem. */
  clean: number;
}

/** Scores the files one after another (a file without ground truth scores undefined and is left out). */
export async function scoreFiles(files: string[], score: (file: string) => Promise<FileScore | undefined>): Promise<PartScores> {
  const scored: [string, FileScore][] = [];
  for (const f of files) { const s = await score(f); if (s) scored.push([f, s]); }
  const meanF1 = scored.reduce((s, [, x]) => s + x.f1, 0) / Math.max(1, scored.length);
  const clean = scored.filter(([, x]) => !x.problems.length).length / Math.max(1, scored.length);
  return { scored, meanF1, clean };
}

/** The totals line of a part, and for the dev part each file's line. */
export function report(label: string, part: 'dev' | 'validation', s: PartScores): string {
  const head = `${label} ${part} part (${s.scored.length} files): mean word F1 ${s.meanF1.toFixed(3)}, files without problems ${(s.clean * 100).toFixed(0)} %`;
  if (part === 'validation') return head;
  return [head, ...s.scored.map(([f, x]) => `  ${f}: ${x.f1.toFixed(3)}${x.problems.length ? ` — ${x.problems.join('; ')}` : ''}`)].join('\n');
}
