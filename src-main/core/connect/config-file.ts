/**
 * Reading and replacing a client's config file safely: a symlinked file (a dotfiles checkout) is
 * written where it really lives; the file as it was is copied beside it first
 * (`<file>.skilltray.bak`); the new text goes to a temporary file in the same folder, with the
 * original's mode, and is renamed over it, so a reader never sees half a file; and if the client
 * rewrote the file since it was read (Claude Code does, often), nothing is written.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { FILE_HEADERS_ONLY, createTwoFilesPatch } from 'diff';
import { writeFileAtomic } from '../files/atomic-write.js';
import { connectErrors } from '../../shared/error-messages/connect.js';

/** A config file as read: its text ('' when it does not exist yet) and where it really is. */
export interface ConfigText {
  /** The path as the client names it. */
  path: string;
  /** That path with symlinks resolved (the path itself when the file does not exist). */
  real: string;
  text: string;
  exists: boolean;
}

/** Where the copy of a file as it was before Skilltray's change is kept. */
export function backupPath(real: string): string {
  return `${real}.skilltray.bak`;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Reads a config file (E853 when it exists but cannot be read). */
export function readConfig(path: string): ConfigText {
  try {
    let real = path;
    try {
      real = realpathSync(path);
    } catch {
      // not there yet: it will be created at `path`
    }
    const text = readText(real);
    return { path, real, text: text ?? '', exists: text !== null };
  } catch (error) {
    throw connectErrors.unwritable(path, error);
  }
}

/** A unified diff of the file, before → after; '' when they are equal. */
export function configDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  return createTwoFilesPatch(path, path, before, after, 'before', 'after', { context: 3, headerOptions: FILE_HEADERS_ONLY });
}

function writeFileSynced(path: string, text: string, mode: number): void {
  const fd = openSync(path, 'wx', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces the file read as `read` with `after`: backup, then temp file and rename. Returns the
 * backup's path (null when there was no file). E853 when the file changed since it was read, or
 * when any step cannot be done; the file is then as it was.
 */
export function writeConfig(read: ConfigText, after: string): string | null {
  const { real } = read;
  try {
    const now = readText(real);
    if ((now ?? '') !== read.text || (now !== null) !== read.exists) throw new Error('it changed while Skilltray was editing it; run connect again');
    mkdirSync(dirname(real), { recursive: true });
    const mode = read.exists ? statSync(real).mode & 0o7777 : 0o600;
    let backup: string | null = null;
    if (read.exists) {
      backup = backupPath(real);
      rmSync(backup, { force: true });
      writeFileSynced(backup, read.text, mode);
    }
    // The umask may narrow the mode given at creation: the file keeps the mode it had.
    writeFileAtomic(real, after, { mode, exactMode: true });
    return backup;
  } catch (error) {
    throw connectErrors.unwritable(read.path, error);
  }
}
