/**
 * One tool call, from request to record: render → policy → (approval) → snapshot → contained run,
 * every step written to state.db. Whatever stops a run comes back as a SkilltrayError with a code,
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
import type { DecidedBy, DryRun, PendingApproval, RecordedAnswer, RunDecisionView, RunEvent, RunOutcome, RunReport, Verdict } from '../../shared/runs.js';
import { remember } from '../store/approvals.js';
import { recordChannel } from '../store/voice.js';
import { requestChannel } from '../../shared/voice.js';
import { getSettings } from '../store/settings.js';
import { recordDecision, recordRequest } from '../store/run-records.js';
import { ownerStopping } from './interrupted-runs.js';
import { thisProcess } from '../process-identity.js';
import { prepareRunDirs, type RunDirs } from '../process/skill-snapshot.js';
import { askPerson, type Approver } from './ask-person.js';
import { identityPin, profileOf, rememberScopes } from '../policy/pins.js';
import { effectivePolicy } from '../../shared/tool-policy.js';
import { plainObject, prepareRun, type PrepareDeps, type Prepared, type RunInput } from './prepare-run.js';
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
    box?.close();
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
    const id = randomUUID();
    let prepared: Prepared;
    try {
      prepared = prepareRun(this.deps, input);
    } catch (error) {
      // A call that cannot even be prepared (no such skill or tool, bad arguments, a bad cwd) asked
      // nothing and decided nothing: it is the caller's error, not a run, so history does not keep it.
      // A box that refuses its folder or a bind is a run refused, and history says why.
      if (BOX_REFUSALS.has(toSkilltrayError(error).code)) return this.refuse(input, error, id);
      throw error;
    }
    try {
      return await this.decideAndRun(id, input, prepared, options);
    } finally {
      prepared.box.close();
    }
  }

  /** Records the request, gets the decision (asking when policy says so), snapshots the skill and runs it. */
  private async decideAndRun(id: string, input: RunInput, prepared: Prepared, options: RunOptions): Promise<RunReport> {
    const traceId = input.traceId ?? randomUUID();
    const { db } = this.deps;
    const { skill, command, programPath, decision, sandbox, folder } = prepared;
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
      const run = { id, traceId, skill, tool, command, programPath: programPath as string, decision: view, sandbox, dirs, box: prepared.box };
      return await executeRun(this.deps, run, this.execution, options.signal);
    } finally {
      dirs.dispose();
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
