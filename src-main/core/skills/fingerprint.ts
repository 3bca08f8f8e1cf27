/**
 * A cheap stand-in for re-hashing a skill: the stat of every file (path, size, mtime, ctime,
 * inode). Any write, rename, new or removed file moves it; `touch -d` can set an mtime back but
 * not the ctime, which the kernel sets on every change. A fingerprint only vouches for content
 * that was hashed when it was taken, and only once that content has settled: a file changed within
 * the timestamp granularity of the moment it was read could change again without moving its
 * ctime (git's "racily clean" case), so such a fingerprint is not recorded and the hash decides.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathStat, type PathStat, type SkillFile, type SkillWalk } from './walk.js';

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

/** The tree of a walk. */
export function treeOf(walk: SkillWalk): SkillTree {
  return { dirs: walk.dirs, files: walk.files.map((file) => file.rel), links: [...walk.escaped, ...walk.dangling] };
}

export interface TreeFingerprint {
  fingerprint: string;
  /** The latest ctime seen, for the settle rule. */
  newest: number;
}

/**
 * Hashes each path's stat as treeFingerprint does (a missing path counts too): the paths as one
 * text, the stats as one array of numbers. Hashed at once, and no number made text: a big skill's
 * 5,000 files made 15,000 float-to-text conversions and as many path joins each time it was looked at.
 * The numbers go straight into one array sized for every path: no object or growing array a path.
 */
class TreeHasher {
  private names = '';
  private readonly stats: Float64Array;
  private at = 0;
  newest = 0;

  constructor(paths: number) {
    this.stats = new Float64Array(paths * 4);
  }

  add(kind: string, rel: string, st: PathStat | undefined): void {
    this.names += `${kind}\0${rel}\n`;
    const at = this.at;
    this.at += 4;
    if (st === undefined) {
      // No size is negative: a missing path reads as no stat could (its other numbers stay 0).
      this.stats[at] = -1;
      return;
    }
    if (st.ctimeMs > this.newest) this.newest = st.ctimeMs;
    this.stats[at] = st.size;
    this.stats[at + 1] = st.mtimeMs;
    this.stats[at + 2] = st.ctimeMs;
    this.stats[at + 3] = st.ino;
  }

  done(): TreeFingerprint {
    const hash = createHash('sha256').update(this.names).update(new Uint8Array(this.stats.buffer, 0, this.at * 8));
    return { fingerprint: hash.digest('hex'), newest: this.newest };
  }
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
  const hasher = new TreeHasher(1 + tree.dirs.length + tree.files.length + tree.links.length);
  // A walk's relative paths are normal (`/`-separated, no `.` or `..`): joined without path.join's normalising.
  const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  hasher.add('d', '', statOf(dir));
  for (const rel of tree.dirs) hasher.add('d', rel, statOf(`${prefix}${rel}`));
  for (const rel of tree.files) hasher.add('f', rel, statOf(`${prefix}${rel}`));
  for (const rel of tree.links) hasher.add('l', rel, statOf(`${prefix}${rel}`));
  return hasher.done();
}

/**
 * treeFingerprint(dir, treeOf(walk)) from the stats walkSkill took as it went (only the links it
 * skipped are stat'ed again): a load of 10,000 skills stats each file once, not twice.
 */
export function walkFingerprint(dir: string, walk: SkillWalk): TreeFingerprint {
  const dirStats = walk.dirStats;
  if (dirStats === undefined) return treeFingerprint(dir, treeOf(walk));
  const links = [...walk.escaped, ...walk.dangling];
  const hasher = new TreeHasher(1 + walk.dirs.length + walk.files.length + links.length);
  hasher.add('d', '', dirStats.get(''));
  for (const rel of walk.dirs) hasher.add('d', rel, dirStats.get(rel));
  for (const file of walk.files) hasher.add('f', file.rel, file);
  for (const rel of links) hasher.add('l', rel, pathStat(join(dir, rel)));
  return hasher.done();
}
