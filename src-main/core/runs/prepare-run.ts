/**
 * The first phase of a run: look the skill up, open its folder once, render the call, find the
 * program, resolve the run's box once (box-spec.ts), and ask policy for a decision on that box.
 * Nothing is recorded or started here; the box's handles stay open until the run is done with them.
 * An allowed decision carries the program it allows, so what runs never has to be asserted found.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute } from 'node:path';
import type { RenderedCommand, Skill, Tool } from '../../shared/model.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import type { Rule, SandboxProfile, SandboxView, Surface } from '../../shared/runs.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { runnerErrors } from '../../shared/error-messages/runner.js';
import { nearestNames } from '../did-you-mean.js';
import { decide, type Decision } from '../policy/decide.js';
import { legacyPinsFor, rememberedFor } from '../policy/pins.js';
import { profileFor } from '../policy/profile.js';
import { secretProgram, sensitiveArgument } from '../policy/sensitive-paths.js';
import { guardWorkspace, passwdHomes, type GuardPlaces, type KnownPlace } from '../policy/workspace-guard.js';
import { openBox, openWorkspace, readsAt, type BoxSpec, type OpenWorkspace } from '../process/sandbox/box-spec.js';
import { ancestry, closeHandle, identityAt, openPath } from '../process/sandbox/handles.js';
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
  /** The launcher that starts a run's sandbox inside the cgroup made for it, as root (Config.enterCgroup). */
  enterCgroup: string;
  /** This owner's session: "Always, for this session" approvals are in force only while it lasts. */
  session: string;
}

/** The request's named arguments, or none when it sent something other than an object. */
export function plainObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A decision that lets the call run (on its own, or once a person approves), with the program it runs. */
export type Allowed = Extract<Decision, { outcome: 'auto' | 'ask' }> & { programPath: string };

/** What policy decided on a prepared call: an allowed run always has its program. */
export type RunDecision = Allowed | Extract<Decision, { outcome: 'deny' | 'refuse' }>;

