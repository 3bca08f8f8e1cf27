/**
 * The one API contract: every operation's name, its input schema (zod, validated wherever a
 * payload crosses a process boundary) and its output type. HTTP (`POST /api/<name>`), Electron IPC
 * (channel `<name>`) and the renderer's client all derive from this map; MCP tools call the same
 * operations. Errors cross every boundary as `{ code, kind, message, details? }`.
 */
import { z } from 'zod';
import type { AttachResult, DiscoverAnswer } from './agent.js';
import { ERROR_KINDS, type ErrorCode, type ErrorShape } from './errors.js';
import type { PackChange, PackInfo, ScanReport, SkillSwitch, UpdateReport } from './packs.js';
import type { McpSourceStatus, ServedDirectoryEntry, ServedFile, ServedSkillEntry, ServedSkillStatus } from './served.js';
import { BRIDGE_TRANSPORTS, LAUNCH_FORMS, type AssistantChange, type AssistantStatus, type AssistantTest, type AssistantView } from './connect.js';
import type { DoctorReport } from './doctor.js';
import type { BuildResult, OpenResult, OutlineResult, SearchResult, ShowResult, SourcesResult, StatsResult } from './gateway.js';
import {
  ATTACH_TARGETS,
  ROLES,
  type CheckReport,
  type ProjectInspection,
  type RootStatus,
  type ShadowReport,
  type Skill,
  type SkillBrief,
  type SkillSummary,
  type TrustedProject,
} from './model.js';
import {
  REMEMBER_EXPIRIES,
  REMEMBER_SCOPES,
  RUN_STATUSES,
  SURFACES,
  VERDICT_KINDS,
  type DryRun,
  type HistoryUsage,
  type MaintenanceReport,
  type Notice,
  type PendingEntry,
  type Remembered,
  type Rule,
  type PendingNotice,
  type RunNotice,
  type RunRecord,
  type RunReport,
  type RunSummary,
  type SandboxStatus,
  type Settings,
} from './runs.js';
import type { HotkeyAnswer, VoiceAnswer, VoiceSettings, VoiceStatus } from './voice.js';

const name = z.string().min(1).max(256);
const text = (max = 4096) => z.string().max(max);
const count = (max: number) => z.number().int().min(0).max(max);
/** Tool arguments: a JSON object; the core checks each value against the tool's Parameters table. */
const args = z.record(z.string(), z.unknown());
const id = z.string().min(1).max(128);
const numericId = z.number().int().positive();

const runInput = z.strictObject({
  skill: name,
  tool: name,
  args: args.optional(),
  /** An existing absolute directory on the machine running Skilltray (default: the owner's, the user's home). */
  cwd: text().optional(),
  /** Correlates the run with the caller's own trace; generated when absent. */
  trace_id: text(256).optional(),
  /** `voice`: the assistant asks on something the person said; a writing tool then never runs on a remembered Always (docs/voice.md). */
  channel: z.enum(['voice']).optional(),
});

/** Where a pack comes from: SOURCE, --ref, --path, --as. */
const packSource = z.strictObject({ source: text().min(1), ref: text(256).optional(), path: text().optional(), as: text(64).optional() });
/** A scan report's digest: what the person saw and confirmed (a click, never a blanket yes over the wire). */
const digest = z.string().regex(/^[0-9a-f]{64}$/, 'the digest of the scan report you confirmed');

/** ADR-001's list filters (domain, role, classification status) and paging. */
const listInput = z.strictObject({
  domain: text(256).optional(),
  role: z.enum(ROLES).optional(),
  /** The classification status (stable, experimental, …), not the load state. */
  status: text(64).optional(),
  /** Only skills whose tools are offered in the current mode. */
  offered_only: z.boolean().optional(),
  offset: count(1_000_000).optional(),
  limit: z.number().int().min(1).max(10_000).optional(),
});

