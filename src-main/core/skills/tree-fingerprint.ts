/**
 * A tree fingerprint (fingerprint.ts) taken from the stats alone, by one thread or by two at once
 * (tree-check.ts): what a helper thread runs (tree-check-worker.ts), so this module needs nothing
 * but Node's own.
 */
import { statSync } from 'node:fs';
import { sep } from 'node:path';
import type { PathStat } from './walk.js';

/**
 * What a walk of a skill saw, to be checked again with stats alone (no directory listed): its
 * directories (the skill's own is implied), its files, and the links it could not follow. Adding,
 * removing or renaming an entry moves its directory's mtime and ctime; a link that starts to
 * resolve moves its own stat.
 */
export interface SkillTree {
  dirs: string[];
  files: string[];
  links: string[];
}

export interface TreeFingerprint {
  fingerprint: string;
  /** The latest ctime seen, for the settle rule. */
  newest: number;
}

/** The digest of a tree's names and its stats. */
function digest(names: string, stats: Float64Array): string {
  // Taken when hashing, not imported: the command line loads this module at start (tree-check.ts), and node:crypto costs ~2 ms to load.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256')
    .update(names)
    .update(new Uint8Array(stats.buffer, stats.byteOffset, stats.byteLength))
    .digest('hex');
}

/** The stat of `abs` as statSync gives it (links followed), or undefined when there is none: read, not copied. */
function statOf(abs: string): PathStat | undefined {
  try {
    return statSync(abs, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Digest of the stats of every path of `tree` under `dir` (a missing path counts too). */
export function treeFingerprint(dir: string, tree: SkillTree): TreeFingerprint {
  const stats = treeStats(tree, false);
  takeStats(dir, tree, stats);
  return hashStats(tree, stats.stats);
}

/**
 * A tree's stats as they are taken, by one thread or by two at once (tree-check.ts): four numbers a
 * path, in treeFingerprint's order (the folder, its folders, files, links), as putStat writes them.
 */
export interface TreeStats {
  stats: Float64Array;
  /** `[0]`: the next path to claim, a block at a time; `[1]`: how many paths' stats are written. */
  progress: Int32Array;
}

/** Paths a thread claims at once: few enough that the last block another thread holds is soon done (~0.3 ms). */
const BLOCK = 64;

/** Room for `tree`'s stats, in memory another thread can share when `shared`. */
export function treeStats(tree: SkillTree, shared: boolean): TreeStats {
  const paths = 1 + tree.dirs.length + tree.files.length + tree.links.length;
  const buffer = (bytes: number): ArrayBuffer | SharedArrayBuffer => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  return { stats: new Float64Array(buffer(paths * 4 * Float64Array.BYTES_PER_ELEMENT)), progress: new Int32Array(buffer(2 * Int32Array.BYTES_PER_ELEMENT)) };
}

/**
 * Writes the stat of path number `index` where a fingerprint hashes it: its size, mtime, ctime and
 * inode, each hashed as the number it is (a big skill's 5,000 files made 15,000 float-to-text
 * conversions when they were hashed as text). No size is negative: a missing path reads as no stat
 * could, its other numbers 0.
 */
export function putStat(stats: Float64Array, index: number, st: PathStat | undefined): void {
  const at = index * 4;
  stats[at] = st === undefined ? -1 : st.size;
  stats[at + 1] = st === undefined ? 0 : st.mtimeMs;
  stats[at + 2] = st === undefined ? 0 : st.ctimeMs;
  stats[at + 3] = st === undefined ? 0 : st.ino;
}

/** The relative path of `tree`'s path number `index` ('' for the folder itself). */
function pathAt(tree: SkillTree, index: number): string {
  let at = index - 1;
  if (at < tree.dirs.length) return at < 0 ? '' : (tree.dirs[at] as string);
  at -= tree.dirs.length;
  return at < tree.files.length ? (tree.files[at] as string) : (tree.links[at - tree.files.length] as string);
}

/**
 * Takes the stats of `tree`'s paths under `dir` into `into`, a block at a time, until no path is
 * left to claim: alone it takes them all; beside another thread, those the other has not claimed.
 */
export function takeStats(dir: string, tree: SkillTree, into: TreeStats): void {
  const { stats, progress } = into;
  const paths = stats.length / 4;
  // A walk's relative paths are normal (`/`-separated, no `.` or `..`): joined without path.join's normalising.
  const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  for (let from = Atomics.add(progress, 0, BLOCK); from < paths; from = Atomics.add(progress, 0, BLOCK)) {
    const to = Math.min(from + BLOCK, paths);
    for (let index = from; index < to; index++) {
      const rel = pathAt(tree, index);
      putStat(stats, index, statOf(rel === '' ? dir : `${prefix}${rel}`));
    }
    // Published after the block's numbers: a thread that reads this count reads them too.
    Atomics.add(progress, 1, to - from);
    Atomics.notify(progress, 1);
  }
}

/** The fingerprint of `tree` from its stats, every one taken: the paths as one text, the stats as one array of numbers, hashed at once. */
export function hashStats(tree: SkillTree, stats: Float64Array): TreeFingerprint {
  let names = 'd\0\n';
  for (const rel of tree.dirs) names += `d\0${rel}\n`;
  for (const rel of tree.files) names += `f\0${rel}\n`;
  for (const rel of tree.links) names += `l\0${rel}\n`;
  let newest = 0;
  for (let at = 0; at < stats.length; at += 4) if (stats[at] !== -1 && (stats[at + 2] as number) > newest) newest = stats[at + 2] as number;
  return { fingerprint: digest(names, stats), newest };
}
