/**
 * The one answer to "which skill does this argument mean" (RFC-0007:C-RESOLUTION), for `check`,
 * the gateway commands and search alike: a path first (a skill directory or its SKILL.md), then a
 * loaded skill's name, then a skill directory in a root the loader did not report. A skill found by
 * path is read in the root it lies in, so `check <path>`, `check <name>` and `list` agree (gibb.eri.sh's
 * folder reads `{{…}}` placeholders whichever way the skill is named).
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Skill, SkillRoot } from '../../shared/model.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { parseSkill, type RootChecks } from './parse-skill.js';
import { skillNotFound } from './skill-suggestions.js';
import { skillDirNames } from './registry.js';
import { holdsSkillFile } from './root-layout.js';
import { isPackFile } from './pack-files.js';

/** What resolution consults: the skill roots in precedence order and the loaded skills (a SkillRegistry). */
export interface LoadedSkills {
  readonly roots: readonly SkillRoot[];
  get(name: string): Skill | undefined;
  /** The directory a loaded name resolves to, without parsing the skill. */
  dirOf(name: string): string | null;
  /** That directory with symlinks resolved, when the source can say it cheaply (the registry remembers it while watching). */
  canonicalDirOf?(name: string): string | null;
  /** Every loaded skill, for E001's suggestions (asked only once nothing is found). */
  list?(): readonly Skill[];
  /** Who a skill read by path is (identity.ts, against the bundled manifest); its trust stays user without it. */
  identify?(skill: Skill): Skill;
  /** What each kind of root checks of a skill read by path (parse-skill.ts); none without it. */
  readonly rootChecks?: RootChecks;
}

