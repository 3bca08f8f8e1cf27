/** Runs, approvals, rules and settings as every surface sees them (the renderer included). */
import type { ErrorCode, ErrorShape } from './errors.js';
import type { LimitHit, Mode, NetworkHosts, RenderedCommand, ResourceLimits, RootKind, RunResult, SkillIdentity, Trust } from './model.js';

/**
 * Where a request came from: `ui` is the app's own window (over IPC, the only way to be the tray),
 * `browser` the same UI served over HTTP, `cli`/`mcp` the bridges, `http` anyone else with the token.
 */
export type Surface = 'cli' | 'http' | 'mcp' | 'ui' | 'browser';

export const SURFACES: readonly Surface[] = ['cli', 'http', 'mcp', 'ui', 'browser'];

/**
 * Where a run request came from, as its record keeps it: a person at a keyboard (the app, the
 * browser UI, the CLI), an assistant, or an assistant acting on something the person said (`voice`,
 * which the caller states with `channel: "voice"` on run and attach).
 */
export type RunChannel = 'voice' | 'keyboard' | 'assistant';

/** What was decided: `auto` ran without asking, `approved`/`denied` by someone or something, `refused` could not run. */
export type RunOutcome = 'auto' | 'approved' | 'denied' | 'refused';

/**
 * Who or what decided: policy, a rule, a remembered approval, the person, the approval timeout, the
 * caller withdrawing its request before anyone answered, or an error.
 */
export type DecidedBy = 'policy' | 'rule' | 'remembered' | 'user' | 'timeout' | 'caller' | 'error';

/** How much of the machine a run may touch: the whole filesystem read-only, plus its working directory, or everything (not contained). */
export type SandboxProfileName = 'read-only' | 'workspace' | 'none';

export const SANDBOX_PROFILES: readonly SandboxProfileName[] = ['read-only', 'workspace', 'none'];

/** The profile policy asks for: filesystem access, whether the network is reachable, and where it leads. */
export interface SandboxProfile {
  name: SandboxProfileName;
  network: boolean;
  hosts: NetworkHosts;
  /**
   * What the box lets the run see beyond the system, its folder, a private home and temp: home
   * files the skill declares (`reads:`, as written, `~/…`), read-only. Absent on approvals
   * remembered before the box had it, which covered more.
   */
  reads?: string[];
  /**
   * Where each declared read that exists really is (every link followed): what the box binds and the
   * approval shows. A run's own; absent from a rule's pin, which holds for the declarations as written.
   */
  readsAt?: string[];
  /** Hidden paths of its working directory (`.git`, `.cargo`…) or dependency folders the skill declares it writes (`writes:`). */
  writes?: string[];
  /** The run's resource limits (what it asks for, within the person's ceiling). */
  limits?: ResourceLimits;
}

/** Connections a run's proxy refused, by host and port: `why` says which rule refused them. */
export interface NetworkDenial {
  host: string;
  port: number;
  why: string;
  count: number;
}

/** The OS mechanisms that contain a run. */
export type SandboxMechanism = 'bubblewrap' | 'seatbelt';

/** How one run is contained, as every surface shows it (approval, history, `--dry-run --json`). */
export interface SandboxView extends SandboxProfile {
  /** True when an OS sandbox applies the profile; false for `none` or where no sandbox works. */
  contained: boolean;
  mechanism: SandboxMechanism | null;
  /** Why the run is not contained, as a sentence; null when it is. */
  why: string | null;
  /** Programs outside the system folders that the box binds read-only on their own: the tool's program, its interpreter. */
  programs?: string[];
  /** `.git` files in the working directory that name a git folder outside it (relative): the box shows nothing there, so git may fail. */
  gitOutside?: string[];
  /** Why the resource limits do not apply to this run, as a sentence; null (or absent) when they do. */
  limitsWhy?: string | null;
}

/** What this machine can contain, and the skills the person chose to run without a sandbox. */
export interface SandboxStatus {
  mechanism: SandboxMechanism | null;
  available: boolean;
  /** Why no sandbox is available, with how to fix it; null when one is. */
  why: string | null;
  /** Skills whose runs are not contained because the person said so, by name. */
  unsandboxed: string[];
}

/** How long an "Always" answer lasts: until the app (or serve) that owns runs stops, or until revoked. */
export type RememberExpiry = 'session' | 'revoke';

export const REMEMBER_EXPIRIES: readonly RememberExpiry[] = ['session', 'revoke'];