/** Input schemas, one per operation. */
export const inputs = {
  /** Skills, optionally filtered as ADR-001's list (domain, role, classification status), paged. */
  list: listInput,
  /** The same list in brief: name, one line, tool names, trust and sandbox (an assistant's first look). */
  listBrief: listInput,
  describe: z.strictObject({ skill: name }),
  check: z.strictObject({ target: text() }),
  roots: z.strictObject({}),
  /** What this machine has for Skilltray: containment, roots and how each is watched, assistants, voice, Node. */
  doctor: z.strictObject({}),
  resolve: z.strictObject({ skill: name, args: z.array(text()).max(256) }),

  run: runInput,
  dryRun: runInput.omit({ trace_id: true }),
  cancelRun: z.strictObject({ id }),
  history: z.strictObject({
    skill: name.optional(),
    tool: name.optional(),
    status: z.enum(RUN_STATUSES).optional(),
    surface: z.enum(SURFACES).optional(),
    /** Only the runs this assistant asked for (an assistant's own history is always only its own). */
    assistant: name.optional(),
    since: z.number().int().optional(),
    until: z.number().int().optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    offset: count(1_000_000).optional(),
  }),
  getRun: z.strictObject({ id }),

  approvals: z.strictObject({}),
  /**
   * `expires` and `scope` apply to `always`: until revoked (default) or for this session of the app;
   * in the run's folder (default) or in any folder (`anywhere`, offered for read-only runs only).
   */
  answerApproval: z.strictObject({
    id,
    verdict: z.enum(VERDICT_KINDS),
    expires: z.enum(REMEMBER_EXPIRIES).optional(),
    scope: z.enum(REMEMBER_SCOPES).optional(),
  }),
  rules: z.strictObject({}),
  addRule: z.strictObject({ pattern: text(512), effect: z.enum(['allow', 'deny']) }),
  removeRule: z.strictObject({ id: numericId }),
  remembered: z.strictObject({}),
  revokeRemembered: z.strictObject({ id: numericId }),
  sandbox: z.strictObject({}),
  /** `sandboxed: false` takes a skill out of the sandbox (its runs ask); only the person does this. */
  setSkillSandbox: z.strictObject({ skill: name, sandboxed: z.boolean() }),
  settings: z.strictObject({}),
  setMode: z.strictObject({ mode: text(32) }),
  setPaused: z.strictObject({ paused: z.boolean() }),
  /** The desktop app's global shortcut for the command palette, an Electron accelerator; '' for none. */
  setPaletteShortcut: z.strictObject({ shortcut: text(128) }),
  /** History retention: days of output kept, and MiB of output in all (the store checks the bounds: E100). */
  setRetention: z.strictObject({ output_days: z.number().optional(), output_max_mb: z.number().optional() }),
  /** The most of each resource a skill may ask for in `limits:` (the store checks the bounds: E100). */
  setLimitCeiling: z.strictObject({
    processes: z.number().optional(),
    memory_mb: z.number().optional(),
    file_size_mb: z.number().optional(),
    cpu_seconds: z.number().optional(),
  }),
  historyUsage: z.strictObject({}),
  maintainHistory: z.strictObject({}),
  notices: z.strictObject({}),
  dismissNotice: z.strictObject({ id: numericId }),

  outline: z.strictObject({ skill: text(), level: z.number().int().optional() }),
  show: z.strictObject({ skill: text(), section: text(1024), file: text().optional(), max_lines: count(10_000_000).optional() }),
  open: z.strictObject({ skill: text(), path: text(), max_lines: count(10_000_000).optional() }),
  sources: z.strictObject({
    skill: text(),
    depth: z.number().int().optional(),
    dir: text().optional(),
    limit: z.number().int().optional(),
    pattern: text(512).optional(),
  }),
  search: z.strictObject({ skill: text(), query: text(1024), limit: z.number().int().min(1).max(1000).optional() }),
  searchAll: z.strictObject({ query: text(1024), limit: z.number().int().min(1).max(1000).optional(), prefix: z.boolean().optional() }),
  build: z.strictObject({ skill: text(), verify: z.boolean().optional() }),
  stats: z.strictObject({
    skill: text(),
    group_by: text(32).optional(),
    since: text(64).optional(),
    until: text(64).optional(),
    project: z.array(text()).max(64).optional(),
  }),

  discover: z.strictObject({
    intent: text(2048),
    domain: z.union([text(256), z.array(text(256)).max(32)]).optional(),
    role_filter: z.enum(ROLES).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  }),
  attach: z.strictObject({
    skill_id: name,
    tool: name.optional(),
    target_type: z.enum(ATTACH_TARGETS),
    target_ref: text(4096).min(1),
    inputs: args.optional(),
    /** Where the tool runs, and so what a relative target path means (default: the user's home). */
    cwd: text().optional(),
    trace_id: text(256).optional(),
  }),

  /** Turns a skill on or off, everywhere or in one mode (Global, Dev, Meeting). */
  setSkillEnabled: z.strictObject({ skill: name, enabled: z.boolean(), mode: text(32).optional() }),
  /** Installed packs. */
  packs: z.strictObject({}),
  /** Fetches and scans a source (a git URL or repository, a folder, a .zip or .tar.gz on this machine) without installing it. */
  scanPack: packSource,
  /** Installs a pack: `confirm` is the digest of the scan report the person confirmed. */
  installPack: packSource.extend({ confirm: digest, force: z.boolean().optional() }),
  /** What updating a pack would change. */
  checkPackUpdate: z.strictObject({ pack: name }),
  /** Updates a pack: `confirm` is the digest of the update report's scan the person confirmed. */
  updatePack: z.strictObject({ pack: name, confirm: digest, force: z.boolean().optional() }),
  uninstallPack: z.strictObject({ pack: name }),

  /** The MCP clients Skilltray connects; `test` also starts each connected bridge and completes an MCP handshake. */
  assistants: z.strictObject({ test: z.boolean().optional() }),
  /** Adds Skilltray to a client's config (`dry_run`: only the diff); `transport` stdio or http, `via` which program starts the bridge. */
  connectAssistant: z.strictObject({
    client: name,
    dry_run: z.boolean().optional(),
    transport: z.enum(BRIDGE_TRANSPORTS).optional(),
    via: z.enum(LAUNCH_FORMS).optional(),
  }),
  /** Removes exactly Skilltray's entry from a client's config (`dry_run`: only the diff). */
  disconnectAssistant: z.strictObject({ client: name, dry_run: z.boolean().optional() }),
  /** Whether what connect writes for a client completes an MCP handshake here. */
  testAssistant: z.strictObject({ client: name, transport: z.enum(BRIDGE_TRANSPORTS).optional(), via: z.enum(LAUNCH_FORMS).optional() }),
  /** What one client sees now: its entry (`test`: with a handshake), its credential, the skills and tools offered to it, its latest runs. */
  assistantView: z.strictObject({ client: name, test: z.boolean().optional() }),

  /** Project folders whose skills (.claude/skills, .agents/skills) the person trusts. */
  projects: z.strictObject({}),
  /** What a project folder's skills are now, and the digest trusting them pins. */
  inspectProject: z.strictObject({ path: text().min(1) }),
  /** Trusts a project folder's skills as the person saw them: `confirm` is inspectProject's digest. */
  trustProject: z.strictObject({ path: text().min(1), confirm: z.string().regex(/^[0-9a-f]{64}$/, "the digest of the project's skills you confirmed") }),
  untrustProject: z.strictObject({ path: text().min(1) }),

  /** Skills over MCP (SEP-2640), served: the enabled skills offered now as `skills/list` entries, a page at a time. */
  servedSkills: z.strictObject({ cursor: text(1024).optional(), limit: z.number().int().min(1).max(100).optional() }),
  /** One served skill's entry (`skills/get`). */
  servedSkill: z.strictObject({ skill: name }),
  /** One file of a served skill, with its digest (`resources/read` of a `skill://` URI). */
  servedFile: z.strictObject({ skill: name, path: text() }),
  /** The direct children of a folder of a served skill ('' for its own folder; `resources/directory/read`). */
  servedDirectory: z.strictObject({ skill: name, dir: text(), cursor: text(1024).optional() }),

  /** Skills over MCP, taken: the MCP servers added as sources of skills, and what each serves. */
  mcpSources: z.strictObject({}),
  /** Adds an MCP server as a source: a command Skilltray starts (stdio), or a Streamable HTTP URL; its skills are fetched at once. */
  addMcpSource: z.strictObject({
    name,
    command: z.array(text()).min(1).max(256).optional(),
    env: z.record(z.string().max(256), text()).optional(),
    url: text().optional(),
    headers: z.record(z.string().max(256), text()).optional(),
  }),
  /** Removes a source, its cached files and its approvals. */
  removeMcpSource: z.strictObject({ name }),
  /** Fetches a source's skills again (every source's without a name); a skill whose files changed is asked for again. */
  refreshMcpSources: z.strictObject({ name: name.optional() }),
  /** Approves a served skill as the person saw it (`confirm`: its digest); `grants` also honours what it declares (reads, writes, limits, network…). */
  approveServedSkill: z.strictObject({
    skill: name,
    confirm: z.string().regex(/^[0-9a-f]{64}$/, 'the digest of the served skill you confirmed'),
    grants: z.boolean().optional(),
  }),

  health: z.strictObject({}),

  /** Voice here: the person's voice settings, and whether answers can be heard and prompts spoken (docs/voice.md). */
  voice: z.strictObject({}),
  /** Turns spoken prompts and voice answers on or off; sets the hotkeys that answer the newest request ('' for none). */
  setVoice: z.strictObject({ enabled: z.boolean().optional(), run_shortcut: text(128).optional(), deny_shortcut: text(128).optional() }),
  /** The person answers pending request `id` aloud: `wav` is base64 of a 16 kHz mono 16-bit PCM WAV (at most 2 MiB and 10 s). */
  answerApprovalByVoice: z.strictObject({ id, wav: z.string().max(4 * 1024 * 1024) }),
  /** The person's hotkey on the newest pending request: deny, or run (a writing tool only on a second press within 2 s). */
  answerNewestApproval: z.strictObject({ verdict: z.enum(['run', 'deny']) }),
  /** Says `text` aloud on the computer that owns runs (the app's fallback when its window has no voice). */
  speak: z.strictObject({ text: text(1000).min(1) }),
} as const;