export interface SkillLocation {
  /** The skill directory as found: its basename is the name the loader gives the skill. */
  dir: string;
  /** `dir` with symlinks resolved: the gateway's source directory. */
  canonical: string;
  /** The root `dir` lies in, or an ad-hoc user root for a directory outside every root. */
  readonly root: SkillRoot;
  /** The loaded skill, when the argument named one (parsed on first use: the gateway mostly needs the directory alone). */
  readonly loaded: Skill | null;
  /** The name the argument was resolved by, when it named a loaded skill. */
  loadedAs: string | null;
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

function canonical(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/** A root for skills read by path outside every root: user trust, native placeholders (gibb.eri.sh's are detected). */
export function adHocRoot(path: string): SkillRoot {
  return { path, kind: 'env', trust: 'user', syntax: 'angle' };
}

/** The root whose directory holds `dir` (compared canonically), else an ad-hoc root. */
function rootOf(dir: string, roots: readonly SkillRoot[]): SkillRoot {
  const parent = canonical(dirname(dir));
  // An installed pack's skill lies one folder deeper: <packs>/<pack>/<skill>.
  const grandparent = canonical(dirname(dirname(dir)));
  const holds = (root: SkillRoot): boolean => canonical(root.path) === (root.kind === 'packs' ? grandparent : parent) && parent !== null;
  return roots.find(holds) ?? adHocRoot(dirname(dir));
}

function located(dir: string, source: LoadedSkills): SkillLocation {
  // A folder listed under a name that is not UTF-8 (escaped) has no path to resolve: it is read as such and reported.
  return { dir, canonical: canonical(dir) ?? dir, root: rootOf(dir, source.roots), loaded: null, loadedAs: null };
}

/** A loaded skill found by name: its directory now, the skill itself (and so its root) when first asked for. */
function locatedByName(dir: string, name: string, source: LoadedSkills): SkillLocation {
  let skill: Skill | null | undefined;
  const loaded = (): Skill | null => (skill ??= source.get(name) ?? null);
  return {
    dir,
    canonical: source.canonicalDirOf?.(name) ?? realpathSync.native(dir),
    get root() {
      return loaded()?.root ?? rootOf(dir, source.roots);
    },
    get loaded() {
      return loaded();
    },
    loadedAs: name,
  };
}

/** A directory holding something named SKILL.md (or one that cannot be looked into): read, and reported if it is not a skill after all. */
function isSkillDir(dir: string): boolean {
  return isDirectory(dir) && holdsSkillFile(dir);
}

/** True for an argument that can be a skill name: one path segment, not `.` or `..`. */
function isPlainName(arg: string): boolean {
  return arg !== '' && arg !== '.' && arg !== '..' && !/[/\\]/.test(arg);
}

/** Resolves `arg` to skills; with `collections`, a directory of skills gives each of them. E010 or E001 when nothing is found. */
function locate(arg: string, cwd: string, source: LoadedSkills, collections: boolean): SkillLocation[] {
  const asPath = arg === '' ? null : resolve(cwd, arg);
  // SKILL.md, or one tool pack, names the folder that is its skill.
  const dir = asPath !== null && (basename(asPath) === 'SKILL.md' || isPackFile(basename(asPath))) && isFile(asPath) ? dirname(asPath) : asPath;
  if (dir !== null && isSkillDir(dir)) return [located(dir, source)];
  if (collections && dir !== null && isDirectory(dir)) {
    const names = skillDirNames(dir);
    if (names.length > 0) return names.map((name) => located(join(dir, name), source));
  }
  if (isPlainName(arg)) {
    const found = source.dirOf(arg);
    if (found !== null) return [locatedByName(found, arg, source)];
  }
  // A loaded skill's own folder (as HTTP and MCP name it) is that skill, also while an editor renames a new SKILL.md over the old.
  if (dir !== null && source.dirOf(basename(dir)) === dir) return [locatedByName(dir, basename(dir), source)];
  if (dir !== null && isDirectory(dir)) throw skillcErrors.notASkill(arg);
  if (isPlainName(arg)) {
    // A skill directory the loader did not report (e.g. it appeared since loading) is still a skill to read.
    const root = source.roots.find((r) => isSkillDir(join(r.path, arg)));
    if (root !== undefined) return [located(join(root.path, arg), source)];
    const empty = source.roots.map((r) => join(r.path, arg)).find(isDirectory);
    if (empty !== undefined) throw skillcErrors.notASkill(empty);
  }
  throw isPlainName(arg) ? skillNotFound(arg, source.list?.() ?? []) : skillcErrors.skillNotFound(arg);
}

/** The one skill `arg` names (gateway commands): a skill directory or its SKILL.md, else a name. */
export function locateSkill(arg: string, cwd: string, source: LoadedSkills): SkillLocation {
  return locate(arg, cwd, source, false)[0] as SkillLocation;
}

/**
 * The skill at a location: the loaded one when the location is where a loaded skill of that name lies
 * (so a path says what the name says, shadowing included), else read from disk and identified.
 */
function skillAt(at: SkillLocation, source: LoadedSkills, asWritten = false): Skill {
  if (asWritten) return identified(at, source);
  if (at.loaded !== null) return at.loaded;
  const name = basename(at.dir);
  const loadedDir = isPlainName(name) ? source.dirOf(name) : null;
  if (loadedDir !== null && canonical(loadedDir) === at.canonical) {
    const loaded = source.get(name);
    if (loaded !== undefined) return loaded;
  }
  return identified(at, source);
}

/** The skill at a location read from disk now, and identified. */
function identified(at: SkillLocation, source: LoadedSkills): Skill {
  const skill = parseSkill(at.dir, at.root, undefined, source.rootChecks);
  return source.identify?.(skill) ?? skill;
}

/**
 * The skills `check` looks at: as locateSkill, and also every skill of a directory of skills.
 * `asWritten` reads each from disk as it is now, never a loaded or last good parse (`check --watch`
 * must show an edit's errors at once, not the parse kept while a file is being rewritten).
 */
export function skillsToCheck(target: string, cwd: string, source: LoadedSkills, asWritten = false): Skill[] {
  return locate(target, cwd, source, true).map((at) => skillAt(at, source, asWritten));
}
