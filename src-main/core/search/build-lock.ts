/**
 * One build of an index at a time across processes: twenty `skilltray build` (or twenty app reads
 * of a skill whose index is missing) at once make one index, not twenty. The lock is an exclusive
 * SQLite lock on `<index>.lock`: the OS drops it when its holder dies, so a killed build never
 * leaves a lock behind, and a waiter sleeps in SQLite's busy handler instead of polling.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { diskFault } from '../disk-faults.js';

/** How long a build waits for another process's build of the same index (the 79 MB skill takes seconds). */
const BUILD_WAIT_MS = 5 * 60_000;

/** What identifies an index file's current version: it changes when a build renames a new one in. */
export function fileIdentity(path: string): string | null {
  const st = statSync(path, { throwIfNoEntry: false });
  return st === undefined ? null : `${st.ino}:${st.mtimeMs}:${st.size}`;
}

/**
 * Runs `build` holding the build lock of the index at `indexPath`, unless another process built the
 * index while this one waited for the lock (its file is no longer `seen`): then `reuse` decides
 * instead, without the lock. Where no lock file can be made (a read-only home) the build runs
 * unlocked and reports the disk's refusal itself.
 */
export function withBuildLock<T>(indexPath: string, seen: string | null, build: () => T, reuse: () => T, options: { nativeBinding?: string } = {}): T {
  let lock: Database.Database;
  try {
    lock = new Database(`${indexPath}.lock`, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
  } catch (error) {
    if (diskFault(error, indexPath) === 'other') throw error;
    return build();
  }
  try {
    lock.pragma(`busy_timeout = ${BUILD_WAIT_MS}`);
    try {
      lock.prepare('BEGIN EXCLUSIVE').run();
    } catch (error) {
      const fault = diskFault(error, indexPath);
      if (fault === 'read-only' || fault === 'full') return build();
      if (fault !== 'busy') throw error;
      throw skillcErrors.internal(`another Skilltray process has been building ${indexPath} for ${BUILD_WAIT_MS / 60_000} minutes; try again when it is done`, {
        cause: error,
      });
    }
    if (fileIdentity(indexPath) !== seen) {
      lock.prepare('ROLLBACK').run();
      return reuse();
    }
    return build();
  } finally {
    if (lock.inTransaction) lock.prepare('ROLLBACK').run();
    lock.close();
  }
}