/** What a prepared call holds: everything policy needed, and what it decided. */
export interface Prepared {
  skill: Skill;
  command: RenderedCommand;
  /** The program as resolved, or null when it was not found (then the decision refuses). */
  programPath: string | null;
  decision: RunDecision;
  sandbox: SandboxView;
  /** The working folder as its handle is (the kernel's path): what an Always answer is pinned to, and what every surface shows. */
  folder: string;
  /** The run's box, open: whoever prepared it lets it go (box.dispose()) once the run is over or will not happen. */
  box: BoxSpec;
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

/** How a run under `profile` would be contained here; `box` is what the run's box adds to the profile (programs bound, .git files pointing out). */
function sandboxView(sandbox: Sandbox, profile: SandboxProfile, box: Pick<SandboxView, 'programs' | 'gitOutside'> = {}): SandboxView {
  if (profile.name === 'none') {
    const why = 'you turned the sandbox off for this skill (Settings, or skilltray rules sandbox)';
    return { ...profile, contained: false, mechanism: null, why, limitsWhy: why };
  }
  const why = sandbox.unavailable(profile);
  return { ...profile, ...box, contained: why === null, mechanism: why === null ? sandbox.mechanism : null, why, limitsWhy: sandbox.limitsUnavailable() };
}

/** What is known of each place the guard protects, kept while the place is the same file (the folders above a home do not move under a run). */
const known = new Map<string, KnownPlace>();

/** A place the guard protects: its canonical path and identity, and the identities of the folders holding it. */
function knownPlace(path: string): KnownPlace {
  const cached = known.get(path);
  if (cached !== undefined && cached.id !== null && identityAt(path) === cached.id) return cached;
  const handle = path === '/' ? null : openPath(path);
  let place: KnownPlace;
  if (handle !== null) {
    place = {
      path: handle.path,
      id: handle.id,
      above: ancestry(handle)
        .slice(1)
        .map((step) => step.id),
    };
    closeHandle(handle);
  } else {
    // A place this user may not open (another user's home): known by looking, which needs no more than a path.
    const real = canonical(path);
    const above: string[] = [];
    for (let folder = dirname(real); ; folder = dirname(folder)) {
      const id = identityAt(folder);
      if (id !== null) above.push(id);
      if (folder === dirname(folder)) break;
    }
    place = { path: real, id: path === '/' ? null : identityAt(real), above };
  }
  known.set(path, place);
  return place;
}

/** The canonical path, or the path itself when it cannot be resolved. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The places the workspace guard protects. */
function guardPlaces(deps: PrepareDeps): GuardPlaces {
  return {
    platform: process.platform,
    userHome: knownPlace(deps.env.HOME || homedir()),
    otherHomes: passwdHomes(process.platform).map(knownPlace),
    skilltrayHome: knownPlace(deps.home),
    skillRoots: deps.registry.roots.map((root) => knownPlace(root.path)),
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

/** Opens the caller's folder (or the default empty one): E510 unless it is an absolute path to a folder. */
function openCwd(cwd: string | undefined, defaultCwd: string): OpenWorkspace {
  const dir = cwd ?? defaultCwd;
  if (!isAbsolute(dir)) throw templateErrors.invalidCwd(dir);
  return openWorkspace(dir);
}

/** A call rendered in its opened folder and its program found: what the workspace guard judges. */
interface Rendered {
  skill: Skill;
  tool: Tool;
  command: RenderedCommand;
  program: string | null;
  profile: SandboxProfile;
  places: GuardPlaces;
}

/** A rendered call in a folder the guard lets through: what its box is resolved from. */
interface Boxable extends Rendered {
  skillDir: string;
  /** Why the program may not run at all (it lies in a secret place), or null. */
  programRefused: SkilltrayError | null;
}

/** A dry run's preparation: in a folder no run may have, no box (the decision is `refuse`, with E511). */
export interface DryPrepared extends Omit<Prepared, 'box'> {
  box: BoxSpec | null;
}

/**
 * Looks up, renders, resolves the box and decides; throws what stops a call before any policy question.
 * A dry run gets a folder the workspace guard refuses as its decision instead, so it still shows what would run.
 */
export function prepareRun(deps: PrepareDeps, input: RunInput): Prepared;
export function prepareRun(deps: PrepareDeps, input: RunInput, options: { dryRun: true }): DryPrepared;
export function prepareRun(deps: PrepareDeps, input: RunInput, options: { dryRun?: boolean } = {}): DryPrepared {
  const skill = deps.registry.get(input.skill);
  if (!skill) throw skillNotFound(input.skill, deps.registry.list());
  const workspace = openCwd(input.cwd, deps.defaultCwd);
  let call: Boxable | { rendered: Rendered; refused: SkilltrayError };
  try {
    const rendered = renderIn(deps, input, skill, workspace);
    const verdict = guardWorkspace({ path: workspace.handle.path, chain: workspace.chain }, rendered.profile.name, rendered.places);
    if (verdict.kind === 'refused' && options.dryRun !== true) throw verdict.error;
    call = verdict.kind === 'refused' ? { rendered, refused: verdict.error } : boxable(deps, rendered);
  } catch (error) {
    closeHandle(workspace.handle);
    throw error;
  }
  if ('refused' in call) {
    closeHandle(workspace.handle);
    // No box is opened around a folder no run may have; the view is the profile's own.
    const { command, program, profile } = call.rendered;
    const decision: RunDecision = { outcome: 'refuse', error: call.refused };
    return { skill, command, programPath: program, decision, sandbox: sandboxView(deps.sandbox, profile), folder: workspace.handle.path, box: null };
  }
  // The box takes the folder's handle over (and closes it when it throws).
  const box = openBox(workspace, {
    reads: call.profile.reads ?? [],
    programPath: call.programRefused === null ? call.program : null,
    skillDir: call.skillDir,
    userHome: call.places.userHome.path,
    skilltrayHome: call.places.skilltrayHome.path,
    runtimeDir: deps.env.XDG_RUNTIME_DIR,
    platform: process.platform,
    otherHomes: call.places.otherHomes.map((home) => home.path),
  });
  try {
    return decideOn(deps, input, call, box);
  } catch (error) {
    box.dispose();
    throw error;
  }
}

/** Renders the call in the opened folder, finds its program, and reads the profile and the places the guard protects. */
function renderIn(deps: PrepareDeps, input: RunInput, skill: Skill, workspace: OpenWorkspace): Rendered {
  const folder = workspace.handle.path;
  const command = renderCommand(skill, input.tool, input.args ?? {}, { cwd: folder });
  const tool = skill.tools.find((t) => t.name === input.tool);
  const names = skill.tools.map((t) => t.name);
  if (!tool) throw templateErrors.toolNotFound(skill.name, input.tool, names, nearestNames(input.tool, names));
  const program = programPath(skill, command.program, folder, deps.env);
  const profile = runProfile(deps.db, skill, tool);
  return { skill, tool, command, program, profile, places: guardPlaces(deps) };
}

/** The call with the skill's real folder and whether its program lies where no run may read. */
function boxable(deps: PrepareDeps, rendered: Rendered): Boxable {
  const { skill, tool, program, places } = rendered;
  const skillDir = realpathSync(skill.dir);
  // A program in a place no run may read is refused by policy (E707) before its box would bind it.
  const programRefused =
    program === null
      ? null
      : secretProgram(skill.name, tool.name, program, skillDir, {
          platform: process.platform,
          userHome: places.userHome.path,
          skilltrayHome: places.skilltrayHome.path,
          runtimeDir: deps.env.XDG_RUNTIME_DIR,
        });
  return { ...rendered, skillDir, programRefused };
}

/** The decision with the program an allowed one runs. */
function withProgram(decision: Decision, { skill, tool, command, program }: Boxable): RunDecision {
  if (decision.outcome === 'deny' || decision.outcome === 'refuse') return decision;
  if (program !== null) return { ...decision, programPath: program };
  // decide refuses a program not found before anything allows a call; said again where the type can see it.
  return { outcome: 'refuse', error: runnerErrors.programNotFound(skill.name, tool.name, command.program) };
}

/** Shows the box in the sandbox view and asks policy (and the voice turn) for a decision on it. */
function decideOn(deps: PrepareDeps, input: RunInput, rendered: Boxable, box: BoxSpec): Prepared {
  const { skill, tool, command, program, programRefused, profile } = rendered;
  const { db } = deps;
  const folder = box.workspace.path;
  const settings = getSettings(db);
  const at = readsAt(box);
  const shown: SandboxProfile = at.length > 0 ? { ...profile, readsAt: at } : profile;
  const sandbox = sandboxView(deps.sandbox, shown, {
    programs: box.programs.map((handle) => handle.path),
    ...(box.gitOutside.length > 0 ? { gitOutside: box.gitOutside } : {}),
  });
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
    programRefused,
    resolveBin: (bin) => resolveProgram(bin, deps.env, folder),
    env: deps.env,
    sensitive: sensitiveArgument(plainObject(input.args), folder, deps.home),
    enabled: isEnabled(listSwitches(db), skill.name, settings.mode),
    sandbox,
  });
  const decision = withProgram(voiceTurn(decided, requestChannel(input.surface, input.channel), sandbox), rendered);
  return { skill, command, programPath: program, decision, sandbox, folder, box };
}
