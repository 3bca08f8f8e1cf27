/**
 * The last phase of a run: an allowed run, its skill's snapshot taken, is placed in its box (from
 * the box spec resolved before the decision), started, waited for, and recorded: its process group,
 * the network refusals, the hidden paths the sweep removed, its result. Whatever stops it is
 * recorded as the run's failure and thrown with the run's id. What it takes (its cgroup, proxy and box
 * places, and its place among the live runs) goes into the run's RunResources, let go of when the run is over.
 */
import { realpathSync } from 'node:fs';
import type { RenderedCommand, ResourceLimitName, ResourceLimits, RunResult, Skill, Tool } from '../../shared/model.js';
import type { RunDecisionView, RunEvent, RunReport, SandboxView } from '../../shared/runs.js';
import { SkilltrayError, toSkilltrayError } from '../../shared/skilltray-error.js';
import { runnerErrors } from '../../shared/error-messages/runner.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
import { profileOf } from '../policy/pins.js';
import { passwdHomes } from '../policy/workspace-guard.js';
import { processStartTime } from '../process-identity.js';
import { startRunProxy } from '../process/network/run-proxy.js';
import { DEFAULT_OUTPUT_CAP, runProcess } from '../process/run-process.js';
import { boxPlaces, type Box } from '../process/sandbox/box-places.js';
import type { BoxSpec } from '../process/sandbox/box-spec.js';
import { cgroupUnavailable, openRunCgroup, type RunCgroup } from '../process/sandbox/cgroup.js';
import { stillAt } from '../process/sandbox/handles.js';
import type { RunPlaces, SpawnCommand } from '../process/sandbox/sandbox.js';
import { sweepWorkspace } from '../process/sandbox/workspace-sweep.js';
import type { RunDirs } from '../process/skill-snapshot.js';
import type { RunResources } from '../process/run-resources.js';
import { buildToolEnv } from '../process/tool-env.js';
import { recordFailure, recordNetworkDenied, recordProcess, recordResult, recordStart, recordSwept } from '../store/run-records.js';
import { shapeOutput } from '../skills/pack-output.js';
import { isOwnerStopping } from './interrupted-runs.js';
import type { PrepareDeps } from './prepare-run.js';

/** An allowed run, its skill's snapshot taken: all execution needs. */
export interface Executable {
  id: string;
  traceId: string;
  skill: Skill;
  /** The tool of `skill` that runs, looked up once (its pack's output shapes the result). */
  tool: Tool | undefined;
  command: RenderedCommand;
  programPath: string;
  decision: RunDecisionView;
  sandbox: SandboxView;
  dirs: RunDirs;
  box: BoxSpec;
}

/** What execution tells the run service: its events, and while the run lives, how to stop it. */
export interface ExecutionHooks {
  emit: (event: RunEvent) => void;
  started: (id: string, controller: AbortController) => void;
  ended: (id: string) => void;
}

/** SIGXCPU and SIGXFSZ are what the kernel sends at the CPU-time and file-size limits; bwrap reports a signalled tool as 128 + its number. */
function signalledLimit(result: RunResult, viaBwrap: boolean): ResourceLimitName | null {
  const signal = result.signal ?? (viaBwrap && result.exitCode === 128 + 24 ? 'SIGXCPU' : viaBwrap && result.exitCode === 128 + 25 ? 'SIGXFSZ' : null);
  return signal === 'SIGXCPU' ? 'cpuSeconds' : signal === 'SIGXFSZ' ? 'fileSizeMiB' : null;
}

/** The error with the run's id in its details, so the caller can look the run up. */
export function withRunId(error: unknown, id: string): SkilltrayError {
  const coded = toSkilltrayError(error);
  return new SkilltrayError(coded.code, coded.message, { details: { ...coded.details, runId: id }, cause: coded.cause ?? coded });
}

/** The run's places, from the box resolved before the decision: nothing about its folder is looked up by name again. */
function placeBox(deps: PrepareDeps, run: Executable, inCgroup: boolean): Box {
  const { sandbox, dirs } = run;
  return boxPlaces({
    spec: run.box,
    profile: sandbox.contained ? profileOf(sandbox) : { name: 'none', network: true, hosts: 'host' },
    skillDir: realpathSync(run.skill.dir),
    snapshotDir: dirs.snapshot,
    tempDir: dirs.temp,
    homeDir: dirs.home,
    env: deps.env,
    skilltrayHome: deps.home,
    otherHomes: passwdHomes(process.platform),
    platform: process.platform,
    asRoot: process.getuid?.() === 0,
    inCgroup,
  });
}

