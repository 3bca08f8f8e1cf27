/**
 * The first phase of a run: look the skill up, check the working directory, render the call, find
 * the program, ask policy for a decision and a sandbox profile. Nothing is recorded or started here.
 */
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import type { RenderedCommand, Skill, Tool } from '../../shared/model.js';
import type { Rule, SandboxProfile, SandboxView, Surface } from '../../shared/runs.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { nearestNames } from '../did-you-mean.js';
import { decide, type Decision } from '../policy/decide.js';
import { legacyPinsFor, rememberedFor } from '../policy/pins.js';
import { profileFor } from '../policy/profile.js';
import { secretProgram, sensitiveArgument } from '../policy/sensitive-paths.js';
import { guardWorkspace, passwdHomes, type GuardPlaces } from '../policy/workspace-guard.js';
import { programBinds } from '../process/sandbox/box-places.js';
import { resolveBundledProgram, resolveProgram } from '../process/resolve-program.js';
import type { Sandbox } from '../process/sandbox/sandbox.js';
import { isInside } from '../files/paths.js';
import { skillNotFound } from '../skills/skill-suggestions.js';
import type { SkillRegistry } from '../skills/registry.js';
import { findRemembered } from '../store/approvals.js';
import { listRules } from '../store/rules.js';
import { isEnabled, listSwitches } from '../store/switches.js';
import { getSettings } from '../store/settings.js';
import type { StateDb } from '../store/state-db.js';
import { isUnsandboxed } from '../store/unsandboxed.js';
import { renderCommand } from '../template/render-command.js';
import { voiceTurn } from '../policy/voice-turn.js';
import { requestChannel } from '../../shared/voice.js';

/** One tool call as a surface hands it over. */
export interface RunInput {
  skill: string;
  tool: string;
  args?: unknown;
  /** Working directory; an existing absolute directory. Without one the run gets an empty folder of its own. */
  cwd?: string;
  surface: Surface;
  /** The assistant whose credential asks (core/authority.ts); absent when the person does. */
  assistant?: string;
  /** Correlates the run with the caller's own trace (ADR-001 run/attach); generated when absent. */
  traceId?: string;
  /** `voice`: an assistant asks on something the person said (docs/voice.md); otherwise the surface says where it came from. */
  channel?: 'voice';
}

/** What preparing a run reads (and the run service shares). */
export interface PrepareDeps {
  db: StateDb;
  registry: SkillRegistry;
  /** The environment tools inherit from (filtered) and requirements are checked against. */
  env: NodeJS.ProcessEnv;
  /** Where a run starts when the caller names no cwd: an empty folder (empty-folder.ts). */
  defaultCwd: string;
  /** Skilltray's home: tools may not reach into it without asking, and never read it in a sandbox. */
  home: string;
  /** Contains every run (or says why it cannot). */
  sandbox: Sandbox;
  /** This owner's session: "Always, for this session" approvals are in force only while it lasts. */
  session: string;
}

/** The request's named arguments, or none when it sent something other than an object. */
export function plainObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** What a prepared call holds: everything policy needed, and what it decided. */
export interface Prepared {
  skill: Skill;
  command: RenderedCommand;
  programPath: string | null;
  decision: Decision;
  sandbox: SandboxView;
  /** The working folder with symlinks resolved: what an Always answer is pinned to. */
  folder: string;
}

