/**
 * Skills a project folder carries for its assistants (`.claude/skills`, `.agents/skills`). They are
 * a repository author's tools, so none is read until the person trusts that folder, and the trust is
 * pinned to a digest of every skill in it (name and content hash): once anything in them changes,
 * the folder is untrusted again until the person looks and confirms. Their roots come after every
 * other root, so a project can never hide one of the person's own or a bundled skill, and their
 * trust is always `user`: each of their tools asks before it runs.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SkillRoot } from '../../shared/model.js';
import { parseSkill } from './parse-skill.js';
import { skillDirNames } from './root-layout.js';

/** The folders inside a project that hold its skills, as the assistants `connect` knows lay them out. */
export const PROJECT_SKILL_FOLDERS = ['.claude/skills', '.agents/skills'] as const;

/** A project folder's skills as they are on disk now. */
export interface ProjectSkills {
  /** The project folder, absolute. */
  path: string;
  /** Its skill folders that exist, as roots. */
  roots: SkillRoot[];
  /** `<folder>/<skill>` for each skill found, in order. */
  skills: string[];
  /** SHA-256 over every skill's folder, name and content hash: what trusting the folder pins. */
  digest: string;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The project root of one skill folder. */
function projectRoot(path: string): SkillRoot {
  return { path, kind: 'project', trust: 'user', syntax: 'angle' };
}

/** Reads a project folder's skills and digests them (the content of every skill, not its file stats). */
export function readProjectSkills(folder: string): ProjectSkills {
  const path = resolve(folder);
  const roots = PROJECT_SKILL_FOLDERS.map((rel) => join(path, rel)).filter(isDirectory).map(projectRoot);
  const hash = createHash('sha256');
  const skills: string[] = [];
  roots.forEach((root, i) => {
    const rel = PROJECT_SKILL_FOLDERS.find((f) => join(path, f) === root.path) ?? String(i);
    for (const name of skillDirNames(root.path)) {
      const skill = parseSkill(join(root.path, name), root);
      skills.push(`${rel}/${name}`);
      hash.update(`${rel}\0${name}\0${skill.hash}\n`);
    }
  });
  return { path, roots, skills, digest: hash.digest('hex') };
}
