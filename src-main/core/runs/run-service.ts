/**
 * One tool call, from request to record: render → policy → (approval) → run, every step written to
 * state.db. Whatever stops a run comes back as a SkilltrayError with a code, a sentence an assistant
 * can relay, and the run's id — never as silence. Nothing runs unless policy or a person allowed it.
 */
import { randomUUID } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { EventEmitter } from 'node:events';
import type { RenderedCommand, Skill } from '../../shared/model.js';
import { SkilltrayError, skillcErrors, toSkilltrayError } from '../errors.js';
import { isInside, manifestHash, walkSkill } from '../skills/files.js';
import { isOffered } from '../policy/modes.js';
import { emitSafely } from '../events.js';
import { sensitiveArgument } from '../policy/sensitive-paths.js';
import type { ApprovalBroker } from '../policy/approval-broker.js';
import type { DecidedBy, DryRun, PendingApproval, RunDecisionView, RunEvent, RunOutcome, RunReport, Surface, Verdict } from '../../shared/runs.js';
import { decide, type Decision } from '../policy/decide.js';
import { listRules } from '../store/rules.js';
import { findRemembered, remember } from '../store/approvals.js';
import { getSettings } from '../store/settings.js';
import { recordDecision, recordFailure, recordProcess, recordRequest, recordResult, recordStart } from '../store/runs.js';
import { isOwnerStopping, ownerStopping } from './interrupted-runs.js';
import { processStartTime } from '../runner/process-tree.js';
import type { StateDb } from '../store/state-db.js';
import { DEFAULT_OUTPUT_CAP, runProcess } from '../runner/run-process.js';
import { buildToolEnv } from '../runner/tool-env.js';
import { resolveProgram } from '../runner/resolve-program.js';
import { renderCommand } from '../template/render-command.js';
import type { SkillRegistry } from '../skills/registry.js';

/** How long a run waits for a person before it gives up (E604). */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60 * 1000;

export interface RunInput {
  skill: string;
  tool: string;
  args?: unknown;
  /** Working directory; an existing absolute directory. Defaults to the user's home. */
  cwd?: string;
  surface: Surface;
  /** Correlates the run with the caller's own trace (ADR-001 run/attach); generated when absent. */
  traceId?: string;
}

/** Who can answer when policy says ask. */
export type Approval =
  /** The owning process: the request waits in the broker for the tray, the browser UI or `skilltray approve`. */
  | { kind: 'broker'; timeoutMs?: number }
  /** A person at this terminal answers directly. */
  | { kind: 'prompt'; ask: (pending: PendingApproval) => Promise<Verdict> }
  /** The person already said yes for this one call (`--yes`). */
  | { kind: 'preapproved'; actor: string }
  /** Nobody can be asked: a run that needs approval fails with E601. */
  | { kind: 'none' };

export interface RunOptions {
  approval: Approval;
  signal?: AbortSignal;
}

export interface RunServiceDeps {
  db: StateDb;
  registry: SkillRegistry;
  broker: ApprovalBroker;
  /** The environment tools inherit from (filtered) and requirements are checked against. */
  env: NodeJS.ProcessEnv;
  /** Where a run starts when the caller names no cwd. */
  defaultCwd: string;
  /** Skilltray's home: tools may not reach into it without asking. */
  home: string;
}

function plainObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The skill's content hash as its files are now (the registry may lag a watched change by its debounce). */
function currentHash(dir: string): string {
  try {
    return manifestHash(walkSkill(dir).files);
  } catch {
    return '';
  }
}

function withRunId(error: unknown, id: string): SkilltrayError {
  const coded = toSkilltrayError(error);
  return new SkilltrayError(coded.code, coded.message, { details: { ...coded.details, runId: id }, cause: coded.cause ?? coded });
}

/** Owns tool runs for one process: decisions, approvals, live processes and their records. */
export class RunService extends EventEmitter<{ run: [RunEvent]; remembered: [] }> {
  private readonly active = new Map<string, AbortController>();

  constructor(private readonly deps: RunServiceDeps) {
    super();
  }

  private checkCwd(cwd: string | undefined): string {
    const dir = cwd ?? this.deps.defaultCwd;
    let ok: boolean;
    try {
      ok = isAbsolute(dir) && statSync(dir).isDirectory();
    } catch {
      ok = false;
    }
    if (!ok) throw new SkilltrayError('E510', `cwd '${dir}' is not an existing absolute directory`, { details: { cwd: dir } });
    return dir;
  }

