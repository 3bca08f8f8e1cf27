/**
 * A folder as a pack sees it: every entry with lstat (symlinks are entries, never followed), and
 * the same entries as a source the extraction (extraction.ts) copies: files opened without
 * following a link, symlinks as their targets, anything else (a FIFO, a device) named for what it is.
 */
import { constants, createReadStream, lstatSync, openSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { EntryWalk } from './extraction.js';

/** One entry of a folder, as lstat sees it. */
export interface TreeEntry {
  /** Path inside the folder, `/`-separated. */
  rel: string;
  abs: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  mode: number;
}

function typeOf(stats: Stats): TreeEntry['type'] {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isDirectory()) return 'directory';
  if (stats.isFile()) return 'file';
  return 'other';
}

/** Every entry under `dir` in a stable order, skipping those `skip` names (and never entering them). */
export function listTree(dir: string, skip: (rel: string, name: string) => boolean = () => false): TreeEntry[] {
  const out: TreeEntry[] = [];
  const visit = (absDir: string, relDir: string): void => {
    for (const name of readdirSync(absDir).sort()) {
      const rel = relDir === '' ? name : `${relDir}/${name}`;
      if (skip(rel, name)) continue;
      const abs = join(absDir, name);
      const stats = lstatSync(abs);
      const type = typeOf(stats);
      out.push({ rel, abs, type, size: stats.size, mode: stats.mode & 0o7777 });
      if (type === 'directory') visit(abs, rel);
    }
  };
  visit(dir, '');
  return out;
}

/** The entries of the folder `src` (`.git` folders left out) in a stable order, for the extraction to copy. */
export function folderEntries(src: string): EntryWalk {
  return async (visit) => {
    const each = async (absDir: string, relDir: string): Promise<boolean> => {
      for (const name of readdirSync(absDir).sort()) {
        if (name === '.git') continue;
        const rel = relDir === '' ? name : `${relDir}/${name}`;
        const abs = join(absDir, name);
        const stats = lstatSync(abs);
        const type = typeOf(stats);
        const open = async (): Promise<AsyncIterable<Buffer>> =>
          type === 'symlink'
            ? Readable.from([Buffer.from(readlinkSync(abs))])
            : createReadStream('', { fd: openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW) });
        if (!(await visit({ raw: rel, type: type === 'other' ? 'special file' : type, mode: stats.mode & 0o7777, size: stats.size, open }))) return false;
        if (type === 'directory' && !(await each(abs, rel))) return false;
      }
      return true;
    };
    await each(src, '');
  };
}
