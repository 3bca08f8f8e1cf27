/**
 * What `check` looks at: a skill directory, a directory of skills (an author's repository or a
 * root), or a loaded skill's name. Checking a path never needs the skill to be installed.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Skill, SkillRoot } from '../../shared/model.js';
import { skillcErrors } from '../errors.js';
import { parseSkill } from './parse-skill.js';
import { skillDirNames, type SkillRegistry } from './registry.js';

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A root for skills read by path: user trust, native placeholders (gibb.eri.sh ones are detected). */
export function adHocRoot(path: string): SkillRoot {
  return { path, kind: 'env', trust: 'user', syntax: 'angle' };
}

/** The skills `target` names: a path first (a skill dir, its SKILL.md, or a dir of skills), then a name. */
export function skillsToCheck(target: string, cwd: string, registry: SkillRegistry): Skill[] {
  const path = resolve(cwd, target);
  const dir = basename(path) === 'SKILL.md' && existsSync(path) ? dirname(path) : path;
  if (isDirectory(dir)) {
    if (existsSync(join(dir, 'SKILL.md'))) return [parseSkill(dir, adHocRoot(dirname(dir)))];
    const names = skillDirNames(dir);
    if (names.length > 0) return names.map((name) => parseSkill(join(dir, name), adHocRoot(dir)));
  }
  const loaded = registry.get(target);
  if (loaded) return [loaded];
  if (isDirectory(dir) || registry.roots.some((root) => isDirectory(join(root.path, target)))) {
    throw skillcErrors.notASkill(target);
  }
  throw skillcErrors.skillNotFound(target);
}