  /**
   * Where the program lives: a bare name on PATH; a relative path with a separator (`scripts/x.sh`)
   * in the skill's own folder, which it may not leave (E012); an absolute path as written.
   */
  private programPath(skill: Skill, program: string, cwd: string): string | null {
    if (isAbsolute(program) || !/[/\\]/.test(program)) return resolveProgram(program, this.deps.env, cwd);
    // The content hash (what approvals are pinned to) leaves hidden entries out: a script must not hide there.
    if (program.split(/[/\\]/).some((segment) => segment.startsWith('.') && segment !== '.' && segment !== '..')) {
      throw new SkilltrayError('E012', `program '${program}' is in a hidden folder, which the skill's content hash does not cover; move it out`, {
        details: { path: program },
      });
    }
    const found = resolveProgram(program, this.deps.env, skill.dir);
    if (found !== null && !isInside(realpathSync(skill.dir), found)) throw skillcErrors.pathEscapesRoot(program);
    return found;
  }

  /** Looks up, renders and decides; throws what stops a call before any policy question. */
  private prepare(input: RunInput): { skill: Skill; command: RenderedCommand; programPath: string | null; decision: Decision } {
    const skill = this.deps.registry.get(input.skill);
    if (!skill) throw new SkilltrayError('E001', `skill '${input.skill}' not found`, { details: { skill: input.skill } });
    const cwd = this.checkCwd(input.cwd);
    const command = renderCommand(skill, input.tool, input.args ?? {}, { cwd });
    const tool = skill.tools.find((t) => t.name === input.tool);
    if (!tool) throw new SkilltrayError('E506', `skill '${skill.name}' has no tool '${input.tool}'`);
    const programPath = this.programPath(skill, command.program, cwd);
    const settings = getSettings(this.deps.db);
    const decision = decide({
      skill,
      tool,
      mode: settings.mode,
      paused: settings.paused,
      rules: listRules(this.deps.db),
      remembered: findRemembered(this.deps.db, skill.name, tool.name),
      programPath,
      program: command.program,
      resolveBin: (bin) => resolveProgram(bin, this.deps.env, cwd),
      env: this.deps.env,
      sensitive: sensitiveArgument(plainObject(input.args), cwd, this.deps.home),
    });
    return { skill, command, programPath, decision };
  }

  /** The rendered request and the policy decision, without recording or running anything. */
  dryRun(input: RunInput): DryRun {
    const { command, programPath, decision } = this.prepare(input);
    return {
      command,
      programPath,
      decision: decision.outcome,
      reason: 'reason' in decision ? decision.reason : decision.error.message,
      error: 'error' in decision ? decision.error.toJSON() : null,
    };
  }

  /** Runs a tool call to completion, asking a person first when policy says so. */
  async run(input: RunInput, options: RunOptions): Promise<RunReport> {
    const traceId = input.traceId ?? randomUUID();
    const id = randomUUID();
    const { db } = this.deps;
    let prepared: ReturnType<RunService['prepare']>;
    try {
      prepared = this.prepare(input);
    } catch (error) {
      const coded = toSkilltrayError(error);
      const skill = this.deps.registry.get(input.skill);
      recordRequest(db, { id, traceId, surface: input.surface, skill: input.skill, tool: input.tool, args: plainObject(input.args), command: null, programPath: null, skillHash: skill?.hash ?? '' });
      recordDecision(db, id, { outcome: 'refused', decidedBy: 'error', reason: coded.message, errorCode: coded.code });
      throw withRunId(coded, id);
    }
    const { skill, command, programPath, decision } = prepared;
    recordRequest(db, { id, traceId, surface: input.surface, skill: skill.name, tool: command.tool, args: plainObject(input.args), command, programPath, skillHash: skill.hash });

    const decided = (view: RunDecisionView, errorCode: string | null = null): void => {
      recordDecision(db, id, { outcome: view.outcome, decidedBy: view.by, ruleId: view.ruleId, actor: view.actor, reason: view.reason, errorCode });
      emitSafely(this, 'run', { type: 'decided', id, traceId, skill: skill.name, tool: command.tool, decision: view });
    };
    const refuse = (error: SkilltrayError, outcome: RunOutcome, by: DecidedBy, extra: Partial<RunDecisionView> = {}): never => {
      decided({ outcome, by, reason: error.message, ruleId: null, actor: null, ...extra }, error.code);
      throw withRunId(error, id);
    };

    if (decision.outcome === 'refuse') return refuse(decision.error, 'refused', 'policy');
    if (decision.outcome === 'deny') return refuse(decision.error, 'denied', 'rule', { ruleId: decision.ruleId });

    let view: RunDecisionView;
    if (decision.outcome === 'auto') {
      view = { outcome: 'auto', by: decision.by, reason: decision.reason, ruleId: decision.ruleId ?? null, actor: null };
    } else {
      const pending: PendingApproval = {
        id,
        traceId,
        surface: input.surface,
        skill: skill.name,
        tool: command.tool,
        trust: skill.trust,
        readOnly: skill.readOnly,
        programPath: programPath as string,
        args: plainObject(input.args),
        argv: command.args,
        cwd: command.cwd,
        timeoutMs: command.timeoutMs,
        env: command.env,
        requestedAt: Date.now(),
        reason: decision.reason,
      };
      const verdict = await this.askPerson(pending, options.approval, options.signal).catch((error: unknown) => {
        const coded = toSkilltrayError(error);
        return refuse(coded, 'refused', coded.code === 'E604' ? 'timeout' : coded.code === 'E613' ? 'user' : 'policy');
      });
      if (verdict.verdict === 'deny') {
        const error = new SkilltrayError('E603', `the person at the desktop denied '${skill.name}/${command.tool}'`, {
          details: { skill: skill.name, tool: command.tool, actor: verdict.actor },
        });
        return refuse(error, 'denied', 'user', { actor: verdict.actor });
      }
      // What the person approved must be what runs: the files as they are on disk now, in a mode and
      // state that still allow it. Only then is "always" remembered.
      if (currentHash(skill.dir) !== skill.hash) {
        const error = new SkilltrayError('E612', `skill '${skill.name}' changed while its run waited for approval; ask again`, {
          details: { skill: skill.name, tool: command.tool },
        });
        return refuse(error, 'refused', 'policy');
      }
      const settings = getSettings(db);
      if (settings.paused || !isOffered(skill, settings.mode)) {
        const error = settings.paused
          ? new SkilltrayError('E608', `runs were paused while '${skill.name}/${command.tool}' waited for approval`, { details: { skill: skill.name, tool: command.tool } })
          : new SkilltrayError('E605', `'${skill.name}/${command.tool}' is not offered in ${settings.mode} mode, chosen while it waited for approval`, {
              details: { skill: skill.name, tool: command.tool, mode: settings.mode },
            });
        return refuse(error, 'refused', 'policy');
      }
      if (verdict.verdict === 'always') {
        remember(db, { skill: skill.name, tool: command.tool, skillHash: skill.hash, programPath: programPath as string });
        emitSafely(this, 'remembered');
      }
      view = { outcome: 'approved', by: 'user', reason: decision.reason, ruleId: null, actor: verdict.actor };
    }
    decided(view);
    return this.execute(id, traceId, skill, command, programPath as string, view, options.signal);
  }

