/**
 * One tool call, from request to record: render → policy → (approval) → snapshot → contained run,
 * every step written to state.db. Whatever stops a run comes back as a SkilltrayError with a code,
 * a sentence an assistant can relay, and the run's id — never as silence. Nothing runs unless
 * policy or a person allowed it, and what runs is byte-for-byte the skill that was decided on.
 */
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import type { RenderedCommand, ResourceLimitName, ResourceLimits, RunResult, Skill, Tool } from '../../shared/model.js';
import { SkilltrayError, toSkilltrayError } from '../../shared/skilltray-error.js';
import { policyErrors } from '../../shared/error-messages/policy.js';
import { runnerErrors } from '../../shared/error-messages/runner.js';
import { alwaysBlindTo } from '../policy/always.js';
import { isOffered } from '../policy/modes.js';
import { isEnabled, listSwitches } from '../store/switches.js';
import { emitSafely } from '../events.js';
import type { ApprovalBroker } from '../policy/approval-broker.js';
import type {
  DecidedBy,
  DryRun,
  PendingApproval,
  RecordedAnswer,
  RunDecisionView,
  RunEvent,
  RunOutcome,
  RunReport,
  SandboxView,
  Verdict,
} from '../../shared/runs.js';
import { remember } from '../store/approvals.js';
import { recordChannel } from '../store/voice.js';
import { requestChannel } from '../../shared/voice.js';
import { getSettings } from '../store/settings.js';
import { recordDecision, recordFailure, recordNetworkDenied, recordProcess, recordRequest, recordResult, recordStart } from '../store/run-records.js';
import { isOwnerStopping, ownerStopping } from './interrupted-runs.js';
import { processStartTime, thisProcess } from '../process-identity.js';
import { DEFAULT_OUTPUT_CAP, runProcess } from '../process/run-process.js';
import { buildToolEnv } from '../process/tool-env.js';
import { prepareRunDirs, type RunDirs } from '../process/skill-snapshot.js';
import { boxPlaces } from '../process/sandbox/box-places.js';
import { cgroupUnavailable, openRunCgroup, type RunCgroup } from '../process/sandbox/cgroup.js';
import type { RunPlaces } from '../process/sandbox/sandbox.js';
import type { NetworkProxy } from '../process/network/proxy-server.js';
import { startRunProxy } from '../process/network/run-proxy.js';
import { askPerson, type Approver } from './ask-person.js';
import { identityPin, profileOf, rememberScopes } from '../policy/pins.js';
import { effectivePolicy } from '../../shared/tool-policy.js';
import { shapeOutput } from '../skills/pack-output.js';
import { plainObject, prepareRun, type PrepareDeps, type Prepared, type RunInput } from './prepare-run.js';

export { DEFAULT_APPROVAL_TIMEOUT_MS, type Approver } from './ask-person.js';
export type { RunInput } from './prepare-run.js';

/** What the run service needs: what preparing a run reads, and the broker that holds pending approvals. */
export interface RunServiceDeps extends PrepareDeps {
  broker: ApprovalBroker;
}

export interface RunOptions {
  approval: Approver;
  signal?: AbortSignal;
}

/** What the person said, as recorded with the run. */
function recordedAnswer(verdict: Verdict): RecordedAnswer {
  if (verdict.verdict !== 'always') return verdict.verdict;
  return verdict.expires === 'session' ? 'always-session' : 'always';
}

/** SIGXCPU and SIGXFSZ are what the kernel sends at the CPU-time and file-size limits; bwrap reports a signalled tool as 128 + its number. */
function signalledLimit(result: RunResult, viaBwrap: boolean): ResourceLimitName | null {
  const signal = result.signal ?? (viaBwrap && result.exitCode === 128 + 24 ? 'SIGXCPU' : viaBwrap && result.exitCode === 128 + 25 ? 'SIGXFSZ' : null);
  return signal === 'SIGXCPU' ? 'cpuSeconds' : signal === 'SIGXFSZ' ? 'fileSizeMiB' : null;
}

function withRunId(error: unknown, id: string): SkilltrayError {
  const coded = toSkilltrayError(error);
  return new SkilltrayError(coded.code, coded.message, { details: { ...coded.details, runId: id }, cause: coded.cause ?? coded });
}

/** An allowed run, its skill's snapshot taken: all execute needs. */
interface Executable {
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
}

