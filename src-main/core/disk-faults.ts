/**
 * What an I/O or SQLite failure says about the disk under Skilltray's home. Only proven damage may
 * make a cache delete its file: a read-only home (EROFS, EACCES, SQLITE_READONLY), a full disk
 * (ENOSPC, SQLITE_FULL, an I/O error on a device with no space left) and a lock held by another
 * process (SQLITE_BUSY) are not damage, and each gets its own coded error instead of E999.
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SkilltrayError } from '../shared/skilltray-error.js';
import { stateErrors } from '../shared/error-messages/state.js';

/** What a failure is: the file is damaged, the disk refuses writes or has no room, another process holds a lock, or something else. */
export type DiskFault = 'damaged' | 'read-only' | 'full' | 'busy' | 'other';

const READ_ONLY_ERRNOS = new Set(['EROFS', 'EACCES', 'EPERM']);
const FULL_ERRNOS = new Set(['ENOSPC', 'EDQUOT']);
/** Below this much free space an I/O error is the disk being full (SQLite needs a page or more to write anything). */
const FULL_BELOW_BYTES = 1 << 20;

/** The codes an error and its causes carry (`code` of a Node or better-sqlite3 error). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

/**
 * SQLite's "unsupported file format": a header whose schema format number is past the 4 every SQLite
 * since 2006 writes. No SQLite makes such a file, so its header is damaged, though SQLite says so with
 * a plain SQLITE_ERROR.
 */
function unsupportedFormat(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === 'SQLITE_ERROR' && e.message === 'unsupported file format') return true;
  }
  return false;
}

/** Free bytes on the filesystem holding `path` (its nearest existing ancestor), or null when that cannot be asked. */
function freeBytes(path: string): number | null {
  for (let at = path; ; at = dirname(at)) {
    try {
      const fs = statfsSync(at);
      return fs.bavail * fs.bsize;
    } catch {
      if (dirname(at) === at) return null;
    }
  }
}

/** Whether the folder that holds (or would hold) `path` can be written to: its nearest existing ancestor, for a path not made yet. */
function folderWritable(path: string): boolean {
  for (let at = dirname(path); ; at = dirname(at)) {
    try {
      accessSync(at, constants.W_OK);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) return false;
    }
  }
}

/**
 * Classifies `error`, met while using the file at `path`. SQLite reports a device with no room as
 * SQLITE_FULL on some paths and as a bare I/O error on others (a WAL write): the free space decides.
 */
export function diskFault(error: unknown, path?: string): DiskFault {
  const codes = codesOf(error);
  if (codes.some((c) => c.startsWith('SQLITE_CORRUPT') || c === 'SQLITE_NOTADB') || unsupportedFormat(error)) return 'damaged';
  if (codes.some((c) => FULL_ERRNOS.has(c) || c === 'SQLITE_FULL')) return 'full';
  if (codes.some((c) => READ_ONLY_ERRNOS.has(c) || c.startsWith('SQLITE_READONLY'))) return 'read-only';
  if (codes.some((c) => c.startsWith('SQLITE_BUSY') || c.startsWith('SQLITE_LOCKED'))) return 'busy';
  if (path !== undefined && codes.some((c) => c.startsWith('SQLITE_IOERR')) && (freeBytes(path) ?? Infinity) < FULL_BELOW_BYTES) return 'full';
  // "unable to open database file" (a file, or its -shm, that cannot be created), or a folder that cannot be
  // made (a recursive mkdir on a read-only filesystem says ENOENT): the folder it would go in refuses writes.
  if (path !== undefined && codes.some((c) => c.startsWith('SQLITE_CANTOPEN') || c.startsWith('SQLITE_IOERR') || c === 'ENOENT') && !folderWritable(path))
    return 'read-only';
  return 'other';
}

/** True only for an error that proves the file damaged (SQLITE_CORRUPT, SQLITE_NOTADB, an unsupported file format): the one reason to delete a cache. */
export function isDamage(error: unknown): boolean {
  return diskFault(error) === 'damaged';
}

/** The errno (or SQLite code) an error carries, for a message: `EROFS`, `EACCES`, `SQLITE_FULL`. */
export function errnoOf(error: unknown): string {
  return codesOf(error)[0] ?? 'unknown';
}

/**
 * The coded error for a write that failed at `path` because of the disk: E904 when Skilltray's home
 * (or the file) is read-only, E905 when the disk is full; null for anything else (the caller keeps
 * its own error). `fault` overrides the classification (a write refused by a connection opened
 * read-only because the disk was full is about the full disk).
 */
export function diskFaultError(error: unknown, path: string, fault: DiskFault = diskFault(error, path)): SkilltrayError | null {
  const code = errnoOf(error);
  if (fault === 'read-only') {
    return stateErrors.homeReadOnly(path, code, error);
  }
  if (fault === 'full') {
    return stateErrors.diskFull(path, code, error);
  }
  return null;
}
