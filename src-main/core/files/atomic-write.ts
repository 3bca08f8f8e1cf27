/**
 * Replacing a file so a reader sees the old content or the new, never half of either: the new
 * bytes go to a temp file beside it (named for this process), are flushed, then renamed over it.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

export interface AtomicWriteOptions {
  /** The new file's mode (0644 by default), filtered by the umask as open filters it. */
  mode?: number;
  /** Set the mode as given whatever the umask is (a private file must be exactly 0600). */
  exactMode?: boolean;
}

/** A temp file's name beside `target`, unique to this process and call. */
export function tempBeside(target: string, owner: string = String(process.pid)): string {
  return `${target}.${owner}-${randomBytes(4).toString('hex')}.tmp`;
}

/** Flushes the finished file `temp` to disk and renames it over `target`. */
export function commitTemp(temp: string, target: string): void {
  const fd = openSync(temp, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
}

/** Writes `text` to `target` atomically: temp file, fsync, rename; the temp file is removed on failure. */
export function writeFileAtomic(target: string, text: string, options: AtomicWriteOptions = {}): void {
  const mode = options.mode ?? 0o644;
  const temp = tempBeside(target);
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      if (options.exactMode === true && process.platform !== 'win32') fchmodSync(fd, mode);
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // A folder gone read-only keeps the temp file; it never stands under the target's name.
    }
    throw error;
  }
}
