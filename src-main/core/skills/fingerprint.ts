/**
 * A cheap stand-in for re-hashing a skill: the stat of every file (path, size, mtime, ctime,
 * inode). Any write, rename, new or removed file moves it; `touch -d` can set an mtime back but
 * not the ctime, which the kernel sets on every change. A fingerprint only vouches for content
 * that was hashed when it was taken, and only once that content has settled: a file changed within
 * the timestamp granularity of the moment it was read could change again without moving its
 * ctime (git's "racily clean" case), so such a fingerprint is not recorded and the hash decides.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathStat, type SkillFile, type SkillWalk } from './walk.js';
import { hashStats, putStat, treeFingerprint, treeStats, type SkillTree, type TreeFingerprint } from './tree-fingerprint.js';

export { treeFingerprint, type SkillTree, type TreeFingerprint };

/**
 * How long after its last change a file's stat can vouch for its content: above the coarsest
 * timestamp granularity in use (FAT's 2 s) plus the kernel's coarse-clock lag.
 */
export const SETTLE_MS = 3000;

/** Digest of the walked files' stats, in the walk's order. */
export function statFingerprint(files: readonly SkillFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.rel}\0${file.size}\0${file.mtimeMs}\0${file.ctimeMs}\0${file.ino}\n`);
  return hash.digest('hex');
}

/** True when no file changed within SETTLE_MS of `now` (the moment after their content was read). */
function hasSettled(files: readonly SkillFile[], now: number = Date.now()): boolean {
  for (const file of files) {
    if (file.ctimeMs > now - SETTLE_MS) return false;
  }
  return true;
}

/** The fingerprint to record for content read up to `now`, or null while it cannot vouch for it yet. */
export function settledFingerprint(files: readonly SkillFile[], now: number = Date.now()): string | null {
  return hasSettled(files, now) ? statFingerprint(files) : null;
}

/** The tree of a walk. */
export function treeOf(walk: SkillWalk): SkillTree {
  return { dirs: walk.dirs, files: walk.files.map((file) => file.rel), links: [...walk.escaped, ...walk.dangling] };
}

/**
 * treeFingerprint(dir, treeOf(walk)) from the stats walkSkill took as it went (only the links it
 * skipped are stat'ed again): a load of 10,000 skills stats each file once, not twice.
 */
export function walkFingerprint(dir: string, walk: SkillWalk): TreeFingerprint {
  const dirStats = walk.dirStats;
  const tree = treeOf(walk);
  if (dirStats === undefined) return treeFingerprint(dir, tree);
  const { stats } = treeStats(tree, false);
  let index = 0;
  putStat(stats, index++, dirStats.get(''));
  for (const rel of walk.dirs) putStat(stats, index++, dirStats.get(rel));
  for (const file of walk.files) putStat(stats, index++, file);
  for (const rel of tree.links) putStat(stats, index++, pathStat(join(dir, rel)));
  return hashStats(tree, stats);
}