/**
 * Where an "Always" answer applies: in the run's working folder (and the folders inside it), or in
 * any folder, which only a read-only run may be given.
 */
export type RememberScope = 'folder' | 'anywhere';

export const REMEMBER_SCOPES: readonly RememberScope[] = ['folder', 'anywhere'];

/**
 * The part of a skill's identity rules and remembered approvals are pinned to: the kind of root it
 * was found in, its folder there, and whether it was the bundled skill Skilltray shipped.
 */
export interface IdentityPin {
  rootKind: RootKind;
  path: string;
  trust: Trust;
}

/** The person's answer as recorded with a run: once, always (with its expiry) or deny. */
export type RecordedAnswer = 'once' | 'always' | 'always-session' | 'deny';

/** `interrupted`: the process that owned the run stopped (a signal, a crash, a closed terminal) before it finished. */
export type RunStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'timed_out' | 'denied' | 'refused' | 'interrupted';

export const RUN_STATUSES: readonly RunStatus[] = ['pending', 'running', 'succeeded', 'failed', 'cancelled', 'timed_out', 'denied', 'refused', 'interrupted'];

/** A run as listed: everything but the captured output. */
export interface RunSummary {
  id: string;
  traceId: string;
  surface: Surface;
  /** The assistant whose credential asked for the run (`codex`, `mcp` for the stdio bridge); null when the person did, or before this was recorded. */
  assistant: string | null;
  skill: string;
  tool: string;
  args: Record<string, unknown>;
  command: RenderedCommand | null;
  programPath: string | null;
  skillHash: string;
  requestedAt: number;
  outcome: RunOutcome | null;
  decidedBy: DecidedBy | null;
  ruleId: number | null;
  actor: string | null;
  decidedAt: number | null;
  reason: string | null;
  errorCode: string | null;
  startedAt: number | null;
  endedAt: number | null;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  droppedStdout: number;
  droppedStderr: number;
  durationMs: number | null;
  status: RunStatus;
  /** The pid of the process that owned the run (recorded it and would finish it). */
  ownerPid: number | null;
  /** The tool's process group (its pid), once it started. */
  pgid: number | null;
  /** When history retention dropped this run's output; the record itself is kept. */
  outputDroppedAt: number | null;
  /** How the run was (or would have been) contained; null for a request that never got that far. */
  sandbox: SandboxView | null;
  /** The person's answer when one was given. */
  answer: RecordedAnswer | null;
  /** Which resource limit stopped the run, when Skilltray could tell (docs/runner.md). */
  limitHit: LimitHit | null;
  /** Connections its network proxy refused (the first 100 host:port pairs); empty when none were. */
  networkDenied: NetworkDenial[];
  /** Hidden paths a writing run made in its folder without declaring them, removed when it ended (relative); empty when none were. */
  swept: string[];
  /** Where the request came from: the person's keyboard, an assistant, or an assistant acting on a voice turn; null before it was recorded. */
  channel: RunChannel | null;
}

/** A run with its captured output (null until it has a result). */
export interface RunRecord extends RunSummary {
  stdout: string | null;
  stderr: string | null;
}

export interface RunQuery {
  skill?: string;
  tool?: string;
  status?: RunStatus;
  surface?: Surface;
  /** Only the runs this assistant asked for. */
  assistant?: string;
  /** Requested at or after (inclusive). */
  since?: number;
  /** Requested before (exclusive). */
  until?: number;
  /** 1–1000, default 100. */
  limit?: number;
  /** Default 0. */
  offset?: number;
}

/** A remembered approval for one tool of one skill. */
export interface Remembered {
  id: number;
  skill: string;
  tool: string;
  skillHash: string;
  /** The skill it was given to; null for one remembered before identities were pinned (its content hash still is). */
  identity: IdentityPin | null;
  programPath: string;
  /** The profile it was given under: a run whose profile is wider asks again. */
  profile: SandboxProfile;
  /** The working folder it was given in (it applies there and in folders inside it); null: in any folder. */
  folder: string | null;
  /** `session`: lapses when the owner of runs that took it stops; `revoke`: lasts until revoked. */
  expires: RememberExpiry;
  createdAt: number;
  revokedAt: number | null;
}

/** How long run output is kept in state.db: output older than `outputDays`, and the oldest beyond `outputMaxMb` in all, is dropped; records stay. */
export interface Retention {
  /** 1–3650 days; default 30. */
  outputDays: number;
  /** 1–102400 MiB of output in all; default 100. */
  outputMaxMb: number;
}

