/**
 * Saying what a path is when it is not what was wanted, and why it could not be read, as words a
 * sentence can hold. Imports nothing, so a command as light as `roots` can use it.
 */
import type { Stats } from 'node:fs';

/** What a path that is not a regular file is, for a sentence: `a FIFO (named pipe)`, `a directory`. */
export function kindOf(st: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** `EACCES (permission denied)`: an errno with what it means, for a sentence. */
export function errnoText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const meaning: Record<string, string> = { EACCES: 'permission denied', EPERM: 'not permitted', ENOENT: 'it leads nowhere', ELOOP: 'a loop of links', EIO: 'an I/O error' };
  return code === undefined ? String(error) : meaning[code] === undefined ? code : `${code} (${meaning[code]})`;
}
