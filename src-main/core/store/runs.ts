/**
 * Run history: one row per request, filled in step by step — request, decision, start, result —
 * so a run that never got past approval is still on record with why. Steps are guarded by the
 * row's status, so a step recorded twice or out of order is an error, not a silent overwrite.
 * Times are milliseconds since the Unix epoch.
 */
import { randomUUID } from 'node:crypto';
import type { RenderedCommand, ResourceLimitName, RunResult } from '../../shared/model.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { runnerErrors } from '../../shared/error-messages/runner.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { thisProcess, type ProcessIdentity } from '../runs/owner.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { Surface, RunOutcome, DecidedBy, RunStatus, RunSummary, RunRecord, RunQuery, RecordedAnswer, SandboxView, NetworkDenial } from '../../shared/runs.js';

/** A request as it arrives, before anything is decided; `id` defaults to a fresh UUID, `requestedAt` to now. */
export type RunRequest = Pick<RunSummary, 'traceId' | 'surface' | 'skill' | 'tool' | 'args' | 'command' | 'programPath' | 'skillHash'> & {
  id?: string;
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

export const DEFAULT_RUN_LIMIT = 100;
export const MAX_RUN_LIMIT = 1000;

interface RunRow {
  id: string;
  trace_id: string;
  surface: Surface;
  skill: string;
  tool: string;
  args: string;
  command: string | null;
  program_path: string | null;
  skill_hash: string;
  requested_at: number;
  outcome: RunOutcome | null;
  decided_by: DecidedBy | null;
  rule_id: number | null;
  actor: string | null;
  decided_at: number | null;
  reason: string | null;
  error_code: string | null;
  started_at: number | null;
  ended_at: number | null;
  exit_code: number | null;
  signal: string | null;
  timed_out: number;
  cancelled: number;
  dropped_stdout: number;
  dropped_stderr: number;
  duration_ms: number | null;
  status: RunStatus;
  sandbox: string | null;
  answer: RecordedAnswer | null;
  limit_hit: ResourceLimitName | null;
  owner_pid: number | null;
  pgid: number | null;
  output_dropped_at: number | null;
  network_denied: string | null;
  stdout?: string | null;
  stderr?: string | null;
}

const SUMMARY_COLUMNS = `id, trace_id, surface, skill, tool, args, command, program_path, skill_hash, requested_at,
  outcome, decided_by, rule_id, actor, decided_at, reason, error_code, started_at, ended_at, exit_code, signal,
  timed_out, cancelled, dropped_stdout, dropped_stderr, duration_ms, status, owner_pid, pgid, output_dropped_at, sandbox, answer, limit_hit, network_denied`;

/** Runs recorded before `supplied` existed read as having no caller-supplied argument marked. */
function withSupplied(command: Omit<RenderedCommand, 'supplied'> & { supplied?: number[] }): RenderedCommand {
  return { ...command, supplied: command.supplied ?? [] };
}

/** A run recorded before host lists had the host's own network when it had one. */
function withHosts(sandbox: Omit<SandboxView, 'hosts'> & { hosts?: SandboxView['hosts'] }): SandboxView {
  return { ...sandbox, hosts: sandbox.hosts ?? (sandbox.network ? 'host' : []) };
}

function toSummary(row: RunRow): RunSummary {
  return {
    id: row.id,
    traceId: row.trace_id,
    surface: row.surface,
    skill: row.skill,
    tool: row.tool,
    args: JSON.parse(row.args) as Record<string, unknown>,
    command: row.command === null ? null : withSupplied(JSON.parse(row.command) as Omit<RenderedCommand, 'supplied'>),
    programPath: row.program_path,
    skillHash: row.skill_hash,
    requestedAt: row.requested_at,
    outcome: row.outcome,
    decidedBy: row.decided_by,
    ruleId: row.rule_id,
    actor: row.actor,
    decidedAt: row.decided_at,
    reason: row.reason,
    errorCode: row.error_code,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    exitCode: row.exit_code,
    signal: row.signal,
    timedOut: row.timed_out === 1,
    cancelled: row.cancelled === 1,
    droppedStdout: row.dropped_stdout,
    droppedStderr: row.dropped_stderr,
    durationMs: row.duration_ms,
    status: row.status,
    ownerPid: row.owner_pid,
    pgid: row.pgid,
    outputDroppedAt: row.output_dropped_at,
    sandbox: row.sandbox === null ? null : withHosts(JSON.parse(row.sandbox) as SandboxView),
    answer: row.answer,
    limitHit: row.limit_hit,
    networkDenied: row.network_denied === null ? [] : (JSON.parse(row.network_denied) as NetworkDenial[]),
  };
}

/** Explains why a guarded update touched no row: the run is missing, or in the wrong state for `step`. */
function stepRefused(db: StateDb, id: string, step: string): SkilltrayError {
  const row = prepared<[string], { status: RunStatus; outcome: RunOutcome | null }>(
    db,
    'SELECT status, outcome FROM runs WHERE id = ?',
  ).get(id);
  if (row === undefined) return runnerErrors.runNotRecorded(id);
  return skillcErrors.internal(`cannot record ${step} for run '${id}': it is ${row.status} and ${row.outcome === null ? 'not yet decided' : `already decided (${row.outcome})`}`, {
    details: { id, status: row.status, outcome: row.outcome },
  });
}

/** Records a new request (status pending), owned by `owner` (this process unless said), and returns its id. */
export function recordRequest(db: StateDb, request: RunRequest, owner: ProcessIdentity = thisProcess()): string {
  const id = request.id ?? randomUUID();
  prepared(
    db,
    `INSERT INTO runs (id, trace_id, surface, skill, tool, args, command, program_path, skill_hash, requested_at, owner_pid, owner_started, sandbox)
     VALUES (@id, @traceId, @surface, @skill, @tool, @args, @command, @programPath, @skillHash, @requestedAt, @ownerPid, @ownerStarted, @sandbox)`,
  ).run({
    ownerPid: owner.pid,
    ownerStarted: owner.started,
    id,
    traceId: request.traceId,
    surface: request.surface,
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

/** One run with its output, or null. */
export function getRun(db: StateDb, id: string): RunRecord | null {
  const row = prepared<[string], RunRow>(db, `SELECT ${SUMMARY_COLUMNS}, stdout, stderr FROM runs WHERE id = ?`).get(id);
  if (row === undefined) return null;
  return { ...toSummary(row), stdout: row.stdout ?? null, stderr: row.stderr ?? null };
}

function checkedCount(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw skillcErrors.invalidOption(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/** Builds the history query; exported so tests can check its plan. */
export function runQuerySql(query: RunQuery): { sql: string; params: Record<string, string | number> } {
  const where: string[] = [];
  const params: Record<string, string | number> = {
    limit: checkedCount('limit', query.limit ?? DEFAULT_RUN_LIMIT, 1, MAX_RUN_LIMIT),
    offset: checkedCount('offset', query.offset ?? 0, 0, Number.MAX_SAFE_INTEGER),
  };
  for (const key of ['skill', 'tool', 'status', 'surface'] as const) {
    const value = query[key];
    if (value !== undefined) {
      where.push(`${key} = @${key}`);
      params[key] = value;
    }
  }
  if (query.since !== undefined) {
    where.push('requested_at >= @since');
    params.since = query.since;
  }
  if (query.until !== undefined) {
    where.push('requested_at < @until');
    params.until = query.until;
  }
  const sql = `SELECT ${SUMMARY_COLUMNS} FROM runs${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`}
    ORDER BY requested_at DESC, rowid DESC LIMIT @limit OFFSET @offset`;
  return { sql, params };
}

/** Runs matching every given filter, newest first, without their output. */
export function listRuns(db: StateDb, query: RunQuery = {}): RunSummary[] {
  const { sql, params } = runQuerySql(query);
  return prepared<[Record<string, string | number>], RunRow>(db, sql).all(params).map(toSummary);
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
  return prepared<[], { id: string; skill: string; tool: string; status: 'pending' | 'running'; owner_pid: number | null; owner_started: string | null; pgid: number | null; process_started: string | null }>(
    db,
    "SELECT id, skill, tool, status, owner_pid, owner_started, pgid, process_started FROM runs WHERE status IN ('pending', 'running')",
  )
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