/** What history holds now. */
export interface HistoryUsage {
  runs: number;
  /** Runs whose output is still stored. */
  runsWithOutput: number;
  /** Bytes of stdout and stderr stored, in all. */
  outputBytes: number;
  /** state.db's size (pages × page size), and how much of it is free pages. */
  dbBytes: number;
  freeBytes: number;
}

/** One pass of history maintenance: retention, then vacuum. */
export interface MaintenanceReport {
  /** When it ran (ms since the epoch). */
  at: number;
  /** Runs whose output was dropped for being older than the retention's days, and to fit its size. */
  droppedByAge: number;
  droppedBySize: number;
  bytesDropped: number;
  /** `full` once, to switch an older database to incremental vacuum; then `incremental` when pages were free. */
  vacuum: 'none' | 'incremental' | 'full';
  /** How much smaller state.db became. */
  bytesFreed: number;
}

export interface Settings {
  mode: Mode;
  paused: boolean;
  /** The desktop app's global shortcut for the command palette, as an Electron accelerator; '' for none. */
  paletteShortcut: string;
  retention: Retention;
  /** The most of each resource a skill may ask for (`limits:`); what a run gets without asking is below it. */
  limitCeiling: ResourceLimits;
}

export type RuleEffect = 'allow' | 'deny';

export const RULE_EFFECTS: readonly RuleEffect[] = ['allow', 'deny'];

/** One skill an allow rule covers, as it was when the rule was made: who it was, and the most its runs could do. */
export interface RulePin extends IdentityPin {
  skill: string;
  /** The skill's own profile (the widest its tools may ask for). */
  profile: SandboxProfile;
  /** Each tool the pattern matched, by name, with its own profile then (a tool's policy may narrow it); absent on pins made before tools had policies. */
  tools?: Record<string, SandboxProfile>;
}

/** A stored rule. */
export interface Rule {
  id: number;
  pattern: string;
  effect: RuleEffect;
  createdAt: number;
  /**
   * For an allow rule, the skills it covers (a deny rule covers every skill its pattern names, and has
   * none); null for a rule made before rules were pinned, until it is (docs/policy.md).
   */
  pins: RulePin[] | null;
}

/** Everything the person needs to decide on one run. */
export interface PendingApproval {
  /** The run's id. */
  id: string;
  traceId: string;
  surface: Surface;
  /** The assistant whose credential asks (see RunSummary.assistant); null when the person does. */
  assistant: string | null;
  skill: string;
  tool: string;
  trust: Trust;
  /** Who the skill is: its root and folder, and what does not match what was shipped or installed, or what it hides. */
  identity: SkillIdentity;
  readOnly: boolean;
  /** Resolved absolute path of the program that would run. */
  programPath: string;
  /** The named arguments as the assistant sent them. */
  args: Record<string, unknown>;
  /** The argv the program would receive, after rendering. */
  argv: string[];
  cwd: string;
  /** The run's own timeout. */
  timeoutMs: number;
  /** Names of the extra environment variables the tool would receive. */
  env: string[];
  requestedAt: number;
  /** Why approval is needed (policy's reason). */
  reason: string;
  /** How the run would be contained. */
  sandbox: SandboxView;
  /** Indexes in `argv` of the arguments that hold a value the caller supplied (the rest is the template's). */
  supplied: number[];
  /** Where an Always answer may apply, the default first; none when this run cannot be remembered. */
  rememberScopes: RememberScope[];
  /** Where the request came from (a voice turn makes a spoken yes need the code: docs/voice.md). */
  channel?: RunChannel;
}

/** A pending approval as listed: when it will time out, by the broker's clock. */
export interface PendingEntry extends PendingApproval {
  expiresAt: number;
  /** The digits the person says back to answer by voice, fresh for each request; only the person's surfaces see it. */
  code?: string;
  /** The prompt the app speaks (under 200 characters, with the code); only the person's surfaces see it. */
  speech?: string;
}

export type VerdictKind = 'once' | 'always' | 'deny';

export const VERDICT_KINDS: readonly VerdictKind[] = ['once', 'always', 'deny'];

export interface Verdict {
  verdict: VerdictKind;
  actor: string;
  /** For `always`: how long it is remembered (default `revoke`). */
  expires?: RememberExpiry;
  /** For `always`: where it applies (default `folder`). */
  scope?: RememberScope;
}

