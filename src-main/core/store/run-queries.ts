/**
 * Reading run history back: one run with its output, or a page of runs filtered by skill, tool,
 * surface, status and time (RunQuery), newest first. Rows are written by run-records.ts.
 */
import type { LimitHit, RenderedCommand } from '../../shared/model.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type {
  Surface,
  RunOutcome,
  DecidedBy,
  RunStatus,
  RunSummary,
  RunRecord,
  RunQuery,
  RecordedAnswer,
  SandboxView,
  NetworkDenial,
} from '../../shared/runs.js';
import type { RunChannel } from '../../shared/runs.js';

export const DEFAULT_RUN_LIMIT = 100;
export const MAX_RUN_LIMIT = 1000;

interface RunRow {
  id: string;
  trace_id: string;
  surface: Surface;
  assistant: string | null;
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
  limit_hit: LimitHit | null;
  owner_pid: number | null;
  pgid: number | null;
  output_dropped_at: number | null;
  network_denied: string | null;
  swept: string | null;
  channel: RunChannel | null;
  stdout?: string | null;
  stderr?: string | null;
}

const SUMMARY_COLUMNS = `id, trace_id, surface, assistant, skill, tool, args, command, program_path, skill_hash, requested_at,
  outcome, decided_by, rule_id, actor, decided_at, reason, error_code, started_at, ended_at, exit_code, signal,
  timed_out, cancelled, dropped_stdout, dropped_stderr, duration_ms, status, owner_pid, pgid, output_dropped_at, sandbox, answer, limit_hit, network_denied, swept, channel`;

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
    assistant: row.assistant,
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
    swept: row.swept === null ? [] : (JSON.parse(row.swept) as string[]),
    channel: row.channel,
  };
}

/** Explains why a guarded update touched no row: the run is missing, or in the wrong state for `step`. */
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
  for (const key of ['skill', 'tool', 'status', 'surface', 'assistant'] as const) {
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