export type OperationName = keyof typeof inputs;
export const OPERATIONS = Object.keys(inputs) as OperationName[];

/**
 * Whose an operation is. The person's: answering approvals, rules and remembered approvals, the
 * sandbox, limits, modes and settings, switches, packs, projects, connecting assistants — anything
 * that decides what runs or changes Skilltray. An assistant's: listing, reading, searching,
 * discovering, asking for runs, attaching, and its own runs (history, getRun and cancelRun answer an
 * assistant about the runs its credential asked for, nothing else). The person may call both kinds.
 * core/authority.ts says who a caller is; callOperation refuses a person's operation to an
 * assistant (E814, HTTP 403). docs/security.md#who-holds-what lists this table in words.
 */
export type Authority = 'person' | 'assistant';

/** Every operation's authority: an operation added to `inputs` without one here does not compile. */
export const AUTHORITY: { readonly [K in OperationName]: Authority } = {
  list: 'assistant',
  listBrief: 'assistant',
  describe: 'assistant',
  check: 'assistant',
  roots: 'person',
  doctor: 'person',
  resolve: 'assistant',
  run: 'assistant',
  dryRun: 'assistant',
  cancelRun: 'assistant',
  history: 'assistant',
  getRun: 'assistant',
  approvals: 'person',
  answerApproval: 'person',
  rules: 'person',
  addRule: 'person',
  removeRule: 'person',
  remembered: 'person',
  revokeRemembered: 'person',
  sandbox: 'person',
  setSkillSandbox: 'person',
  settings: 'person',
  setMode: 'person',
  setPaused: 'person',
  setPaletteShortcut: 'person',
  setRetention: 'person',
  setLimitCeiling: 'person',
  historyUsage: 'person',
  maintainHistory: 'person',
  notices: 'person',
  dismissNotice: 'person',
  outline: 'assistant',
  show: 'assistant',
  open: 'assistant',
  sources: 'assistant',
  search: 'assistant',
  searchAll: 'assistant',
  build: 'person',
  stats: 'person',
  discover: 'assistant',
  attach: 'assistant',
  setSkillEnabled: 'person',
  packs: 'person',
  scanPack: 'person',
  installPack: 'person',
  checkPackUpdate: 'person',
  updatePack: 'person',
  uninstallPack: 'person',
  assistants: 'person',
  connectAssistant: 'person',
  disconnectAssistant: 'person',
  testAssistant: 'person',
  assistantView: 'person',
  projects: 'person',
  inspectProject: 'person',
  trustProject: 'person',
  untrustProject: 'person',
  servedSkills: 'assistant',
  servedSkill: 'assistant',
  servedFile: 'assistant',
  servedDirectory: 'assistant',
  mcpSources: 'person',
  addMcpSource: 'person',
  removeMcpSource: 'person',
  refreshMcpSources: 'person',
  approveServedSkill: 'person',
  health: 'person',
  voice: 'person',
  setVoice: 'person',
  answerApprovalByVoice: 'person',
  answerNewestApproval: 'person',
  speak: 'person',
};