/** Owns tool runs for one process: decisions, approvals, live processes and their records. */
export class RunService extends EventEmitter<{ run: [RunEvent]; remembered: [] }> {
  private readonly active = new Map<string, AbortController>();

  constructor(private readonly deps: RunServiceDeps) {
    super();
  }

  /** The rendered request, the policy decision and the sandbox, without recording or running anything. */
  dryRun(input: RunInput): DryRun {
    const { command, programPath, decision, sandbox } = prepareRun(this.deps, input);
    return {
      command,
      programPath,
      decision: decision.outcome,
      reason: 'reason' in decision ? decision.reason : decision.error.message,
      error: 'error' in decision ? decision.error.toJSON() : null,
      sandbox,
    };
  }

  /** Records a request refused before it could be prepared (bad input), and throws its error with the run's id. */
  refuse(input: RunInput, error: unknown, id: string = randomUUID()): never {
    const coded = toSkilltrayError(error);
    const skill = this.deps.registry.get(input.skill);
    recordRequest(
      this.deps.db,
      {
        id,
        traceId: input.traceId ?? randomUUID(),
        surface: input.surface,
        assistant: input.assistant ?? null,
        skill: input.skill,
        tool: input.tool,
        args: plainObject(input.args),
        command: null,
        programPath: null,
        skillHash: skill?.hash ?? '',
      },
      thisProcess(),
    );
    recordChannel(this.deps.db, id, requestChannel(input.surface, input.channel));
    recordDecision(this.deps.db, id, { outcome: 'refused', decidedBy: 'error', reason: coded.message, errorCode: coded.code });
    throw withRunId(coded, id);
  }