/** The two streams a tool writes, as named in live output. */
export type OutputStream = 'stdout' | 'stderr';

export interface RunDecisionView {
  outcome: RunOutcome;
  by: DecidedBy;
  reason: string;
  ruleId: number | null;
  actor: string | null;
}

/** What a finished run hands back to the caller. */
export interface RunReport {
  id: string;
  traceId: string;
  skill: string;
  tool: string;
  command: RenderedCommand;
  programPath: string;
  decision: RunDecisionView;
  sandbox: SandboxView;
  result: RunResult;
  /** Connections its network proxy refused, as history records them. */
  networkDenied: NetworkDenial[];
  /** Hidden paths it made in its folder without declaring them, removed when it ended, as history records them. */
  swept: string[];
}

/** What `--dry-run` shows: the rendered request and what policy would do, nothing recorded or run. */
export interface DryRun {
  command: RenderedCommand;
  programPath: string | null;
  decision: 'auto' | 'ask' | 'deny' | 'refuse';
  reason: string;
  error: ErrorShape | null;
  /** How the run would be contained. */
  sandbox: SandboxView;
}

export type RunEvent =
  | { type: 'decided'; id: string; traceId: string; skill: string; tool: string; decision: RunDecisionView }
  | { type: 'started'; id: string; traceId: string; skill: string; tool: string; command: RenderedCommand; programPath: string; sandbox: SandboxView }
  | { type: 'output'; id: string; stream: OutputStream; text: string }
  | { type: 'finished'; id: string; traceId: string; skill: string; tool: string; result: RunResult };

/** A run's result without its output: `getRun` has the output, by the run's id. */
export type RunResultSummary = Omit<RunResult, 'stdout' | 'stderr'>;

/**
 * A run event as subscribers hear it (the UI, `GET /api/events`): which run, and a small summary,
 * never its output or command — `getRun` fetches those by id (while it runs, the output so far).
 */
export type RunNotice =
  | { type: 'decided'; id: string; traceId: string; skill: string; tool: string; decision: RunDecisionView }
  | { type: 'started'; id: string; traceId: string; skill: string; tool: string; programPath: string; sandbox: SandboxView }
  /** The tool wrote to `stream`: `bytes` of live output there so far. */
  | { type: 'output'; id: string; stream: OutputStream; bytes: number }
  | { type: 'finished'; id: string; traceId: string; skill: string; tool: string; result: RunResultSummary };

/** A pending approval as subscribers hear of it: which run waits, and until when; `approvals` has the whole request. */
export type PendingNotice = Pick<PendingEntry, 'id' | 'traceId' | 'surface' | 'skill' | 'tool' | 'requestedAt' | 'expiresAt'>;

/** Something the person must be told once — a damaged state.db recovered — kept and shown until dismissed. */
export interface Notice {
  id: number;
  /** E901 (recovered) or E902 (recovered, but rules may be lost: runs paused). */
  code: ErrorCode;
  message: string;
  details: Record<string, unknown> | null;
  createdAt: number;
}

/** A finished run's record in the shape of its result (the run's report, the live view's result); null before it ends. */
export function resultOfRecord(record: RunRecord): RunResult | null {
  if (record.endedAt === null) return null;
  return {
    exitCode: record.exitCode,
    signal: record.signal,
    timedOut: record.timedOut,
    cancelled: record.cancelled,
    stdout: record.stdout ?? '',
    stderr: record.stderr ?? '',
    droppedBytes: { stdout: record.droppedStdout, stderr: record.droppedStderr },
    durationMs: record.durationMs ?? 0,
    limitHit: record.limitHit,
  };
}

/** The report a finished run's caller got, read back from its record; null for a run that never ran or has not ended. */
export function reportOfRecord(record: RunRecord): RunReport | null {
  const result = resultOfRecord(record);
  const { command, programPath, outcome, decidedBy, reason, sandbox } = record;
  if (result === null || command === null || programPath === null || outcome === null || decidedBy === null || reason === null || sandbox === null) return null;
  return {
    id: record.id,
    traceId: record.traceId,
    skill: record.skill,
    tool: record.tool,
    command,
    programPath,
    decision: { outcome, by: decidedBy, reason, ruleId: record.ruleId, actor: record.actor },
    sandbox,
    result,
    networkDenied: record.networkDenied,
    swept: record.swept,
  };
}
