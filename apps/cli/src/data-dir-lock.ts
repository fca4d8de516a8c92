import fs from 'node:fs';
import path from 'node:path';
import { StartRefusedError } from './start-refused.js';

/**
 * One process at a time in an embedded data directory. PGlite is a single-user Postgres: two processes
 * opening the same directory both write to it, one's writes are lost, and an abrupt end of either can
 * leave the directory unopenable (`RuntimeError: Aborted()` on every later start). So `quire serve` and
 * `quire admin` (when no server runs) take `<dataDir>/quire.lock` before anything opens the directory.
 *
 * The lock file is created exclusively (see createExclusive) and names its holder: pid and, on Linux, the process's
 * start time (so a pid reused by an unrelated process after a crash or a reboot is not mistaken for the
 * holder). A lock whose holder is gone is stale and taken over; a live holder is refused by name.
 */
export const LOCK_FILE = 'quire.lock';

export class DataDirLockedError extends StartRefusedError {
  constructor(readonly dataDir: string, readonly holderPid: number) {
    super(`The data directory ${dataDir} is in use by another Quire process (pid ${holderPid}). ` +
      `Stop that process first (quire admin commands are sent to a running server), or set QUIRE_DATA_DIR to another directory. ` +
      `If no such process runs, remove ${path.join(dataDir, LOCK_FILE)}.`);
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still this lock's. Idempotent. */
  release(): void;
}

interface Holder {
  pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks since boot), Linux only. */
  started?: string;
}

/** Locks held by this process: a second open from the same process (a test, a bug) is refused too. */
const heldHere = new Set<string>();

export function lockDataDir(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, LOCK_FILE);
  fs.mkdirSync(dir, { recursive: true });
  if (heldHere.has(file)) throw new DataDirLockedError(dir, process.pid);
  const me: Holder = { pid: process.pid, started: processStartTime(process.pid) };
  // Two rounds: the second follows the removal of a stale lock.
  for (let round = 0; round < 2; round++) {
    if (createExclusive(file, JSON.stringify(me))) {
      heldHere.add(file);
      let released = false;
      return {
        file,
        release: () => {
          if (released) return;
          released = true;
          heldHere.delete(file);
          if (sameHolder(readHolder(file), me)) fs.rmSync(file, { force: true });
        },
      };
    }
    const holder = readHolder(file);
    if (holder && isAlive(holder)) throw new DataDirLockedError(dir, holder.pid);
    removeStale(file, holder);
  }
  throw new Error(`Could not lock the data directory ${dir}: ${file} keeps coming back`);
}

/**
 * Creates `file` with `content` unless it exists (false then). The content is written to a private file
 * first and hard-linked into place, which fails if the name exists, like an O_EXCL create; unlike one,
 * the lock never exists empty, so a starter reading it mid-write cannot take it for a crashed holder's.
 */
function createExclusive(file: string, content: string): boolean {
  const mine = `${file}.${process.pid}.${Date.now()}`;
  fs.writeFileSync(mine, content, { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(mine, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw e;
  } finally {
    fs.rmSync(mine, { force: true });
  }
  // A filesystem without hard links: a plain exclusive create.
  try {
    fs.writeFileSync(file, content, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/**
 * Removes a stale lock file, unless another starter replaced it meanwhile: the file is renamed aside
 * (atomic) and checked; a live lock renamed by mistake is put back. (What is left: a third starter
 * creating its lock in the instant between those two renames, during a stale takeover.)
 */
function removeStale(file: string, stale: Holder | undefined): void {
  const aside = `${file}.stale.${process.pid}`;
  try {
    fs.renameSync(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else removed it
    throw e;
  }
  const moved = readHolder(aside);
  if (moved && !sameHolder(moved, stale) && isAlive(moved)) {
    // Another process took the lock between our read and our rename: hand it back.
    fs.renameSync(aside, file);
    throw new DataDirLockedError(path.dirname(file), moved.pid);
  }
  fs.rmSync(aside, { force: true });
}

function readHolder(file: string): Holder | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Holder>;
    return Number.isInteger(parsed.pid) && parsed.pid! > 0 ? { pid: parsed.pid!, started: parsed.started } : undefined;
  } catch {
    return undefined; // missing, or cut short by a crash while it was written: no live holder can be named
  }
}

const sameHolder = (a: Holder | undefined, b: Holder | undefined) => a !== undefined && b !== undefined && a.pid === b.pid && a.started === b.started;

/** Whether the holder still runs: the pid exists and, where recorded, has the same start time. */
function isAlive(holder: Holder): boolean {
  // Our own pid but not a lock we hold (checked first): an earlier process that had the same pid, e.g. pid 1
  // of a restarted container.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false; // ESRCH: no such process
  }
  if (holder.started === undefined) return true;
  const now = processStartTime(holder.pid);
  return now === undefined || now === holder.started;
}

/** Linux: the process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: count fields after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
