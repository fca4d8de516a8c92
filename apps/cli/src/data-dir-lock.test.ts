import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock.js';

/** The pid of a process that has exited (so no process has it, barring an immediate reuse). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('data directory lock', () => {
  let dir: string;
  const lockFile = () => path.join(dir, LOCK_FILE);
  const holder = () => JSON.parse(fs.readFileSync(lockFile(), 'utf8')) as { pid: number; started?: string };
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-lock-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds the directory until released, naming its pid; a second lock (even from this process) is refused', () => {
    const lock = lockDataDir(dir);
    expect(holder().pid).toBe(process.pid);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`pid ${process.pid}`);
    lock.release();
    expect(fs.existsSync(lockFile())).toBe(false);
    lock.release(); // idempotent
    lockDataDir(dir).release();
  });

  it('creates a missing data directory', () => {
    const nested = path.join(dir, 'a', 'b');
    lockDataDir(nested).release();
    expect(fs.existsSync(nested)).toBe(true);
  });

  it('refuses while another live process holds it', () => {
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: process.ppid }));
    expect(() => lockDataDir(dir)).toThrow(`pid ${process.ppid}`);
    expect(holder().pid).toBe(process.ppid); // left as it was
  });

  it.each([
    ['a process that is gone', async () => JSON.stringify({ pid: await deadPid() })],
    ['a live pid with another start time (the pid was reused)', async () => JSON.stringify({ pid: process.ppid, started: '1' })],
    ['this pid, from an earlier life (a restarted container)', async () => JSON.stringify({ pid: process.pid, started: '1' })],
    ['an unreadable file (cut short by a crash while written)', async () => '{"pid":'],
  ])('takes over a stale lock: %s', async (_name, content) => {
    fs.writeFileSync(lockFile(), await content());
    const lock = lockDataDir(dir);
    expect(holder().pid).toBe(process.pid);
    lock.release();
  });

  it('a release does not remove a lock that is no longer its own', () => {
    const lock = lockDataDir(dir);
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: process.ppid }));
    lock.release();
    expect(holder().pid).toBe(process.ppid);
  });
});
