/**
 * Run history: one row per request, filled in step by step — request, decision, start, result —
 * so a run that never got past approval is still on record with why. Steps are guarded by the
 * row's status, so a step recorded twice or out of order is an error, not a silent overwrite.
 * Times are milliseconds since the Unix epoch. Reading it back is run-queries.ts.
 */
import { randomUUID } from 'node:crypto';
import type { RunResult } from '../../shared/model.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { runnerErrors } from '../../shared/error-messages/runner.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { ProcessIdentity } from '../process-identity.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { RunOutcome, DecidedBy, RunStatus, RunSummary, RecordedAnswer, SandboxView, NetworkDenial } from '../../shared/runs.js';

/** A request as it arrives, before anything is decided; `id` defaults to a fresh UUID, `requestedAt` to now. */
export type RunRequest = Pick<RunSummary, 'traceId' | 'surface' | 'skill' | 'tool' | 'args' | 'command' | 'programPath' | 'skillHash'> & {
  id?: string;
  /** The assistant whose credential asked (absent: the person). */
  assistant?: string | null;
  requestedAt?: number;
  /** How the run would be contained, when it got far enough to know. */
  sandbox?: SandboxView | null;
};

export interface RunDecision {
  outcome: RunOutcome;
  decidedBy: DecidedBy;
  ruleId?: number | null;
  /** Who decided: the person's name or client for `user`, otherwise whatever the caller finds useful. */
  actor?: string | null;
  reason?: string | null;
  /** The error code of a denial or refusal (E602, E605…). */
  errorCode?: string | null;
  /** The person's answer, when one was given. */
  answer?: RecordedAnswer | null;
  /** Defaults to now. */
  decidedAt?: number;
}

function stepRefused(db: StateDb, id: string, step: string): SkilltrayError {
  const row = prepared<[string], { status: RunStatus; outcome: RunOutcome | null }>(db, 'SELECT status, outcome FROM runs WHERE id = ?').get(id);
  if (row === undefined) return runnerErrors.runNotRecorded(id);
  return skillcErrors.internal(
    `cannot record ${step} for run '${id}': it is ${row.status} and ${row.outcome === null ? 'not yet decided' : `already decided (${row.outcome})`}`,
    {
      details: { id, status: row.status, outcome: row.outcome },
    },
  );
}

/** Records a new request (status pending), owned by process `owner` (the run service's own), and returns its id. */
export function recordRequest(db: StateDb, request: RunRequest, owner: ProcessIdentity): string {
  const id = request.id ?? randomUUID();
  prepared(
    db,
    `INSERT INTO runs (id, trace_id, surface, assistant, skill, tool, args, command, program_path, skill_hash, requested_at, owner_pid, owner_started, sandbox)
     VALUES (@id, @traceId, @surface, @assistant, @skill, @tool, @args, @command, @programPath, @skillHash, @requestedAt, @ownerPid, @ownerStarted, @sandbox)`,
  ).run({
    ownerPid: owner.pid,
    ownerStarted: owner.started,
    id,
    traceId: request.traceId,
    surface: request.surface,
    assistant: request.assistant ?? null,
    skill: request.skill,
    tool: request.tool,
    args: JSON.stringify(request.args),
    command: request.command === null ? null : JSON.stringify(request.command),
    programPath: request.programPath,
    skillHash: request.skillHash,
    requestedAt: request.requestedAt ?? Date.now(),
    sandbox: request.sandbox ? JSON.stringify(request.sandbox) : null,
  });
  return id;
}

/** Records the decision on an undecided run; denied and refused runs end here with that status. */
export function recordDecision(db: StateDb, id: string, decision: RunDecision): void {
  const status: RunStatus = decision.outcome === 'denied' ? 'denied' : decision.outcome === 'refused' ? 'refused' : 'pending';
  const info = prepared(
    db,
    `UPDATE runs SET outcome = @outcome, decided_by = @decidedBy, rule_id = @ruleId, actor = @actor,
       decided_at = @decidedAt, reason = @reason, error_code = @errorCode, answer = @answer, status = @status
     WHERE id = @id AND outcome IS NULL AND status = 'pending'`,
  ).run({
    id,
    outcome: decision.outcome,
    decidedBy: decision.decidedBy,
    ruleId: decision.ruleId ?? null,
    actor: decision.actor ?? null,
    decidedAt: decision.decidedAt ?? Date.now(),
    reason: decision.reason ?? null,
    errorCode: decision.errorCode ?? null,
    answer: decision.answer ?? null,
    status,
  });
  if (info.changes === 0) throw stepRefused(db, id, 'a decision');
}

/** Marks an approved (or auto) run as running. */
export function recordStart(db: StateDb, id: string, startedAt: number = Date.now()): void {
  const info = prepared(
    db,
    `UPDATE runs SET status = 'running', started_at = ?
     WHERE id = ? AND status = 'pending' AND outcome IN ('auto', 'approved')`,
  ).run(startedAt, id);
  if (info.changes === 0) throw stepRefused(db, id, 'a start');
}

/** Records the process group a running run's tool leads, so a later owner can find it if this one dies. */
export function recordProcess(db: StateDb, id: string, group: ProcessIdentity): void {
  const info = prepared(db, "UPDATE runs SET pgid = ?, process_started = ? WHERE id = ? AND status = 'running'").run(group.pid, group.started, id);
  if (info.changes === 0) throw stepRefused(db, id, 'a process');
}

