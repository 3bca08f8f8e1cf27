/**
 * Where a root keeps its skills. Most roots hold skill folders directly (`<root>/<skill>/SKILL.md`);
 * the installed-packs root holds packs, each a folder of skills (`<root>/<pack>/<skill>/SKILL.md`),
 * so one pack is replaced by renaming one folder. Hidden entries (`.staging`) are never skills.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SkillRoot } from '../../shared/model.js';

/** Names of the directories in `dir` that hold a SKILL.md (symlinked directories included). */
export function skillDirNames(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
    try {
      if (statSync(join(dir, entry.name, 'SKILL.md')).isFile()) names.push(entry.name);
    } catch {
      // no SKILL.md: not a skill (resolution reports E010 if someone asks for it by name)
    }
  }
  return names.sort();
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
  if (name === '' || name.startsWith('.') || /[/\\\0]/.test(name)) return null;
  const dirs = root.kind === 'packs' ? packDirs(root).map((pack) => join(pack, name)) : [join(root.path, name)];
  for (const dir of dirs) {
    try {
      if (statSync(join(dir, 'SKILL.md')).isFile()) return dir;
    } catch {
      // not in this one
    }
  }
  return null;
}

/** Which path segment below a root names the skill a changed path belongs to (the pack comes first in a packs root). */
export function nameSegment(root: SkillRoot): number {
  return root.kind === 'packs' ? 1 : 0;
}