/**
 * Who is calling, as core/authority.ts decided from the credential and the surface: the person, or
 * an assistant by the name its credential was issued under (`codex`, or `mcp` for the stdio bridge).
 * Call results may depend on it (`ctx.caller.kind`): what is the person's alone is never handed to an assistant.
 */
export type Caller = { kind: 'person' } | { kind: 'assistant'; name: string };

export type OperationInput<K extends OperationName> = z.input<(typeof inputs)[K]>;

/** Who is running: lets a CLI or MCP bridge find the app that owns runs. */
export interface Health {
  app: 'skilltray';
  version: string;
  pid: number;
  home: string;
  /** 'app' for the tray app, 'serve' for `skilltray serve`. */
  owner: 'app' | 'serve';
  settings: Settings;
  pending: number;
}

/** Output type of each operation. */
export interface OperationOutputs {
  list: { skills: SkillSummary[]; shadowed: ShadowReport[]; total: number };
  listBrief: { skills: SkillBrief[]; total: number };
  describe: Skill;
  check: CheckReport;
  roots: { home: string; roots: RootStatus[] };
  doctor: DoctorReport;
  resolve: { skill: string; arguments: string[]; prompt: string };
  run: RunReport;
  dryRun: DryRun;
  cancelRun: { ok: true };
  history: RunSummary[];
  getRun: RunRecord;
  approvals: PendingEntry[];
  answerApproval: { ok: true };
  rules: Rule[];
  addRule: Rule;
  removeRule: { ok: true };
  remembered: Remembered[];
  revokeRemembered: { ok: true };
  sandbox: SandboxStatus;
  setSkillSandbox: SandboxStatus;
  settings: Settings;
  setMode: Settings;
  setPaused: Settings;
  setPaletteShortcut: Settings;
  setRetention: Settings;
  setLimitCeiling: Settings;
  historyUsage: HistoryUsage & { lastMaintenance: MaintenanceReport | null };
  maintainHistory: MaintenanceReport;
  notices: Notice[];
  dismissNotice: { ok: true };
  outline: OutlineResult;
  show: ShowResult;
  open: OpenResult;
  sources: SourcesResult;
  search: SearchResult;
  searchAll: SearchResult;
  build: BuildResult & { skill: string };
  stats: StatsResult;
  discover: DiscoverAnswer;
  attach: AttachResult;
  setSkillEnabled: SkillSwitch[];
  packs: PackInfo[];
  scanPack: ScanReport;
  installPack: PackChange;
  checkPackUpdate: UpdateReport;
  updatePack: PackChange;
  uninstallPack: PackChange;
  assistants: AssistantStatus[];
  connectAssistant: AssistantChange;
  disconnectAssistant: AssistantChange;
  testAssistant: AssistantTest;
  assistantView: AssistantView;
  projects: TrustedProject[];
  inspectProject: ProjectInspection;
  trustProject: TrustedProject;
  untrustProject: { ok: true };
  servedSkills: { skills: ServedSkillEntry[]; nextCursor: string | null };
  servedSkill: ServedSkillEntry;
  servedFile: ServedFile;
  servedDirectory: { entries: ServedDirectoryEntry[]; nextCursor: string | null };
  mcpSources: McpSourceStatus[];
  addMcpSource: McpSourceStatus;
  removeMcpSource: { ok: true };
  refreshMcpSources: McpSourceStatus[];
  approveServedSkill: ServedSkillStatus;
  health: Health;
  voice: { settings: VoiceSettings; status: VoiceStatus };
  setVoice: VoiceSettings;
  answerApprovalByVoice: VoiceAnswer;
  answerNewestApproval: HotkeyAnswer;
  speak: { ok: true };
}