  /** Runs a tool call to completion, asking a person first when policy says so. */
  async run(input: RunInput, options: RunOptions): Promise<RunReport> {
    const traceId = input.traceId ?? randomUUID();
    const id = randomUUID();
    const { db } = this.deps;
    // A call that cannot even be prepared (no such skill or tool, bad arguments, a bad cwd) asked
    // nothing and decided nothing: it is the caller's error, not a run, so history does not keep it.
    const { skill, command, programPath, decision, sandbox, folder }: Prepared = prepareRun(this.deps, input);
    const tool = skill.tools.find((t) => t.name === command.tool);
    recordRequest(
      db,
      {
        id,
        traceId,
        surface: input.surface,
        assistant: input.assistant ?? null,
        skill: skill.name,
        tool: command.tool,
        args: plainObject(input.args),
        command,
        programPath,
        skillHash: skill.hash,
        sandbox,
      },
      thisProcess(),
    );
    const channel = requestChannel(input.surface, input.channel);
    recordChannel(db, id, channel);

    let answer: RecordedAnswer | null = null;
    const decided = (view: RunDecisionView, errorCode: string | null = null): void => {
      recordDecision(db, id, { outcome: view.outcome, decidedBy: view.by, ruleId: view.ruleId, actor: view.actor, reason: view.reason, errorCode, answer });
      emitSafely(this, 'run', { type: 'decided', id, traceId, skill: skill.name, tool: command.tool, decision: view });
    };
    const refuse = (error: SkilltrayError, outcome: RunOutcome, by: DecidedBy, extra: Partial<RunDecisionView> = {}): never => {
      decided({ outcome, by, reason: error.message, ruleId: null, actor: null, ...extra }, error.code);
      throw withRunId(error, id);
    };

    if (decision.outcome === 'refuse') return refuse(decision.error, 'refused', 'policy');
    if (decision.outcome === 'deny') return refuse(decision.error, 'denied', 'rule', { ruleId: decision.ruleId });

    let view: RunDecisionView;
    let verdict: Verdict | null = null;
    if (decision.outcome === 'auto') {
      view = { outcome: 'auto', by: decision.by, reason: decision.reason, ruleId: decision.ruleId ?? null, actor: null };
    } else {
      const pending: PendingApproval = {
        id,
        traceId,
        surface: input.surface,
        assistant: input.assistant ?? null,
        skill: skill.name,
        tool: command.tool,
        trust: skill.trust,
        identity: skill.identity,
        readOnly: effectivePolicy(skill, tool).readOnly,
        programPath: programPath as string,
        args: plainObject(input.args),
        argv: command.args,
        cwd: command.cwd,
        timeoutMs: command.timeoutMs,
        env: command.env,
        requestedAt: Date.now(),
        reason: decision.reason,
        sandbox,
        supplied: command.supplied,
        rememberScopes: rememberScopes(skill, profileOf(sandbox), tool),
        channel,
      };
      verdict = await askPerson(this.deps.broker, pending, options.approval, options.signal).catch((error: unknown) => {
        const coded = toSkilltrayError(error);
        return refuse(coded, 'refused', coded.code === 'E604' ? 'timeout' : coded.code === 'E613' ? 'caller' : 'policy');
      });
      answer = recordedAnswer(verdict);
      if (verdict.verdict === 'deny') {
        const error = policyErrors.deniedByUser(skill.name, command.tool, verdict.actor);
        return refuse(error, 'denied', 'user', { actor: verdict.actor });
      }
      const settings = getSettings(db);
      const enabled = isEnabled(listSwitches(db), skill.name, settings.mode);
      if (settings.paused || !enabled || !isOffered(skill, settings.mode)) {
        const error = settings.paused
          ? policyErrors.pausedWhileWaiting(skill.name, command.tool)
          : !enabled
            ? policyErrors.disabledWhileWaiting(skill.name, command.tool, settings.mode)
            : policyErrors.modeChangedWhileWaiting(skill.name, command.tool, settings.mode);
        return refuse(error, 'refused', 'policy');
      }
      view = { outcome: 'approved', by: 'user', reason: decision.reason, ruleId: null, actor: verdict.actor };
    }

    // Whoever allowed it (a rule, a remembered approval, bundled policy or a person) allowed the skill
    // as loaded: the run uses a private copy of its files, and only when the copy is those same bytes.
    let dirs: RunDirs;
    try {
      dirs = prepareRunDirs(skill.dir);
    } catch (error) {
      return refuse(toSkilltrayError(error), 'refused', 'error');
    }
    if (dirs.hash !== skill.hash) {
      dirs.dispose();
      const waited = verdict === null ? '' : ' or while its run waited for approval';
      const error = policyErrors.skillChanged(skill.name, command.tool, waited);
      return refuse(error, 'refused', 'policy');
    }
    const blind = verdict?.verdict === 'always' ? alwaysBlindTo(skill, tool) : null;
    if (blind !== null) {
      // Said where the person reads the run: it ran once, and will ask again.
      view = { ...view, reason: `${view.reason}; Always was not remembered: ${blind}` };
    } else if (verdict?.verdict === 'always') {
      const session = verdict.expires === 'session' ? this.deps.session : null;
      remember(db, {
        skill: skill.name,
        tool: command.tool,
        skillHash: skill.hash,
        identity: identityPin(skill.identity),
        programPath: programPath as string,
        profile: profileOf(sandbox),
        folder: verdict.scope === 'anywhere' ? null : folder,
        session,
      });
      emitSafely(this, 'remembered');
    }
    decided(view);
    try {
      return await this.execute({ id, traceId, skill, tool, command, programPath: programPath as string, decision: view, sandbox, dirs }, options.signal);
    } finally {
      dirs.dispose();
    }
  }

