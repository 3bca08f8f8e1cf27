/**
 * A skill's files: the walk every feature shares (content hash, sources, outline, search index).
 * The walk never leaves the skill root: symlinks that resolve outside it are reported and skipped,
 * symlink loops are cut, and hidden entries are skipped.
 */
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { hashBytes, hashFile } from '../files/hash.js';
import { compareBytewise, isInside } from '../files/paths.js';
import { errnoText, kindOf } from './entry-kinds.js';
import { isSkillEntry } from './pack-files.js';

/**
 * How many files, and how many bytes in all, a skill may hold before the walk stops (a runaway
 * directory must not stall the loader, nor every run's private copy of the skill). Past either, the
 * content hash cannot cover the skill whole (W413), so it never runs unasked (identity.ts).
 */
export const MAX_SKILL_FILES = 10_000;
export const MAX_SKILL_BYTES = 1024 * 1024 * 1024;

/** A file a walk found: where it is. */
export interface SkillPath {
  /** Path relative to the skill root with `/` separators. */
  rel: string;
  abs: string;
}

/** The parts of a stat a freshness fingerprint compares (see fingerprint.ts). */
export interface PathStat {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** A file with its stat as the walk saw it. */
export interface SkillFile extends SkillPath, PathStat {}

export interface SkillWalk<F extends SkillPath = SkillFile> {
  files: F[];
  /** Directories relative to the root, `/`-separated. */
  dirs: string[];
  /** Relative paths of symlinks skipped because they resolve outside the skill root. */
  escaped: string[];
  /** Relative paths of symlinks skipped because they resolve to nothing (yet). */
  dangling: string[];
  /** True when the walk stopped at MAX_SKILL_FILES or MAX_SKILL_BYTES (a walk that takes no stats counts files only). */
  truncated: boolean;
  /** Folders that could not be listed (`''` is the skill's own), with why: what is in them is not hashed. */
  unreadable: { rel: string; why: string }[];
  /** Entries that are neither files nor folders (a FIFO, a socket, a device), with what they are: skipped. */
  special: { rel: string; kind: string }[];
  /** walkSkill's only: each folder's stat (`''` the skill's own; undefined when it could not be taken), taken before it was listed. */
  dirStats?: Map<string, PathStat | undefined>;
}

/** Where a symlink in a skill leads: inside the skill (its canonical target, stat'ed), outside it, or nowhere (yet). */
export type LinkTarget = { kind: 'inside'; real: string; stats: Stats } | { kind: 'escaped' } | { kind: 'dangling' };

/** The walk's rule for the symlink `abs` in the skill whose canonical directory is `root`: only a link inside it is followed. */
export function followLink(root: string, abs: string): LinkTarget {
  let real: string;
  let stats: Stats;
  try {
    real = realpathSync.native(abs);
    stats = statSync(real);
  } catch {
    return { kind: 'dangling' };
  }
  return isInside(root, real) ? { kind: 'inside', real, stats } : { kind: 'escaped' };
}

/** The stat of `abs` a fingerprint compares (following links), or undefined when there is none. */
export function pathStat(abs: string): PathStat | undefined {
  try {
    const st = statSync(abs, { throwIfNoEntry: false });
    return st === undefined ? undefined : { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
  } catch {
    return undefined;
  }
}

interface WalkOptions {
  /** Take each folder's stat before it is listed (SkillWalk.dirStats). */
  statDirs?: boolean;
  /**
   * `dir` canonical, when the caller knows it (saves resolving it: a readlink a path component). One
   * gone stale (the folder swapped for a link since) only makes the walk stricter: a link is followed
   * only into this path, and what lies behind the swapped folder is not under it.
   */
  canonical?: string;
  /** The walk stops and gives null when the skill's own listing holds no entry whose name this accepts. */
  holding?: (name: string) => boolean;
}

/**
 * Walks `dir` (canonicalised), keeping each file `fileAt` describes (null: gone, skipped), sorted
 * bytewise by relative path. Null only with `holding`, when the folder lists no entry of that name.
 */
function walkTree<F extends SkillPath>(dir: string, fileAt: (rel: string, abs: string) => F | null, options: WalkOptions = {}): SkillWalk<F> | null {
  // The native call is one syscall; the JS one lstats every component, which a load of 10,000 skills feels.
  const root = options.canonical ?? realpathSync.native(dir);
  const walk: SkillWalk<F> = { files: [], dirs: [], escaped: [], dangling: [], truncated: false, unreadable: [], special: [] };
  const dirStats = options.statDirs === true ? new Map<string, PathStat | undefined>() : null;
  let held = options.holding === undefined;
  if (dirStats !== null) walk.dirStats = dirStats;
  const visited = new Set<string>([root]);
  let bytes = 0;

  const visit = (absDir: string, relDir: string): void => {
    // Before the listing: an entry added after it moves this stat, so a fingerprint of it cannot vouch for a listing that missed the entry.
    dirStats?.set(relDir, pathStat(absDir));
    let entries: Dirent[];
    try {
      entries = readdirSync(absDir, { withFileTypes: true });
    } catch (error) {
      walk.unreadable.push({ rel: relDir, why: errnoText(error) });
      // A skill folder that cannot be listed is walked (and reported) all the same: whether it holds the name is the caller's to find out.
      held = true;
      return;
    }
    if (!held) {
      // SKILL.MD too: a skill file misnamed is reported by the parse, not dropped here without a word.
      const holds = options.holding as (name: string) => boolean;
      held = entries.some((entry) => holds(entry.name));
      if (!held) return;
    }
    // absDir is already normal (a canonical root, then names readdir gave, never `.` or `..`) and a name
    // holds no separator, so joining needs none of path.join's normalising (its cost at 5,000 files).
    const prefix = absDir.endsWith(sep) ? absDir : `${absDir}${sep}`;
    for (const entry of entries) {
      if (walk.truncated) return;
      if (entry.name.startsWith('.')) continue;
      const abs = `${prefix}${entry.name}`;
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let real = abs;
      let special = isDir || isFile || entry.isSymbolicLink() ? null : kindOf(entry);
      if (entry.isSymbolicLink()) {
        const target = followLink(root, abs);
        if (target.kind !== 'inside') {
          walk[target.kind].push(rel);
          continue;
        }
        real = target.real;
        isDir = target.stats.isDirectory();
        isFile = target.stats.isFile();
        special = isDir || isFile ? null : kindOf(target.stats);
      }
      if (special !== null) {
        walk.special.push({ rel, kind: special });
        continue;
      }
      if (isDir) {
        if (visited.has(real)) continue;
        visited.add(real);
        walk.dirs.push(rel);
        visit(abs, rel);
      } else if (isFile) {
        if (walk.files.length >= MAX_SKILL_FILES) {
          walk.truncated = true;
          return;
        }
        const file = fileAt(rel, abs);
        if (file === null) continue;
        bytes += (file as Partial<PathStat>).size ?? 0;
        if (bytes > MAX_SKILL_BYTES) {
          walk.truncated = true;
          return;
        }
        walk.files.push(file);
      }
    }
  };
  visit(root, '');
  if (!held) return null;
  walk.files.sort((a, b) => compareBytewise(a.rel, b.rel));
  walk.dirs.sort(compareBytewise);
  walk.escaped.sort(compareBytewise);
  walk.dangling.sort(compareBytewise);
  walk.special.sort((a, b) => compareBytewise(a.rel, b.rel));
  return walk;
}

function statted(rel: string, abs: string): SkillFile | null {
  let st;
  try {
    st = statSync(abs);
  } catch {
    return null;
  }
  return { rel, abs, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
}

/** Lists every non-hidden file under `dir` (canonicalised) with its stat, and each folder's, sorted bytewise by relative path. */
export function walkSkill(dir: string): SkillWalk {
  return walkTree(dir, statted, { statDirs: true }) as SkillWalk;
}

/**
 * walkSkill of a folder a root's listing showed without looking into it, or null when its own listing
 * holds nothing named SKILL.md and no tool pack (a folder that cannot be listed is walked, to be
 * reported or found gone by the caller). `canonical`: its canonical path, when the listing showed a folder, not a link.
 */
export function walkListed(dir: string, canonical: string | null): SkillWalk | null {
  return walkTree(dir, statted, { statDirs: true, holding: isSkillEntry, ...(canonical === null ? {} : { canonical }) });
}

/** The files of walkSkill without their stats, for a reader that only opens them (outline): one syscall less per file. */
export function listSkillFiles(dir: string): SkillWalk<SkillPath> {
  return walkTree(dir, (rel, abs) => ({ rel, abs })) as SkillWalk<SkillPath>;
}

/** What a file contributes to the manifest when it cannot be read. */
export const UNREADABLE = 'unreadable';

/**
 * RFC-0001:C-MANIFEST source hash, fed one file at a time in the walk's order: SHA-256 over the
 * bytewise-sorted `(relative_path, file_hash)` pairs, each written as `path NUL hash LF`.
 */
export class ManifestHasher {
  // Hashed at once in digest(): a line a file, where a native call a line cost more than the hashing.
  private text = '';

  add(rel: string, fileHash: string): void {
    this.text += `${rel}\0${fileHash}\n`;
  }

  digest(): string {
    return hashBytes(this.text);
  }
}

/**
 * RFC-0001:C-MANIFEST source hash of the walked files; also the skill's content hash. `read` holds
 * bytes already read by relative path (SKILL.md as parsed), hashed as they are instead of read again;
 * `unreadable` hears each file that could not be read (it enters the hash as UNREADABLE).
 */
export function manifestHash(
  files: readonly SkillFile[],
  read: ReadonlyMap<string, Buffer> = new Map(),
  unreadable?: (rel: string, why: string) => void,
): string {
  const manifest = new ManifestHasher();
  for (const file of files) {
    let fileHash: string;
    const bytes = read.get(file.rel);
    try {
      fileHash = bytes === undefined ? hashFile(file.abs) : hashBytes(bytes);
    } catch (error) {
      fileHash = UNREADABLE;
      unreadable?.(file.rel, errnoText(error));
    }
    manifest.add(file.rel, fileHash);
  }
  return manifest.digest();
}
