// Where the shared corpus is and which of its documents form the validation part.
// ../shared/corpus/VALIDATION.md lists the validation part (about 30% of every folder, chosen by a hash of
// the document's base name: its file name up to the first dot, so a document, its ground truth and its
// variants stay together). Tests and evals report the validation part as aggregates only: it stands for
// documents a user sent, which nobody here debugs one by one.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The corpus folder: QUIRE_CORPUS_DIR, else ../shared/corpus beside the repository. */
export function corpusDir() {
  return process.env.QUIRE_CORPUS_DIR || path.resolve(repoRoot, '../shared/corpus');
}

/** A document's base name: its file name up to the first dot. */
export const baseName = (file) => path.basename(file).split('.')[0];

let validation;
/** "folder/base" keys of the validation part (empty when VALIDATION.md is absent). */
export function validationKeys() {
  if (validation) return validation;
  validation = new Set();
  const list = path.join(corpusDir(), 'VALIDATION.md');
  if (!fs.existsSync(list)) return validation;
  for (const line of fs.readFileSync(list, 'utf8').split('\n')) {
    const m = /^- ([^/\s]+)\/(\S+)/.exec(line.trim());
    if (m) validation.add(`${m[1]}/${baseName(m[2])}`);
  }
  return validation;
}

/** 'validation' or 'dev' for a file of a corpus folder. */
export const partOf = (folder, file) => (validationKeys().has(`${folder}/${baseName(file)}`) ? 'validation' : 'dev');

/**
 * The files of one corpus folder that `keep` accepts, split into parts: { dir, dev, validation }, names
 * relative to dir, sorted. Both lists are empty when the folder is absent.
 */
export function corpusFiles(folder, keep = () => true) {
  const dir = path.join(corpusDir(), folder);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter(keep).sort() : [];
  return {
    dir,
    dev: files.filter((f) => partOf(folder, f) === 'dev'),
    validation: files.filter((f) => partOf(folder, f) === 'validation'),
  };
}

/** Which parts a run covers: --part dev|validation|all (default all), or QUIRE_CORPUS_PART. */
export function partsFromArgs(argv = process.argv) {
  const arg = argv.find((a) => a.startsWith('--part='))?.slice(7) ?? (argv.includes('--part') ? argv[argv.indexOf('--part') + 1] : undefined);
  const part = arg ?? process.env.QUIRE_CORPUS_PART ?? 'all';
  if (!['dev', 'validation', 'all'].includes(part)) throw new Error(`--part must be dev, validation or all (got ${part})`);
  return part === 'all' ? ['dev', 'validation'] : [part];
}
