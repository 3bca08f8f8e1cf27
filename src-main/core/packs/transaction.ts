/**
 * Installing, replacing and removing a pack so that a process killed at any point leaves either
 * the old pack or the new one whole. The new version is staged complete under `.staging/<id>/`,
 * then a journal (`txn-<pack>.json`) is written: from that moment the change is decided and
 * `recover` finishes it — the lock first, then the old version moved aside, then one rename puts
 * the new one in place. Before the journal, nothing outside `.staging` has changed, and recovery
 * simply deletes what was staged. Only one process changes packs at a time (`.staging/lock`), and
 * within it one change at a time.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
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

/**
 * Takes the packs lock (E308 while a live process holds it — this one included; a dead holder's lock
 * is taken over) and returns its release, which removes the lock only while it is still the one written here.
 */
function acquire(home: string): () => void {
  mkdirSync(stagingDir(home), { recursive: true });
  const path = join(stagingDir(home), 'lock');
  const self = thisProcess();
  // The token tells this hold from any later one, so a release never removes another holder's lock.
  const mine = `${self.pid} ${self.started} ${randomUUID()}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, mine);
      closeSync(fd);
      return () => {
        if (lockText(path) === mine) rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw busy(error);
      const holder = holderOf(path);
      if (holder !== null && heldByLive(holder)) throw busy(error, holder.pid);
      rmSync(path, { force: true });
    }
  }
}

/**
 * Whether the lock's holder is a live process: a reused pid is told apart by its start time, and a
 * lock naming this pid with no start time is an older version's, left before this process began.
 */
function heldByLive(holder: ProcessIdentity): boolean {
  const self = thisProcess();
  if (holder.pid === self.pid && holder.started === '' && self.started !== '') return false;
  return isAlive(holder);
}

/** The tail of the queue of changes this process makes in each home, so they take the lock one after another. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Takes the packs lock, finishes or cleans what an interrupted change left, runs `work`, and releases
 * the lock. Calls in one process (IPC and HTTP at once) wait their turn; another live process gets E308.
 */
export async function withPacksLock<T>(home: string, work: () => Promise<T> | T): Promise<T> {
  const key = resolve(home);
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(() => {
    const release = acquire(home);
    return (async () => {
      try {
        recoverLocked(home);
        return await work();
      } finally {
        release();
      }
    })();
  });
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  try {
    return await run;
  } finally {
    if (queues.get(key) === tail) queues.delete(key);
  }
}

function busy(cause: unknown, pid?: number): SkilltrayError {
  return packErrors.busy(cause, pid);
}

/** The lock file's text, '' when it is gone or unreadable. */
function lockText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The process the lock file names (`<pid> <start token> <hold token>`; older versions wrote less), null when unreadable. */
function holderOf(path: string): ProcessIdentity | null {
  const [pid, started = ''] = lockText(path).trim().split(' ');
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
    if (holder !== null && heldByLive(holder)) return;
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
