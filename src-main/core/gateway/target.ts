/**
 * Target resolution for the gateway (service.ts): the skill a call names, by loaded name, loaded
 * directory or path (RFC-0007), resolved once to its canonical directory, runtime dir and what the
 * access log records.
 */
import { basename } from 'node:path';
import type { Skill } from '../../shared/model.js';
import type { LoggedCommand } from '../logs/access-log.js';
import { locateSkill } from '../skills/locate.js';
import { parseSkill } from '../skills/parse-skill.js';
import type { SkillRegistry } from '../skills/registry.js';
import { runtimeDir } from './runtime-dir.js';

/** The skill a gateway call is about, resolved. */
export interface Target {
  /** What the access log records of the call. */
  logged: LoggedCommand;
  /** The canonical directory's basename: it names the runtime dir and the access log's skill. */
  dirName: string;
  runtimeDir: string;
  /** Canonical source directory. */
  dir: string;
  /** The loaded skill's name when the argument was resolved as one (not as a path). */
  loadedAs: string | null;
  /** The loaded skill, or the skill read in the root its directory lies in. */
  read(): Skill;
}

/** Resolves `skill` (as given to `command`, from `cwd`) over the loaded skills of `registry`. */
export function resolveTarget(command: string, skill: string, cwd: string, registry: SkillRegistry, home: string): Target {
  const at = locateSkill(skill, cwd, registry);
  // The canonical directory's basename names the runtime dir and the access log's skill.
  const name = basename(at.canonical);
  // A loaded skill's directory (how HTTP, MCP and IPC name one) is that loaded skill.
  const loadedAs = at.loadedAs ?? (registry.dirOf(name) !== null && registry.canonicalDirOf(name) === at.canonical ? name : null);
  // Parsed only when asked (build, search): show and outline need the directory alone.
  const read = (): Skill =>
    at.loaded ?? (loadedAs === null ? undefined : registry.get(loadedAs)) ?? parseSkill(at.dir, at.root, undefined, registry.rootChecks);
  const runtime = runtimeDir(home, name);
  return {
    logged: { command, skill: name, skillPath: at.canonical, runtimeDir: runtime, cwd },
    dirName: name,
    runtimeDir: runtime,
    dir: at.canonical,
    loadedAs,
    read,
  };
}
