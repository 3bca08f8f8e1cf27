/**
 * Connecting assistants: the MCP clients Skilltray can hook itself into, what it finds of each on
 * this machine, and what a connect or disconnect changed. Plain types and the client ids only.
 */
import type { ErrorShape } from './errors.js';
import type { SkillBrief } from './model.js';
import type { RunSummary } from './runs.js';

/** Every client `connect` knows, in the order it lists them. */
export const ASSISTANT_IDS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'zed', 'goose', 'codex'] as const;
export type AssistantId = (typeof ASSISTANT_IDS)[number];

/** How a client's config file is written. */
export type ConfigSyntax = 'json' | 'jsonc' | 'toml' | 'yaml';

/** How a client reaches Skilltray: it starts the bridge (`stdio`), or it calls the owner's `/mcp` URL (`http`). */
export const BRIDGE_TRANSPORTS = ['stdio', 'http'] as const;
export type BridgeTransport = (typeof BRIDGE_TRANSPORTS)[number];

/**
 * Which program starts the bridge: the packaged app's own executable run as Node (`app`), the
 * `skilltray` found on PATH (`path`), or Node with this installation's `bin/skilltray.js` (`node`).
 */
export const LAUNCH_FORMS = ['app', 'path', 'node'] as const;
export type LaunchForm = (typeof LAUNCH_FORMS)[number];

/** The command a client is told to start, with the environment that makes the bridge share the app's home. */
export interface BridgeCommand {
  form: LaunchForm;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Whether the client's config names Skilltray: as `connect` would write it now, otherwise, or not at all. */
export type ConnectionState = 'connected' | 'outdated' | 'not_connected';

/** One client as found on this machine. */
export interface AssistantStatus {
  id: AssistantId;
  name: string;
  syntax: ConfigSyntax;
  /** Its user config file here, or null where the client has none on this platform. */
  configPath: string | null;
  /** How it was found: its config folder exists, or its program is on PATH; null when not found. */
  foundBy: 'folder' | 'binary' | null;
  /** Null when the config cannot be read (see error). */
  state: ConnectionState | null;
  /** The transport of the entry Skilltray wrote, when there is one. */
  transport: BridgeTransport | null;
  /**
   * The entry holds the person's own token (an entry written before assistants had tokens of their
   * own): the client can act as the person. Listed as outdated; connecting again replaces it.
   */
  personToken: boolean;
  /** Why the config could not be read (E850 with line and column). */
  error: ErrorShape | null;
  /** Whether the bridge answered an MCP handshake; null when not tested. */
  works: boolean | null;
  /** Why it did not. */
  worksError: string | null;
  /** Transports the client takes, the one `connect` writes by default first. */
  transports: BridgeTransport[];
  /** Where the client documents its config file. */
  docs: string;
}

/** What connecting or disconnecting a client changed (or, with dry_run, would change). */
export interface AssistantChange {
  client: AssistantId;
  name: string;
  action: 'connect' | 'disconnect';
  path: string;
  /** False when the file already said what was asked: nothing was written. */
  changed: boolean;
  dryRun: boolean;
  /** A unified diff of the file, before → after ('' when nothing changes). */
  diff: string;
  /** The copy of the file as it was, written beside it before the change; null when nothing was written or there was no file. */
  backup: string | null;
  /** The entry written (connect). */
  entry: unknown;
  transport: BridgeTransport | null;
  /** The handshake of what was written (connect): the bridge is checked before anything is written. */
  works: boolean | null;
}

/** The answer of `testAssistant`: whether what `connect` writes for this client completes an MCP handshake here. */
export interface AssistantTest {
  client: AssistantId;
  transport: BridgeTransport;
  works: boolean;
  /** The tools the bridge listed. */
  tools: string[];
  error: string | null;
  /** What was started (stdio) or called (http, with the token left out). */
  target: BridgeCommand | { url: string };
}

/**
 * The credential a client's entry hands Skilltray: none, for the stdio bridge (it starts `skilltray
 * mcp`, which forwards every call as the assistant `mcp`); an assistant token, by the name it was
 * issued to (this client's own, or another's); the person's own token; a token this home never issued
 * or has withdrawn (every call refused, E802); or, in a URL entry, no token at all.
 */
export type AssistantCredential =
  { kind: 'bridge' } | { kind: 'assistant_token'; name: string } | { kind: 'person_token' } | { kind: 'unknown_token' } | { kind: 'no_token' };

/** What one client sees of Skilltray right now (Settings › Assistants, like Claude Code's `/mcp`). */
export interface AssistantView {
  /** Its entry as `assistants` lists it; with `test`, `works` is the handshake's. */
  status: AssistantStatus;
  /** What its entry holds; null when it has no entry (or its config cannot be read). */
  credential: AssistantCredential | null;
  /** The assistant name its calls are made under and its runs recorded under (history's `assistant`); null when it reaches nothing. */
  actsAs: string | null;
  /** The MCP tools its handshake listed (with `test`, when it works); null otherwise. */
  mcpTools: string[] | null;
  /** The skills an assistant is offered now, as `list` answers one with `offered_only`: turned on and offered in the current mode (the first few hundred). */
  skills: SkillBrief[];
  /** How many skills are offered in all, and their tools. */
  offered: { skills: number; tools: number };
  /** Its latest runs, newest first (history under `actsAs`); empty when it acts as no one. */
  runs: RunSummary[];
}