export type OperationOutput<K extends OperationName> = OperationOutputs[K];

/** What a transport returns for one call. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ErrorShape };

/** Pushed to the UI (IPC) and to `GET /api/events` subscribers (server-sent events). */
export type ServerEvent =
  | { type: 'approval.added'; entry: PendingNotice }
  | { type: 'approval.resolved'; id: string; outcome: 'verdict' | 'timeout' | 'cancelled' }
  | { type: 'run'; event: RunNotice }
  | { type: 'skills.changed'; kind: 'added' | 'changed' | 'removed'; name: string }
  /** The search catalog is reading skills that changed: `done` of `total` (when they are equal, searches see them all). */
  | { type: 'index.progress'; done: number; total: number }
  | { type: 'settings'; settings: Settings }
  /** A rule was added or removed, or an approval remembered or revoked: refetch rules and remembered. */
  | { type: 'policy.changed' }
  /** Something the person must be told (state.db was damaged and recovered); shown until dismissed. */
  | { type: 'notice'; notice: Notice }
  | { type: 'notice.dismissed'; id: number }
  /** The person's voice settings changed. */
  | { type: 'voice'; settings: VoiceSettings };

/** An error received from the other side of a transport, with its code, kind and details. */
export class SkilltrayClientError extends Error {
  override readonly name = 'SkilltrayClientError';
  readonly code: ErrorCode;
  readonly kind: ErrorShape['kind'];
  readonly details: Record<string, unknown> | undefined;

