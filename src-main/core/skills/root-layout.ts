/**
 * Where a root keeps its skills. Most roots hold skill folders directly (`<root>/<skill>/SKILL.md`);
 * the installed-packs root holds packs, each a folder of skills (`<root>/<pack>/<skill>/SKILL.md`),
 * so one pack is replaced by renaming one folder. Hidden entries (`.staging`) are never skills.
 */
import { isUtf8 } from 'node:buffer';
import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import type { SkillRoot } from '../../shared/model.js';
import { isSkillEntry } from './pack-files.js';

/** True for a name that can be a skill directory's: one visible path segment. */
function isSkillName(name: string): boolean {
  return name !== '' && !name.startsWith('.') && !/[/\\\0]/.test(name);
}

/** The skill file's name. */
export const SKILL_FILE = 'SKILL.md';

/** Whether `name` is SKILL.md written in other capitals (`SKILL.MD`, `skill.md`): what a skill meant to hold, that no host reads as it. */
export function isMisnamedSkillFile(name: string): boolean {
  return name !== SKILL_FILE && name.toLowerCase() === SKILL_FILE.toLowerCase();
}

/** The entry of `dir` named SKILL.md in other capitals, when it holds no SKILL.md itself; else null (also when it cannot be listed). */
export function misnamedSkillFile(dir: string): string | null {
  try {
    const names = readdirSync(dir);
    return names.includes(SKILL_FILE) ? null : (names.find(isMisnamedSkillFile) ?? null);
  } catch {
    return null;
  }
}

/**
 * Whether the folder `dir` is a skill to read or report: it holds a tool pack (`*.tool.json`), or an entry named SKILL.md of any
 * kind — a file, but also a FIFO, a directory, a device or a dangling link, which the loader then
 * reports as what it is — or one named so in other capitals (`SKILL.MD`, reported too), or it
 * cannot be looked into (EACCES), so it may hold one. Nothing found there is dropped without a word.
 */
export function holdsSkillFile(dir: string): boolean {
  const file = join(dir, 'SKILL.md');
  try {
    statSync(file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return true;
    // The folder cannot be searched. Its names may still be listed (read without search permission): they say, as a parse's walk of it would
    // (parseListed). Else it cannot be looked into at all, and is reported; but a folder that cannot even be reached (its root is unreadable) is nothing found.
    if (code === 'EACCES' || code === 'EPERM') return listedThere(dir) ?? reachable(dir);
    // A link named SKILL.md that leads nowhere is still something named SKILL.md; without one, a tool pack
    // or SKILL.MD (a skill file misnamed, E422) makes the folder a skill.
    return code === 'ENOENT' && (lstatSync(file, { throwIfNoEntry: false }) !== undefined || listedThere(dir) === true);
  }
}

/** Whether the listing of `dir` names SKILL.md (in any capitals) or a tool pack, or null when it cannot be listed. */
function listedThere(dir: string): boolean | null {
  try {
    return readdirSync(dir).some(isSkillEntry);
  } catch {
    return null;
  }
}

function reachable(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `<dir>/<name>` is a skill to list: a visible directory (or link to one) that holdsSkillFile. */
export function hasSkillFile(dir: string, name: string): boolean {
  return isSkillName(name) && holdsSkillFile(join(dir, name));
}

/** `\xNN` for a byte that is not part of valid UTF-8, the name as it is elsewhere (a backslash doubled). */
export function escapeName(raw: Buffer): string {
  let out = '';
  for (let i = 0; i < raw.length; ) {
    const byte = raw[i] as number;
    const length = byte < 0x80 ? 1 : byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 0;
    const sequence = length === 0 ? null : raw.subarray(i, i + length);
    if (sequence !== null && sequence.length === length && isUtf8(sequence)) {
      out += length === 1 && byte === 0x5c ? '\\\\' : sequence.toString('utf8');
      i += length;
    } else {
      out += `\\x${byte.toString(16).padStart(2, '0')}`;
      i += 1;
    }
  }
  return out;
}

/** True for a name escapeName made of a folder name that is not UTF-8 (a skill name never holds a backslash). */
export function isEscapedName(name: string): boolean {
  return name.includes('\\');
}

/**
 * Folder names in `dir` that are not valid UTF-8, escaped: a listing decoded as text shows each
 * invalid byte as U+FFFD and a path made of that names nothing, so they are read again as bytes.
 */
function undecodableNames(dir: string, decoded: readonly Dirent[]): string[] {
  if (!decoded.some((entry) => entry.name.includes('\ufffd'))) return [];
  return readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })
    .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && entry.name[0] !== 0x2e && !isUtf8(entry.name))
    .map((entry) => escapeName(entry.name));
}

