/**
 * One tool call, from request to record, as a list of phases: prepare → record the request → decide
 * (asking a person, then checking again what may have changed while they answered) → snapshot →
 * remember an Always → contained run, every step written to state.db, everything the run holds let
 * go of in reverse order at the end (RunResources). Whatever stops a run comes back as a SkilltrayError with a code,
 * a sentence an assistant can relay, and the run's id — never as silence. Nothing runs unless
 * policy or a person allowed it, and what runs is byte-for-byte the skill that was decided on.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { toSkilltrayError, type SkilltrayError } from '../../shared/skilltray-error.js';
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
  RunChannel,
  RunDecisionView,
  RunEvent,
  RunOutcome,
  RunReport,
  Verdict,
} from '../../shared/runs.js';
import type { Skill, Tool } from '../../shared/model.js';
import { remember } from '../store/approvals.js';
import { recordChannel } from '../store/voice.js';
import { requestChannel } from '../../shared/voice.js';
import { getSettings } from '../store/settings.js';
import type { StateDb } from '../store/state-db.js';
import { recordDecision, recordRequest } from '../store/run-records.js';
import { ownerStopping } from './interrupted-runs.js';
import { thisProcess } from '../process-identity.js';
import { prepareRunDirs, type RunDirs } from '../process/skill-snapshot.js';
import { RunResources } from '../process/run-resources.js';
import { askPerson, type Approver } from './ask-person.js';
import { identityPin, profileOf, rememberScopes } from '../policy/pins.js';
import { effectivePolicy } from '../../shared/tool-policy.js';
import { plainObject, prepareRun, type Allowed, type PrepareDeps, type Prepared, type RunInput } from './prepare-run.js';
import { executeRun, withRunId, type ExecutionHooks } from './run-execution.js';

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

/** Refusals of the box before anything ran (its folder, a bind): runs someone asked for, so history keeps them. */
const BOX_REFUSALS = new Set(['E511', 'E512']);

/** A request as recorded: what every later phase of its run reads. */
interface Requested {
  /** state.db as the run found it: its decision is recorded there even while the core closes. */
  db: StateDb;
  id: string;
  traceId: string;
  input: RunInput;
  prepared: Prepared;
  /** The tool of the skill that runs, looked up once (its policy, its Always scopes, its pack's output). */
  tool: Tool | undefined;
  channel: RunChannel;
  /** What the person said, once asked: recorded with the decision. */
  answer: RecordedAnswer | null;
}

/** How a run came to be allowed: the program it runs, the decision as recorded, and the person's answer when one was asked. */
interface Allowance {
  programPath: string;
  view: RunDecisionView;
  verdict: Verdict | null;
}

/** What stops a run a person approved because it changed while they answered: a pause, the skill turned off, a mode it is not offered in. */
function changedWhileWaiting(db: StateDb, skill: Skill, tool: string): SkilltrayError | null {
  const settings = getSettings(db);
  const enabled = isEnabled(listSwitches(db), skill.name, settings.mode);
  if (settings.paused) return policyErrors.pausedWhileWaiting(skill.name, tool);
  if (!enabled) return policyErrors.disabledWhileWaiting(skill.name, tool, settings.mode);
  if (!isOffered(skill, settings.mode)) return policyErrors.modeChangedWhileWaiting(skill.name, tool, settings.mode);
  return null;
}

/** Owns tool runs for one process: decisions, approvals, live processes and their records. */
export class RunService extends EventEmitter<{ run: [RunEvent]; remembered: [] }> {
  private readonly active = new Map<string, AbortController>();

  /** What a run's execution tells this service: its events, and while it lives, how to stop it. */
  private readonly execution: ExecutionHooks = {
    emit: (event) => emitSafely(this, 'run', event),
    started: (id, controller) => this.active.set(id, controller),
    ended: (id) => this.active.delete(id),
  };

  constructor(private readonly deps: RunServiceDeps) {
    super();
  }

