/**
 * Where a root keeps its skills. Most roots hold skill folders directly (`<root>/<skill>/SKILL.md`);
 * the installed-packs root holds packs, each a folder of skills (`<root>/<pack>/<skill>/SKILL.md`),
 * so one pack is replaced by renaming one folder. Hidden entries (`.staging`) are never skills.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SkillRoot } from '../../shared/model.js';

/** True for a name that can be a skill directory's: one visible path segment. */
function isSkillName(name: string): boolean {
  return name !== '' && !name.startsWith('.') && !/[/\\\0]/.test(name);
}

/** Whether `<dir>/<name>` is a skill: a visible directory (or link to one) holding a SKILL.md file. */
export function hasSkillFile(dir: string, name: string): boolean {
  if (!isSkillName(name)) return false;
  try {
    return statSync(join(dir, name, 'SKILL.md')).isFile();
  } catch {
    // no SKILL.md: not a skill (resolution reports E010 if someone asks for it by name)
    return false;
  }
}

/** Names of the directories in `dir` that hold a SKILL.md (symlinked directories included). */
export function skillDirNames(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && hasSkillFile(dir, entry.name))
    .map((entry) => entry.name)
    .sort();
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
  if (root.kind !== 'packs') return skillDirNames(root.path);
  return [...new Set(packDirs(root).flatMap((pack) => skillDirNames(pack)))].sort();
}

/** The folder of skill `name` in `root`, or null when the root does not hold it. */
export function skillDirIn(root: SkillRoot, name: string): string | null {
  if (root.kind !== 'packs') return hasSkillFile(root.path, name) ? join(root.path, name) : null;
  if (!isSkillName(name)) return null;
  const pack = packDirs(root).find((dir) => hasSkillFile(dir, name));
  return pack === undefined ? null : join(pack, name);
}

/** Which path segment below a root names the skill a changed path belongs to (the pack comes first in a packs root). */
export function nameSegment(root: SkillRoot): number {
  return root.kind === 'packs' ? 1 : 0;
}
