/**
 * RFC-0007:C-RESOLUTION mapped onto Skilltray: a `<skill>` argument is a path to a skill
 * directory or a name the loader knows; the runtime dir (index, logs) is derived from the
 * canonical directory's basename under `<home>/runtime/`.
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { skillcErrors } from '../errors.js';

export interface ResolveContext {
  /** Directory a relative `<skill>` path is resolved against. */
  cwd: string;
  /** The loader's lookup: the winning skill's directory for a name, or null. */
  findByName(name: string): string | null;
  /** Skill roots, consulted only to tell E010 (directory without SKILL.md) from E001. */
  rootPaths: readonly string[];
}

export interface ResolvedSkill {
  /** Canonical absolute path of the skill directory. */
  dir: string;
  /** Basename of `dir`: the runtime dir's name and the `skill` column of access logs. */
  name: string;
}

// Resolution runs on every gateway call: a missing path is an answer, not an exception to build and catch.
function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

function resolved(dir: string): ResolvedSkill {
  const canonical = realpathSync.native(dir);
  return { dir: canonical, name: basename(canonical) };
}

/** True for an argument that can be a skill name: one path segment, not `.` or `..`. */
function isPlainName(arg: string): boolean {
  return arg !== '' && arg !== '.' && arg !== '..' && !/[/\\]/.test(arg);
}

/** Resolves `<skill>`: a directory holding SKILL.md, then a loaded skill's name; E010 or E001 otherwise. */
export function resolveSkillSource(arg: string, ctx: ResolveContext): ResolvedSkill {
  const asPath = resolve(ctx.cwd, arg);
  if (arg !== '' && isDirectory(asPath) && isFile(join(asPath, 'SKILL.md'))) return resolved(asPath);
  if (isPlainName(arg)) {
    const found = ctx.findByName(arg);
    if (found !== null) return resolved(found);
  }
  if (arg !== '' && isDirectory(asPath)) throw skillcErrors.notASkill(arg);
  if (isPlainName(arg)) {
    // A skill directory the loader did not report (e.g. it failed to load) is still a skill to read.
    for (const root of ctx.rootPaths) {
      const candidate = join(root, arg);
      if (isDirectory(candidate) && isFile(join(candidate, 'SKILL.md'))) return resolved(candidate);
    }
    for (const root of ctx.rootPaths) {
      const candidate = join(root, arg);
      if (isDirectory(candidate)) throw skillcErrors.notASkill(candidate);
    }
  }
  throw skillcErrors.skillNotFound(arg);
}

/** `<home>/runtime/<name>/`: where a skill's search index and access log live. */
export function runtimeDir(home: string, name: string): string {
  return join(home, 'runtime', name);
}