  private async execute(run: Executable, signal?: AbortSignal): Promise<RunReport> {
    const { id, traceId, skill, tool, command, programPath, decision, sandbox, dirs } = run;
    const { db, env } = this.deps;
    const controller = new AbortController();
    // The reason travels on: an owner that is stopping makes this an interruption, not a cancellation.
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', onAbort, { once: true });
    this.active.set(id, controller);
    recordStart(db, id);
    emitSafely(this, 'run', { type: 'started', id, traceId, skill: skill.name, tool: command.tool, command, programPath, sandbox });
    // A cgroup holds the run's processes and memory where Skilltray can make one (as root, whom RLIMIT_NPROC does not bind).
    const contained = sandbox.contained && (sandbox.limitsWhy ?? null) === null && sandbox.limits !== undefined;
    let cgroup: RunCgroup | null = null;
    let box: { places: RunPlaces; release: () => void } | null = null;
    let proxy: NetworkProxy | null = null;
    try {
      if (contained && cgroupUnavailable() === null) {
        try {
          cgroup = openRunCgroup(id, sandbox.limits as ResourceLimits);
        } catch (error) {
          throw runnerErrors.limitsUnavailable((error as Error).message, { cause: error });
        }
      }
      proxy = await startRunProxy(sandbox, dirs.root);
      box = boxPlaces({
        profile: sandbox.contained ? profileOf(sandbox) : { name: 'none', network: true, hosts: 'host' },
        cwd: realpathSync(command.cwd),
        skillDir: realpathSync(skill.dir),
        snapshotDir: dirs.snapshot,
        tempDir: dirs.temp,
        homeDir: dirs.home,
        env,
        skilltrayHome: this.deps.home,
        programs: sandbox.programs ?? [],
        platform: process.platform,
        asRoot: process.getuid?.() === 0,
        gated: cgroup !== null,
      });
      const places: RunPlaces = proxy === null ? box.places : { ...box.places, proxy: proxy.address };
      const spawn = this.deps.sandbox.wrap({ program: programPath, args: command.args, env: buildToolEnv(env, command.env) }, places);
      const admitted = cgroup;
      let report = '';
      const ran = await runProcess({
        program: spawn.program,
        args: spawn.args,
        cwd: command.cwd,
        env: spawn.env,
        timeoutMs: command.timeoutMs,
        maxOutputBytes: DEFAULT_OUTPUT_CAP,
        signal: controller.signal,
        ...(spawn.treeEndsWithIt === true ? { treeEndsWithIt: true } : {}),
        ...(spawn.gated === true && admitted !== null ? { admit: (childPid: number) => admitted.admit(childPid) } : {}),
        ...(spawn.inputs === undefined ? {} : { inputs: spawn.inputs }),
        ...(spawn.reports === true ? { reported: (text: string) => (report = text) } : {}),
        onOutput: (stream, text) => emitSafely(this, 'run', { type: 'output', id, stream, text }),
        // Recorded at once, so if this process dies the next owner can find and stop the tool.
        onSpawn: (pid) => {
          try {
            recordProcess(db, id, { pid, started: processStartTime(pid) ?? '' });
          } catch (error) {
            process.emitWarning(`run ${id}: its process group could not be recorded: ${toSkilltrayError(error).message}`);
          }
        },
      });
      const limitHit = cgroup?.hit() ?? signalledLimit(ran, spawn.treeEndsWithIt === true) ?? spawn.limitHit?.(report) ?? null;
      // A tool pack's output.max_chars and output.speak shape what the run returns (and history keeps).
      const result: RunResult = shapeOutput(tool, { ...ran, limitHit });
      const stopping = controller.signal.reason as unknown;
      // The tool is gone: its proxy closes before its refusals are read, so the record holds every one.
      await proxy?.close();
      const networkDenied = proxy?.denied() ?? [];
      recordNetworkDenied(db, id, networkDenied);
      recordResult(db, id, result, isOwnerStopping(stopping) ? { interrupted: (stopping as Error).message } : {});
      emitSafely(this, 'run', { type: 'finished', id, traceId, skill: skill.name, tool: command.tool, result });
      return { id, traceId, skill: skill.name, tool: command.tool, command, programPath, decision, sandbox, result, networkDenied };
    } catch (error) {
      const coded = toSkilltrayError(error);
      recordFailure(db, id, coded);
      throw withRunId(coded, id);
    } finally {
      box?.release();
      cgroup?.dispose();
      await proxy?.close();
      this.active.delete(id);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Cancels a running run (its whole process tree dies) or withdraws one still waiting for approval. */
  cancel(id: string): void {
    const controller = this.active.get(id);
    if (controller) {
      controller.abort();
      return;
    }
    if (!this.deps.broker.cancel(id)) {
      throw runnerErrors.runNotActive(id);
    }
  }

  /** Ids of the runs whose processes are alive. */
  running(): string[] {
    return [...this.active.keys()];
  }

  /**
   * On shutdown: withdraws every pending approval and stops every live run (recorded as
   * interrupted, `why`), waiting (up to `waitMs`) for their process trees to die, so no tool
   * outlives the process that owns it.
   */
  async shutdown(why = 'it is shutting down', waitMs = 5000): Promise<void> {
    for (const entry of this.deps.broker.list()) this.deps.broker.cancel(entry.id);
    const finished = [...this.active.keys()].map(
      (id) =>
        new Promise<void>((resolve) => {
          const listener = (event: RunEvent) => {
            if (event.type === 'finished' && event.id === id) {
              this.off('run', listener);
              resolve();
            }
          };
          this.on('run', listener);
        }),
    );
    for (const controller of this.active.values()) controller.abort(ownerStopping(why));
    await Promise.race([Promise.all(finished), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
  }
}