/**
 * Names of the directories in `dir` that are skills to list (symlinked directories included): those
 * holding something named SKILL.md, those that cannot be looked into, and those whose name is not
 * UTF-8 (escaped; the loader says what is wrong with each).
 */
export function skillDirNames(dir: string): string[] {
  const { named, escaped } = listedNames(dir);
  return [...named.map((entry) => entry.name).filter((name) => holdsSkillFile(join(dir, name))), ...escaped].sort();
}

/**
 * The folders in `dir` that may be skills, before any is looked into: visible directories and links
 * to them by name (each still to be checked with holdsSkillFile), and the names that are not UTF-8,
 * escaped (listed whatever they hold: the loader says what is wrong with each).
 */
function listedNames(dir: string): { named: Dirent[]; escaped: string[] } {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return { named: [], escaped: [] };
  }
  const named = entries.filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.includes('\ufffd') && isSkillName(entry.name));
  return { named, escaped: undecodableNames(dir, entries) };
}

/**
 * skillDirsIn for a root that is not a packs root, without looking into a single folder: `unchecked`
 * maps the folders whose SKILL.md is left to whoever reads them next (a cold load's parse, on helper
 * threads too: 10,000 stats off the listing that every parse waits for) to their canonical paths
 * where the listing shows one — a folder, not a link, in a root resolved once here, which saves the
 * parse resolving each (a readlink a path component) — else null. Sorted like skillDirsIn.
 */
export function listedDirsIn(root: SkillRoot): { dirs: Map<string, string>; unchecked: Map<string, string | null> } {
  if (root.kind === 'packs') return { dirs: skillDirsIn(root), unchecked: new Map() };
  const { named, escaped } = listedNames(root.path);
  const dirs = new Map([...named.map((entry) => entry.name), ...escaped].sort().map((name) => [name, join(root.path, name)]));
  let canonicalRoot: string | null = null;
  try {
    canonicalRoot = realpathSync.native(root.path);
  } catch {
    // A root that cannot be resolved now leaves each folder to be resolved by its parse.
  }
  const prefix = canonicalRoot === null || canonicalRoot.endsWith(sep) ? canonicalRoot : `${canonicalRoot}${sep}`;
  const unchecked = new Map(named.map((entry) => [dirs.get(entry.name) as string, prefix !== null && entry.isDirectory() ? `${prefix}${entry.name}` : null]));
  return { dirs, unchecked };
}

/** The pack folders of a packs root, sorted: the first pack holding a name wins it. */
function packDirs(root: SkillRoot): string[] {
  try {
    return readdirSync(root.path, { withFileTypes: true })
      .filter((e) => !e.name.startsWith('.') && e.isDirectory())
      .map((e) => join(root.path, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** Every skill name `root` holds. */
export function skillNamesIn(root: SkillRoot): string[] {
  return [...skillDirsIn(root).keys()];
}

/** Every skill name `root` holds, sorted, with its folder (what skillDirIn gives for it), from one listing. */
export function skillDirsIn(root: SkillRoot): Map<string, string> {
  if (root.kind !== 'packs') return new Map(skillDirNames(root.path).map((name) => [name, join(root.path, name)]));
  const dirs = new Map<string, string>();
  for (const pack of packDirs(root)) {
    for (const name of skillDirNames(pack)) if (!dirs.has(name)) dirs.set(name, join(pack, name));
  }
  return new Map([...dirs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Whether `dir` holds the skill `name`: a folder with something named SKILL.md, or a folder whose name escaped (not UTF-8) is `name`. */
function holds(dir: string, name: string): boolean {
  return isEscapedName(name) ? skillDirNames(dir).includes(name) : hasSkillFile(dir, name);
}

/** The folder of skill `name` in `root`, or null when the root does not hold it (for an escaped name, a path that names no file). */
export function skillDirIn(root: SkillRoot, name: string): string | null {
  if (root.kind !== 'packs') return holds(root.path, name) ? join(root.path, name) : null;
  const pack = packDirs(root).find((dir) => holds(dir, name));
  return pack === undefined ? null : join(pack, name);
}

/** Which path segment below a root names the skill a changed path belongs to (the pack comes first in a packs root). */
export function nameSegment(root: SkillRoot): number {
  return root.kind === 'packs' ? 1 : 0;
}