  constructor(shape: ErrorShape) {
    super(shape.message);
    this.code = Object.hasOwn(ERROR_KINDS, shape.code) ? shape.code : 'E999';
    this.kind = ERROR_KINDS[this.code];
    this.details = shape.details;
  }
}

/** A client with one typed method per operation. */
export type SkilltrayClient = { [K in OperationName]: (input: OperationInput<K>) => Promise<OperationOutput<K>> };

/** Builds the typed client over a transport (HTTP fetch, or the preload's IPC bridge). */
export function createClient(call: (operation: OperationName, input: unknown) => Promise<Envelope<unknown>>): SkilltrayClient {
  const client = {} as Record<OperationName, (input: unknown) => Promise<unknown>>;
  for (const operation of OPERATIONS) {
    client[operation] = async (input) => {
      const envelope = await call(operation, input);
      if (!envelope.ok) throw new SkilltrayClientError(envelope.error);
      return envelope.value;
    };
  }
  return client as unknown as SkilltrayClient;
}

/** Windows the desktop app can open, each a route of the UI. */
export const WINDOW_ROUTES = ['skills', 'approvals', 'history', 'settings', 'tray', 'palette'] as const;
export type WindowRoute = (typeof WINDOW_ROUTES)[number];

/** Operations only the desktop app has (over IPC): they act on windows and the OS, not on skills. */
export const desktopInputs = {
  openWindow: z.strictObject({ route: z.enum(WINDOW_ROUTES) }),
  openSkillsFolder: z.strictObject({}),
  quit: z.strictObject({}),
} as const;

export type DesktopOperationName = keyof typeof desktopInputs;
export const DESKTOP_OPERATIONS = Object.keys(desktopInputs) as DesktopOperationName[];

/** The IPC channel of an operation: one per operation, generated on both sides from these lists. */
export function ipcChannel(operation: OperationName | DesktopOperationName): string {
  return `skilltray:${operation}`;
}

/** The channel main pushes ServerEvents on. */
export const IPC_EVENT_CHANNEL = 'skilltray:event';

/** The channel a page says on that it listens for events: main holds them for the page until then. */
export const IPC_READY_CHANNEL = 'skilltray:ready';

/** What the preload exposes to the renderer as `window.skilltray`. */
export interface PreloadApi {
  invoke(operation: OperationName | DesktopOperationName, input: unknown): Promise<Envelope<unknown>>;
  onEvent(listener: (event: ServerEvent) => void): () => void;
  platform: string;
}
