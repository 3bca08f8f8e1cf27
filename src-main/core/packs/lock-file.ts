/**
 * `<home>/packs.lock.json`: every installed pack's origin, install time, skills (with the loader's
 * manifest hash) and the sha256 of every file. Written whole to a temporary file, flushed and
 * renamed over the old one, so a reader sees the old lock or the new one, never half of either.
 */
import { readFileSync } from 'node:fs';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import type { LockEntry } from '../../shared/packs.js';
import { lockPath } from './layout.js';

/** The lock file's whole content. */
export interface PackLock {
  version: 1;
  packs: Record<string, LockEntry>;
}

const EMPTY: PackLock = { version: 1, packs: {} };

/** Reads the lock; a missing file is an empty lock, an unreadable one an error (never silently emptied). */
export function readLock(home: string): PackLock {
  let text: string;
  try {
    text = readFileSync(lockPath(home), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, packs: {} };
    throw skillcErrors.internal(`cannot read ${lockPath(home)}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const parsed = JSON.parse(text) as PackLock;
    if (parsed === null || typeof parsed !== 'object' || typeof parsed.packs !== 'object' || parsed.packs === null) throw new Error('no packs object');
    return { version: 1, packs: parsed.packs };
  } catch (error) {
    throw skillcErrors.internal(`${lockPath(home)} is not a valid lock file (${(error as Error).message}); move it aside to start over`, { cause: error });
  }
}

/** Writes the lock atomically (see atomic-write.ts). */
export function writeLock(home: string, lock: PackLock): void {
  const sorted: PackLock = {
    version: 1,
    packs: Object.fromEntries(
      Object.keys(lock.packs)
        .sort()
        .map((k) => [k, lock.packs[k] as LockEntry]),
    ),
  };
  writeFileAtomic(lockPath(home), `${JSON.stringify(sorted, null, 2)}\n`);
}

/** The lock with `pack` set to `entry` (or removed, for null). */
export function withEntry(lock: PackLock, pack: string, entry: LockEntry | null): PackLock {
  const packs = { ...lock.packs };
  if (entry === null) delete packs[pack];
  else packs[pack] = entry;
  return { ...EMPTY, packs };
}