  private async askPerson(pending: PendingApproval, approval: Approval, signal?: AbortSignal): Promise<Verdict> {
    switch (approval.kind) {
      case 'preapproved':
        return { verdict: 'once', actor: approval.actor };
      case 'prompt':
        return approval.ask(pending);
      case 'broker': {
        const request = this.deps.broker.request(pending, { timeoutMs: approval.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS });
        // The requester went away (an HTTP client hung up): withdraw the approval (E613) so nobody approves a run nobody awaits.
        const withdraw = (): void => void this.deps.broker.cancel(pending.id);
        if (signal?.aborted) withdraw();
        else signal?.addEventListener('abort', withdraw, { once: true });
        return request.finally(() => signal?.removeEventListener('abort', withdraw));
      }
      case 'none':
        throw new SkilltrayError(
          'E601',
          `'${pending.skill}/${pending.tool}' needs approval from the person at the desktop (${pending.reason}), and nobody can be asked here: ` +
            `start the Skilltray app (or 'skilltray serve') so it can ask`,
          { details: { skill: pending.skill, tool: pending.tool, reason: pending.reason } },
        );
    }
  }

  private async execute(id: string, traceId: string, skill: Skill, command: RenderedCommand, programPath: string, decision: RunDecisionView, signal?: AbortSignal): Promise<RunReport> {
    const { db } = this.deps;
    const controller = new AbortController();
    // The reason travels on: an owner that is stopping makes this an interruption, not a cancellation.
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', onAbort, { once: true });
    this.active.set(id, controller);
    recordStart(db, id);
    emitSafely(this, 'run', { type: 'started', id, traceId, skill: skill.name, tool: command.tool, command, programPath });
    try {
      const result = await runProcess({
        program: programPath,
        args: command.args,
        cwd: command.cwd,
        env: buildToolEnv(this.deps.env, command.env),
        timeoutMs: command.timeoutMs,
        maxOutputBytes: DEFAULT_OUTPUT_CAP,
        signal: controller.signal,
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
      const stopping = controller.signal.reason as unknown;
      recordResult(db, id, result, isOwnerStopping(stopping) ? { interrupted: (stopping as Error).message } : {});
      emitSafely(this, 'run', { type: 'finished', id, traceId, skill: skill.name, tool: command.tool, result });
      return { id, traceId, skill: skill.name, tool: command.tool, command, programPath, decision, result };
    } catch (error) {
      const coded = toSkilltrayError(error);
      recordFailure(db, id, coded);
      throw withRunId(coded, id);
    } finally {
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
      throw new SkilltrayError('E702', `no run '${id}' is running or waiting for approval`, { details: { id } });
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
    const finished = [...this.active.keys()].map((id) => new Promise<void>((resolve) => {
      const listener = (event: RunEvent) => {
        if (event.type === 'finished' && event.id === id) {
          this.off('run', listener);
          resolve();
        }
      };
      this.on('run', listener);
    }));
    for (const controller of this.active.values()) controller.abort(ownerStopping(why));
    await Promise.race([Promise.all(finished), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
  }
}
