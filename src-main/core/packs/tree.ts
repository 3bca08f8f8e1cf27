/**
 * A folder as a pack sees it: every entry with lstat (symlinks are entries, never followed), and
 * copying one folder into another under an entry budget — files with their executable bit and no
 * setuid/setgid, symlinks as symlinks, folders; anything else (a FIFO, a device) is not copied.
 */
import { copyFileSync, chmodSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { EntryBudget } from './entry-budget.js';

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

/**
 * Copies `src` into `dest` (created), skipping `.git`, counting every file against `budget`; stops
 * as soon as a limit is passed (the budget says which). `onFile` hears of each file copied.
 */
export function copyTree(src: string, dest: string, budget: EntryBudget, onFile: (rel: string) => void): void {
  mkdirSync(dest, { recursive: true });
  const visit = (absDir: string, relDir: string): void => {
    for (const name of readdirSync(absDir).sort()) {
      if (budget.exceeded) return;
      if (name === '.git') continue;
      const rel = relDir === '' ? name : `${relDir}/${name}`;
      const from = join(absDir, name);
      const to = join(dest, rel);
      const stats = lstatSync(from);
      const type = typeOf(stats);
      budget.mode(rel, stats.mode);
      if (type === 'directory') {
        mkdirSync(to);
        visit(from, rel);
      } else if (type === 'symlink') {
        symlinkSync(readlinkSync(from), to);
      } else if (type === 'file') {
        if (!budget.file(rel, stats.size)) return;
        copyFileSync(from, to);
        chmodSync(to, (stats.mode & 0o755) | 0o600);
        onFile(rel);
      } else {
        budget.special(rel, 'special file');
      }
    }
  };
  visit(src, '');
}