/** The working directory, which must be an existing absolute directory (E510). */
function checkCwd(cwd: string | undefined, defaultCwd: string): string {
  const dir = cwd ?? defaultCwd;
  let ok: boolean;
  try {
    ok = isAbsolute(dir) && statSync(dir).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw templateErrors.invalidCwd(dir);
  return dir;
}

/**
 * Where the program lives: a bare name on PATH (for a bundled skill, the system's folders first); a
 * relative path with a separator (`scripts/x.sh`) in the skill's own folder, which it may not leave
 * (E012); an absolute path as written.
 */
function programPath(skill: Skill, program: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  if (isAbsolute(program) || !/[/\\]/.test(program)) return (skill.trust === 'bundled' ? resolveBundledProgram : resolveProgram)(program, env, cwd);
  // The content hash (what approvals are pinned to) leaves hidden entries out: a script must not hide there.
  if (program.split(/[/\\]/).some((segment) => segment.startsWith('.') && segment !== '.' && segment !== '..')) {
    throw skillcErrors.programInHiddenFolder(program);
  }
  const found = resolveProgram(program, env, skill.dir);
  if (found !== null && !isInside(realpathSync(skill.dir), found)) throw skillcErrors.pathEscapesRoot(program);
  return found;
}

/** How a run under `profile` would be contained here; `box` is what the run's box adds to the profile (programs bound, a whole home read). */
export function sandboxView(sandbox: Sandbox, profile: SandboxProfile, box: Pick<SandboxView, 'programs' | 'wholeHome'> = {}): SandboxView {
  if (profile.name === 'none') {
    const why = 'you turned the sandbox off for this skill (Settings, or skilltray rules sandbox)';
    return { ...profile, contained: false, mechanism: null, why, limitsWhy: why };
  }
  const why = sandbox.unavailable(profile);
  return { ...profile, ...box, contained: why === null, mechanism: why === null ? sandbox.mechanism : null, why, limitsWhy: sandbox.limitsUnavailable() };
}

/** The canonical path, or the path itself when it does not exist (yet). */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The places the workspace guard protects, canonical. */
function guardPlaces(deps: PrepareDeps): GuardPlaces {
  return {
    platform: process.platform,
    userHome: canonical(deps.env.HOME || homedir()),
    otherHomes: passwdHomes(process.platform).map(canonical),
    skilltrayHome: canonical(deps.home),
    skillRoots: deps.registry.roots.map((root) => canonical(root.path)),
  };
}

/** The profile a run of `tool` of `skill` (without a tool: the widest of its tools) gets here: what it asks for, or none when the person unsandboxed it. */
export function runProfile(db: StateDb, skill: Skill, tool?: Tool | null): SandboxProfile {
  return profileFor(skill, isUnsandboxed(db, skill.name), getSettings(db).limitCeiling, tool);
}

/** The rules, a rule from before pins pinned first to the loaded skills it covers beyond doubt (policy/pins.ts). */
export function rulesInForce(db: StateDb, registry: SkillRegistry): Rule[] {
  return listRules(db, (rule) => legacyPinsFor(rule.pattern, registry.list(), (skill, tool) => runProfile(db, skill, tool)));
}

/** Looks up, renders and decides; throws what stops a call before any policy question. */
export function prepareRun(deps: PrepareDeps, input: RunInput): Prepared {
  const skill = deps.registry.get(input.skill);
  if (!skill) throw skillNotFound(input.skill, deps.registry.list());
  const cwd = checkCwd(input.cwd, deps.defaultCwd);
  const command = renderCommand(skill, input.tool, input.args ?? {}, { cwd });
  const tool = skill.tools.find((t) => t.name === input.tool);
  const names = skill.tools.map((t) => t.name);
  if (!tool) throw templateErrors.toolNotFound(skill.name, input.tool, names, nearestNames(input.tool, names));
  const program = programPath(skill, command.program, cwd, deps.env);
  const { db } = deps;
  const settings = getSettings(db);
  const profile = runProfile(db, skill, tool);
  const places = guardPlaces(deps);
  const folder = canonical(cwd);
  const workspace = guardWorkspace(folder, profile.name, places);
  if (workspace.kind === 'refused') throw workspace.error;
  const skillDir = canonical(skill.dir);
  const programs = program === null ? [] : programBinds(program, skillDir, process.platform);
  const sandbox = sandboxView(deps.sandbox, profile, { programs, wholeHome: workspace.kind === 'home' });
  // A run that could read a whole home folder never goes unasked, whatever would otherwise allow it.
  const home =
    workspace.kind === 'home'
      ? {
          param: 'cwd',
          value: cwd,
          why: `it is ${workspace.home === places.userHome ? 'your home folder' : 'a home folder'}, so the run could read all of it (keys and credential stores stay hidden)`,
        }
      : null;
  const decided = decide({
    skill,
    tool,
    mode: settings.mode,
    paused: settings.paused,
    rules: rulesInForce(db, deps.registry),
    remembered: rememberedFor(findRemembered(db, skill.name, tool.name, deps.session), folder),
    cwd: folder,
    programPath: program,
    program: command.program,
    programRefused: program === null ? null : secretProgram(skill.name, tool.name, program, skillDir, places),
    resolveBin: (bin) => resolveProgram(bin, deps.env, cwd),
    env: deps.env,
    sensitive: sensitiveArgument(plainObject(input.args), cwd, deps.home) ?? home,
    enabled: isEnabled(listSwitches(db), skill.name, settings.mode),
    sandbox,
  });
  const decision = voiceTurn(decided, requestChannel(input.surface, input.channel), sandbox);
  return { skill, command, programPath: program, decision, sandbox, folder };
}
