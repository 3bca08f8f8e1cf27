/**
 * A skill's files: the walk every feature shares (content hash, sources, outline, search index)
 * and the one way text is read. The walk never leaves the skill root: symlinks that resolve
 * outside it are reported and skipped, symlink loops are cut, and hidden entries are skipped.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/** How many files a skill may hold before the walk stops (a runaway directory must not stall the loader). */
export const MAX_SKILL_FILES = 10_000;

export interface SkillFile {
  /** Path relative to the skill root with `/` separators. */
  rel: string;
  abs: string;
  size: number;
  /** The file's stat as the walk saw it: what a freshness fingerprint compares (see fingerprint.ts). */
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface SkillWalk {
  files: SkillFile[];
  /** Directories relative to the root, `/`-separated. */
  dirs: string[];
  /** Relative paths of symlinks skipped because they resolve outside the skill root. */
  escaped: string[];
  /** Relative paths of symlinks skipped because they resolve to nothing (yet). */
  dangling: string[];
  /** True when the walk stopped at MAX_SKILL_FILES. */
  truncated: boolean;
}

/** Bytewise (UTF-8) ordering of relative paths, as RFC-0002 asks for listings. */
export function compareBytewise(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** True when `child` (canonical) is `root` (canonical) or inside it. */
export function isInside(root: string, child: string): boolean {
  if (child === root) return true;
  const rel = relative(root, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Lists every non-hidden file under `dir` (canonicalised), sorted bytewise by relative path. */
export function walkSkill(dir: string): SkillWalk {
  // The native call is one syscall; the JS one lstats every component, which a load of 10,000 skills feels.
  const root = realpathSync.native(dir);
  const walk: SkillWalk = { files: [], dirs: [], escaped: [], dangling: [], truncated: false };
  const visited = new Set<string>([root]);

  const visit = (absDir: string, relDir: string): void => {
    let entries;
    try {
      entries = readdirSync(absDir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (walk.truncated) return;
      if (entry.name.startsWith('.')) continue;
      const abs = join(absDir, entry.name);
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let real = abs;
      if (entry.isSymbolicLink()) {
        try {
          real = realpathSync.native(abs);
          const st = statSync(real);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          walk.dangling.push(rel);
          continue;
        }
        if (!isInside(root, real)) {
          walk.escaped.push(rel);
          continue;
        }
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
        let st;
        try {
          st = statSync(abs);
        } catch {
          continue;
        }
        walk.files.push({ rel, abs, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino });
      }
    }
  };
  visit(root, '');
  walk.files.sort((a, b) => compareBytewise(a.rel, b.rel));
  walk.dirs.sort(compareBytewise);
  walk.escaped.sort(compareBytewise);
  walk.dangling.sort(compareBytewise);
  return walk;
}

/** SHA-256 of a file's bytes, read in chunks so a huge file never sits in memory. */
export function hashFile(abs: string): string {
  const hash = createHash('sha256');
  const fd = openSync(abs, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 16);
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** SHA-256 of bytes already in memory (a file read once for both its hash and its text). */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What a file contributes to the manifest when it cannot be read. */
export const UNREADABLE = 'unreadable';

/**
 * RFC-0001:C-MANIFEST source hash, fed one file at a time in the walk's order: SHA-256 over the
 * bytewise-sorted `(relative_path, file_hash)` pairs, each written as `path NUL hash LF`.
 */
export class ManifestHasher {
  private readonly hash = createHash('sha256');

  add(rel: string, fileHash: string): void {
    this.hash.update(`${rel}\0${fileHash}\n`);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** RFC-0001:C-MANIFEST source hash of the walked files; also the skill's content hash. */
export function manifestHash(files: readonly SkillFile[]): string {
  const manifest = new ManifestHasher();
  for (const file of files) {
    let fileHash: string;
    try {
      fileHash = hashFile(file.abs);
    } catch {
      fileHash = UNREADABLE;
    }
    manifest.add(file.rel, fileHash);
  }
  return manifest.digest();
}

/** LF-normalised text of a file: BOM stripped, CRLF and lone CR turned into LF. */
export function normaliseText(raw: string): string {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  // Most files have no CR at all: finding none is cheaper than a replace that changes nothing.
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Reads a text file for parsing (not for `open`, which returns bytes as they are). */
export function readText(abs: string): string {
  return normaliseText(readFileSync(abs, 'utf8'));
}