/** Records the connections a running run's network proxy refused (nothing when it refused none). */
export function recordNetworkDenied(db: StateDb, id: string, denied: readonly NetworkDenial[]): void {
  if (denied.length === 0) return;
  const info = prepared(db, "UPDATE runs SET network_denied = ? WHERE id = ? AND status = 'running'").run(JSON.stringify(denied), id);
  if (info.changes === 0) throw stepRefused(db, id, 'refused connections');
}

/** Records the hidden paths a writing run made without declaring them, removed when it ended (nothing when there were none). */
export function recordSwept(db: StateDb, id: string, swept: readonly string[]): void {
  if (swept.length === 0) return;
  const info = prepared(db, "UPDATE runs SET swept = ? WHERE id = ? AND status = 'running'").run(JSON.stringify(swept), id);
  if (info.changes === 0) throw stepRefused(db, id, 'removed hidden paths');
}

/** The final status a result stands for: cancellation (by its owner stopping: interrupted) and timeout first, then the exit code. */
export function statusOfResult(result: RunResult, interrupted = false): RunStatus {
  if (result.cancelled) return interrupted ? 'interrupted' : 'cancelled';
  if (result.timedOut) return 'timed_out';
  return result.exitCode === 0 ? 'succeeded' : 'failed';
}

/**
 * Records how a running run ended. `interrupted` (why) says a cancellation came from its owner
 * stopping — a signal, the app quitting — not from someone cancelling the run: it ends as
 * interrupted, E705, with why as its reason (as a failure's error replaces the decision's reason).
 */
export function recordResult(db: StateDb, id: string, result: RunResult, options: { endedAt?: number; interrupted?: string } = {}): void {
  const endedAt = options.endedAt ?? Date.now();
  const interrupted = result.cancelled && options.interrupted !== undefined;
  const info = prepared(
    db,
    `UPDATE runs SET ended_at = @endedAt, exit_code = @exitCode, signal = @signal, timed_out = @timedOut,
       cancelled = @cancelled, stdout = @stdout, stderr = @stderr, dropped_stdout = @droppedStdout,
       dropped_stderr = @droppedStderr, duration_ms = @durationMs, status = @status, output_bytes = @outputBytes,
       error_code = coalesce(@errorCode, error_code), reason = coalesce(@reason, reason), limit_hit = @limitHit
     WHERE id = @id AND status = 'running'`,
  ).run({
    outputBytes: Buffer.byteLength(result.stdout) + Buffer.byteLength(result.stderr),
    id,
    endedAt,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut ? 1 : 0,
    cancelled: result.cancelled ? 1 : 0,
    stdout: result.stdout,
    stderr: result.stderr,
    droppedStdout: result.droppedBytes.stdout,
    droppedStderr: result.droppedBytes.stderr,
    durationMs: result.durationMs,
    status: statusOfResult(result, interrupted),
    errorCode: interrupted ? 'E705' : null,
    reason: interrupted ? (options.interrupted as string) : null,
    limitHit: result.limitHit ?? null,
  });
  if (info.changes === 0) throw stepRefused(db, id, 'a result');
}

/** Records that an approved run could not be carried out (the spawn failed): status failed, with the error. */
export function recordFailure(db: StateDb, id: string, error: SkilltrayError, endedAt: number = Date.now()): void {
  const info = prepared(
    db,
    `UPDATE runs SET status = 'failed', error_code = ?, reason = ?, ended_at = ?
     WHERE id = ? AND (status = 'running' OR (status = 'pending' AND outcome IN ('auto', 'approved')))`,
  ).run(error.code, error.message, endedAt, id);
  if (info.changes === 0) throw stepRefused(db, id, 'a failure');
}

/** A run that has not finished, with who owns it and which process group its tool leads. */
export interface UnfinishedRun {
  id: string;
  skill: string;
  tool: string;
  status: 'pending' | 'running';
  /** Null for runs recorded before owners were (an older Skilltray). */
  owner: ProcessIdentity | null;
  /** Null until the tool started. */
  group: ProcessIdentity | null;
}

/** Every pending or running run, whoever owns it. */
export function unfinishedRuns(db: StateDb): UnfinishedRun[] {
  return prepared<
    [],
    {
      id: string;
      skill: string;
      tool: string;
      status: 'pending' | 'running';
      owner_pid: number | null;
      owner_started: string | null;
      pgid: number | null;
      process_started: string | null;
    }
  >(db, "SELECT id, skill, tool, status, owner_pid, owner_started, pgid, process_started FROM runs WHERE status IN ('pending', 'running')")
    .all()
    .map((row) => ({
      id: row.id,
      skill: row.skill,
      tool: row.tool,
      status: row.status,
      owner: row.owner_pid === null ? null : { pid: row.owner_pid, started: row.owner_started ?? '' },
      group: row.pgid === null ? null : { pid: row.pgid, started: row.process_started ?? '' },
    }));
}

/** Ends an unfinished run as interrupted (its owner is gone) with why; false if it finished meanwhile. */
export function recordInterrupted(db: StateDb, id: string, reason: string, endedAt: number = Date.now()): boolean {
  const info = prepared(
    db,
    `UPDATE runs SET status = 'interrupted', error_code = 'E705', reason = ?, ended_at = ?
     WHERE id = ? AND status IN ('pending', 'running')`,
  ).run(reason, endedAt, id);
  return info.changes === 1;
}
