/**
 * Installing, replacing and removing a pack so that a process killed at any point leaves either
 * the old pack or the new one whole. The new version is staged complete under `.staging/<id>/`,
 * then a journal (`txn-<pack>.json`) is written: from that moment the change is decided and
 * `recover` finishes it — the lock first, then the old version moved aside, then one rename puts
 * the new one in place. Before the journal, nothing outside `.staging` has changed, and recovery
 * simply deletes what was staged. Only one process changes packs at a time (`.staging/lock`).
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { packErrors } from '../../shared/error-messages/packs.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { isAlive, thisProcess, type ProcessIdentity } from '../process-identity.js';
import type { LockEntry } from '../../shared/packs.js';
import { packsDir, stagingDir } from './layout.js';
import { readLock, withEntry, writeLock } from './lock-file.js';

/** A decided change: put the staged tree of `id` in place of `pack` (lock entry given), or remove `pack`. */
interface Journal {
  op: 'install' | 'remove';
  pack: string;
  id: string;
  entry: LockEntry | null;
}

/** Steps a commit passes through, reported so tests (and `--verbose`) can watch it happen. */
export type CommitStep = 'journal' | 'lock' | 'aside' | 'swap' | 'done';

const journalPath = (home: string, pack: string): string => join(stagingDir(home), `txn-${pack}.json`);

/** The folder under `.staging` a change works in. */
export const workDir = (home: string, id: string): string => join(stagingDir(home), id);

/** Takes the packs lock (E308 while a live process holds it; a dead holder's lock is taken over) and returns its release. */
function acquire(home: string): () => void {
  mkdirSync(stagingDir(home), { recursive: true });
  const path = join(stagingDir(home), 'lock');
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      const self = thisProcess();
      writeSync(fd, `${self.pid} ${self.started}`);
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw busy(error);
      const holder = holderOf(path);
      if (holder !== null && holder.pid !== process.pid && isAlive(holder)) throw busy(error, holder.pid);
      rmSync(path, { force: true });
    }
  }
}

/** Takes the packs lock, finishes or cleans what an interrupted change left, runs `work`, and releases the lock. */
export async function withPacksLock<T>(home: string, work: () => Promise<T> | T): Promise<T> {
  const release = acquire(home);
  try {
    recoverLocked(home);
    return await work();
  } finally {
    release();
  }
}

function busy(cause: unknown, pid?: number): SkilltrayError {
  return packErrors.busy(cause, pid);
}

/** The process the lock file names (`<pid> <start token>`; a lock of an older version holds the pid alone), null when unreadable. */
function holderOf(path: string): ProcessIdentity | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const [pid, started = ''] = text.trim().split(' ');
  const holder = Number.parseInt(pid ?? '', 10);
  return Number.isInteger(holder) ? { pid: holder, started } : null;
}

/** Finishes every decided change and deletes everything else left in `.staging` (half-done fetches). Call with the lock held. */
function recoverLocked(home: string): void {
  const staging = stagingDir(home);
  const keep = new Set(['lock']);
  for (const name of readdirSync(staging)) {
    if (!name.startsWith('txn-') || !name.endsWith('.json')) continue;
    let journal: Journal;
    try {
      journal = JSON.parse(readFileSync(join(staging, name), 'utf8')) as Journal;
    } catch {
      // A journal cut short was never decided (it is written whole, then renamed): nothing to finish.
      rmSync(join(staging, name), { force: true });
      continue;
    }
    finish(home, journal);
  }
  for (const name of readdirSync(staging)) {
    if (!keep.has(name)) rmSync(join(staging, name), { recursive: true, force: true });
  }
  for (const name of readdirSync(home)) {
    if (name.startsWith('packs.lock.json.') && name.endsWith('.tmp')) rmSync(join(home, name), { force: true });
  }
}

/** Carries a decided change through to the end; every step may already have been done. */
function finish(home: string, journal: Journal, onStep: (step: CommitStep) => void = () => undefined): void {
  const target = join(packsDir(home), journal.pack);
  const work = workDir(home, journal.id);
  const staged = join(work, 'pack');
  writeLock(home, withEntry(readLock(home), journal.pack, journal.entry));
  onStep('lock');
  const swapDone = journal.op === 'install' ? !existsSync(staged) : !existsSync(target);
  if (!swapDone) {
    if (existsSync(target)) renameSync(target, join(work, 'previous'));
    onStep('aside');
    if (journal.op === 'install') renameSync(staged, target);
    onStep('swap');
  }
  unlinkSync(journalPath(home, journal.pack));
  rmSync(work, { recursive: true, force: true });
  onStep('done');
}

/**
 * Puts the tree staged in `.staging/<id>/pack` in place of `pack` and records `entry` in the lock,
 * or (entry null, op remove) removes `pack`. Call with the lock held.
 */
export function commit(home: string, journal: Journal, onStep?: (step: CommitStep) => void): void {
  mkdirSync(packsDir(home), { recursive: true });
  writeFileAtomic(journalPath(home, journal.pack), JSON.stringify(journal), { mode: 0o600 });
  onStep?.('journal');
  finish(home, journal, onStep);
}

/** Cleans `.staging` after a process that died, when no other process is changing packs (at start). */
export function recoverPacks(home: string): void {
  if (!existsSync(stagingDir(home))) return;
  const lock = join(stagingDir(home), 'lock');
  if (existsSync(lock)) {
    const holder = holderOf(lock);
    if (holder !== null && isAlive(holder)) return;
  }
  try {
    const release = acquire(home);
    try {
      recoverLocked(home);
    } finally {
      release();
    }
  } catch {
    // Another process took the lock meanwhile: it recovers instead.
  }
}