  /** The rendered request, the policy decision and the sandbox, without recording or running anything. */
  dryRun(input: RunInput): DryRun {
    const { command, programPath, decision, sandbox, box } = prepareRun(this.deps, input, { dryRun: true });
    box?.dispose();
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

  /** Runs a tool call to completion, asking a person first when policy says so; whatever the run took is let go of however it ends. */
  async run(input: RunInput, options: RunOptions): Promise<RunReport> {
    const id = randomUUID();
    const prepared = this.prepare(id, input);
    const held = new RunResources();
    held.add(prepared.box);
    try {
      const request = this.record(id, input, prepared);
      const allowance = await this.allow(request, options);
      const dirs = this.snapshot(request, allowance, held);
      const view = this.rememberAlways(request, allowance);
      this.decided(request, view);
      const { skill, command, sandbox, box } = prepared;
      const run = { id, traceId: request.traceId, skill, tool: request.tool, command, programPath: allowance.programPath, decision: view, sandbox, dirs, box };
      return await executeRun(this.deps, run, this.execution, held, options.signal);
    } finally {
      await held.dispose();
    }
  }

  /**
   * Prepares the call. One that cannot even be prepared (no such skill or tool, bad arguments, a bad cwd) asked
   * nothing and decided nothing: it is the caller's error, not a run, so history does not keep it. A box that
   * refuses its folder or a bind is a run refused, and history says why.
   */
  private prepare(id: string, input: RunInput): Prepared {
    try {
      return prepareRun(this.deps, input);
    } catch (error) {
      if (BOX_REFUSALS.has(toSkilltrayError(error).code)) return this.refuse(input, error, id);
      throw error;
    }
  }

  /** Records the request as prepared, and the channel it came on. */
  private record(id: string, input: RunInput, prepared: Prepared): Requested {
    const traceId = input.traceId ?? randomUUID();
    const { db } = this.deps;
    const { skill, command, programPath, sandbox } = prepared;
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
    return { db, id, traceId, input, prepared, tool: skill.tools.find((t) => t.name === command.tool), channel, answer: null };
  }

  /** Records the decision and tells whoever listens. */
  private decided(request: Requested, view: RunDecisionView, errorCode: string | null = null): void {
    const { db, id, traceId, prepared, answer } = request;
    recordDecision(db, id, {
      outcome: view.outcome,
      decidedBy: view.by,
      ruleId: view.ruleId,
      actor: view.actor,
      reason: view.reason,
      errorCode,
      answer,
    });
    emitSafely(this, 'run', { type: 'decided', id, traceId, skill: prepared.skill.name, tool: prepared.command.tool, decision: view });
  }

  /** Records the run as stopped by `error`, and throws it with the run's id. */
  private stop(request: Requested, error: SkilltrayError, outcome: RunOutcome, by: DecidedBy, extra: Partial<RunDecisionView> = {}): never {
    this.decided(request, { outcome, by, reason: error.message, ruleId: null, actor: null, ...extra }, error.code);
    throw withRunId(error, request.id);
  }

  /** Policy's decision, or the person's answer where policy asks: how the run is allowed, or it stops here. */
  private async allow(request: Requested, options: RunOptions): Promise<Allowance> {
    const { decision } = request.prepared;
    if (decision.outcome === 'refuse') return this.stop(request, decision.error, 'refused', 'policy');
    if (decision.outcome === 'deny') return this.stop(request, decision.error, 'denied', 'rule', { ruleId: decision.ruleId });
    if (decision.outcome === 'auto') {
      const view: RunDecisionView = { outcome: 'auto', by: decision.by, reason: decision.reason, ruleId: decision.ruleId ?? null, actor: null };
      return { programPath: decision.programPath, view, verdict: null };
    }
    const verdict = await this.ask(request, decision, options);
    const { skill, command } = request.prepared;
    const changed = changedWhileWaiting(request.db, skill, command.tool);
    if (changed !== null) return this.stop(request, changed, 'refused', 'policy');
    const view: RunDecisionView = { outcome: 'approved', by: 'user', reason: decision.reason, ruleId: null, actor: verdict.actor };
    return { programPath: decision.programPath, view, verdict };
  }

  /** Asks the person (through the broker) and waits for an answer that lets the run go on. */
  private async ask(request: Requested, decision: Allowed, options: RunOptions): Promise<Verdict> {
    const { id, traceId, input, tool, channel } = request;
    const { skill, command, sandbox } = request.prepared;
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
      programPath: decision.programPath,
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
    const verdict = await askPerson(this.deps.broker, pending, options.approval, options.signal).catch((error: unknown) => {
      const coded = toSkilltrayError(error);
      return this.stop(request, coded, 'refused', coded.code === 'E604' ? 'timeout' : coded.code === 'E613' ? 'caller' : 'policy');
    });
    request.answer = recordedAnswer(verdict);
    if (verdict.verdict === 'deny')
      return this.stop(request, policyErrors.deniedByUser(skill.name, command.tool, verdict.actor), 'denied', 'user', { actor: verdict.actor });
    return verdict;
  }

  /**
   * Whoever allowed it (a rule, a remembered approval, bundled policy or a person) allowed the skill as loaded:
   * the run uses a private copy of its files (held until the run is over), and only when the copy is those same bytes.
   */
  private snapshot(request: Requested, allowance: Allowance, held: RunResources): RunDirs {
    const { skill, command } = request.prepared;
    let dirs: RunDirs;
    try {
      dirs = held.add(prepareRunDirs(skill.dir));
    } catch (error) {
      return this.stop(request, toSkilltrayError(error), 'refused', 'error');
    }
    if (dirs.hash !== skill.hash) {
      const waited = allowance.verdict === null ? '' : ' or while its run waited for approval';
      return this.stop(request, policyErrors.skillChanged(skill.name, command.tool, waited), 'refused', 'policy');
    }
    return dirs;
  }

  /** Remembers an Always answer, unless the tool is one an Always cannot hold for (said in the decision's reason); the decision as recorded. */
  private rememberAlways(request: Requested, { programPath, view, verdict }: Allowance): RunDecisionView {
    if (verdict?.verdict !== 'always') return view;
    const { skill, command, sandbox, folder } = request.prepared;
    const blind = alwaysBlindTo(skill, request.tool);
    // Said where the person reads the run: it ran once, and will ask again.
    if (blind !== null) return { ...view, reason: `${view.reason}; Always was not remembered: ${blind}` };
    remember(request.db, {
      skill: skill.name,
      tool: command.tool,
      skillHash: skill.hash,
      identity: identityPin(skill.identity),
      programPath,
      profile: profileOf(sandbox),
      folder: verdict.scope === 'anywhere' ? null : folder,
      session: verdict.expires === 'session' ? this.deps.session : null,
    });
    emitSafely(this, 'remembered');
    return view;
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
