/**
 * Replacing a file so a reader sees the old content or the new, never half of either: the new
 * bytes go to a temp file beside it (named for this process), are flushed, then renamed over it.
 */
import { randomBytes } from 'node:crypto';
import { close, closeSync, fchmodSync, fdatasync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

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

/**
 * Sends what has been written to a big temp file so far on its way to disk (fdatasync on a helper
 * thread) while its writer goes on, so that commitTemp's fsync waits for the last part only, not
 * for the whole file at once. Best effort and never a guarantee: commitTemp's fsync still makes
 * the file durable. `finish` once the file is written; the handle closes when the last flush is done.
 */
export class FlushAhead {
  private fd: number | null = null;
  private running = 0;
  private finished = false;

  constructor(private readonly path: string) {}

  /** Starts a flush of the file as it is now. */
  flush(): void {
    if (this.finished) return;
    try {
      this.fd ??= openSync(this.path, 'r+');
    } catch {
      return;
    }
    this.running++;
    fdatasync(this.fd, () => {
      this.running--;
      this.closeWhenDone();
    });
  }

  finish(): void {
    this.finished = true;
    this.closeWhenDone();
  }

  private closeWhenDone(): void {
    if (!this.finished || this.running > 0 || this.fd === null) return;
    close(this.fd, () => undefined);
    this.fd = null;
  }
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