/** Starts the wrapped command; where the folder is reached by its path (no descriptor bound), it must still be the folder decided on (E514). */
function spawnRun(
  deps: PrepareDeps,
  hooks: ExecutionHooks,
  spawn: SpawnCommand,
  run: Executable,
  signal: AbortSignal,
  reported: (text: string) => void,
): Promise<RunResult> {
  if (spawn.cwd === undefined && !stillAt(run.box.workspace)) throw templateErrors.workspaceMoved(run.box.workspace.path);
  const { id } = run;
  return runProcess({
    program: spawn.program,
    args: spawn.args,
    cwd: spawn.cwd ?? run.box.workspace.path,
    env: spawn.env,
    timeoutMs: run.command.timeoutMs,
    maxOutputBytes: DEFAULT_OUTPUT_CAP,
    signal,
    ...(spawn.treeEndsWithIt === true ? { treeEndsWithIt: true } : {}),
    ...(spawn.inputs === undefined ? {} : { inputs: spawn.inputs }),
    ...(spawn.fds === undefined ? {} : { fds: spawn.fds }),
    ...(spawn.reports === true ? { reported } : {}),
    onOutput: (stream, text) => hooks.emit({ type: 'output', id, stream, text }),
    // Recorded at once, so if this process dies the next owner can find and stop the tool.
    onSpawn: (pid) => {
      try {
        recordProcess(deps.db, id, { pid, started: processStartTime(pid) ?? '' });
      } catch (error) {
        process.emitWarning(`run ${id}: its process group could not be recorded: ${toSkilltrayError(error).message}`);
      }
    },
  });
}

/** The run's cgroup, where one holds its processes and memory (Skilltray can make one as root, whom RLIMIT_NPROC does not bind); null otherwise. */
function runCgroup(deps: PrepareDeps, run: Executable): RunCgroup | null {
  const { sandbox } = run;
  const contained = sandbox.contained && (sandbox.limitsWhy ?? null) === null && sandbox.limits !== undefined;
  if (!contained || cgroupUnavailable(deps.enterCgroup) !== null) return null;
  try {
    return openRunCgroup(run.id, sandbox.limits as ResourceLimits, deps.enterCgroup);
  } catch (error) {
    throw runnerErrors.limitsUnavailable((error as Error).message, { cause: error });
  }
}

/**
 * Runs an allowed run in its box to the end, recording every step; the report, or its failure thrown with the run's id.
 * What it takes goes into `held`, which its caller lets go of once the run is over, however it ended.
 */
export async function executeRun(deps: PrepareDeps, run: Executable, hooks: ExecutionHooks, held: RunResources, signal?: AbortSignal): Promise<RunReport> {
  const { id, traceId, skill, tool, command, programPath, decision, sandbox, dirs } = run;
  const { db, env } = deps;
  const controller = new AbortController();
  // The reason travels on: an owner that is stopping makes this an interruption, not a cancellation.
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  hooks.started(id, controller);
  // Taken first, so let go of last: the run stays live until all it took after is let go of.
  held.add({
    dispose: () => {
      hooks.ended(id);
      signal?.removeEventListener('abort', onAbort);
    },
  });
  recordStart(db, id);
  hooks.emit({ type: 'started', id, traceId, skill: skill.name, tool: command.tool, command, programPath, sandbox });
  try {
    const cgroup = runCgroup(deps, run);
    if (cgroup !== null) held.add(cgroup);
    const proxy = await startRunProxy(sandbox, dirs.root);
    if (proxy !== null) held.add(proxy);
    const box: Box = held.add(placeBox(deps, run, cgroup !== null));
    const places: RunPlaces = proxy === null ? box.places : { ...box.places, proxy: proxy.address };
    const wrapped = deps.sandbox.wrap({ program: programPath, args: command.args, env: buildToolEnv(env, command.env) }, places);
    // Inside a cgroup, the sandbox is born there: nothing of the run starts outside it.
    const spawn = cgroup === null ? wrapped : cgroup.launch(wrapped);
    let report = '';
    const ran = await spawnRun(deps, hooks, spawn, run, controller.signal, (text) => (report = text));
    // The tool is gone: its proxy closes before its refusals are read, so the record holds every one (closing it again later does nothing).
    await proxy?.dispose();
    const networkDenied = proxy?.denied() ?? [];
    recordNetworkDenied(db, id, networkDenied);
    // Swept whatever the result says: a result is the tool's to shape, and it must not spare what the tool left.
    const swept = box.baseline === null ? [] : sweepWorkspace(run.box.workspace, box.baseline, sandbox.writes ?? []);
    recordSwept(db, id, swept);
    const refused = cgroup?.refused(ran) ?? null;
    if (refused !== null) throw runnerErrors.limitsUnavailable(refused, { details: { program: spawn.program } });
    const limitHit = cgroup?.hit() ?? signalledLimit(ran, spawn.treeEndsWithIt === true) ?? spawn.limitHit?.(report) ?? null;
    // A tool pack's output.max_chars and output.speak shape what the run returns (and history keeps).
    const result: RunResult = shapeOutput(tool, { ...ran, limitHit });
    const stopping = controller.signal.reason as unknown;
    recordResult(db, id, result, isOwnerStopping(stopping) ? { interrupted: (stopping as Error).message } : {});
    hooks.emit({ type: 'finished', id, traceId, skill: skill.name, tool: command.tool, result });
    return { id, traceId, skill: skill.name, tool: command.tool, command, programPath, decision, sandbox, result, networkDenied, swept };
  } catch (error) {
    const coded = toSkilltrayError(error);
    recordFailure(db, id, coded);
    throw withRunId(coded, id);
  }
}
