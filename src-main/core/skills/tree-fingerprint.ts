/**
 * A tree fingerprint (fingerprint.ts) taken from the stats alone: what a helper thread runs
 * (tree-check-worker.ts), so this module needs nothing but Node's own.
 */
import { createHash } from 'node:crypto';
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

/**
 * Hashes each path's stat as treeFingerprint does (a missing path counts too): the paths as one
 * text, the stats as one array of numbers. Hashed at once, and no number made text: a big skill's
 * 5,000 files made 15,000 float-to-text conversions and as many path joins each time it was looked at.
 * The numbers go straight into one array sized for every path: no object or growing array a path.
 */
export class TreeHasher {
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

