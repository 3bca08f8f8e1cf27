/**
 * Connecting assistants, whole: which clients are on this machine and whether they name Skilltray,
 * connecting one (the entry checked with a real MCP handshake before anything is written, the diff
 * shown, a backup kept, the write atomic), disconnecting it (exactly Skilltray's entry removed), and
 * testing it. The core API's connect methods are this; every surface reaches it through them.
 *
 * A URL entry carries an assistant token issued to that client alone (credentials/assistant-tokens.ts),
 * never the person's: connecting issues it, connecting again keeps it, disconnecting withdraws it. An
 * entry that holds the person's token (written before assistants had tokens of their own) is listed
 * as outdated, and connecting again replaces it.
 */
import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import {
  ASSISTANT_IDS,
  LAUNCH_FORMS,
  type AssistantChange,
  type AssistantCredential,
  type AssistantStatus,
  type AssistantView,
  type AssistantTest,
  type BridgeCommand,
  type BridgeTransport,
  type ConfigSyntax,
  type LaunchForm,
} from '../../shared/connect.js';
import { BRIDGE_ASSISTANT } from '../authority.js';
import type { CoreConfig } from '../config.js';
import { assistantOf, issueAssistantToken, newAssistantToken, withdrawAssistant, withdrawAssistantToken } from '../credentials/assistant-tokens.js';
import { readToken } from '../credentials/person-token.js';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import { resolveProgram } from '../process/resolve-program.js';
import { bridgeCommand, defaultForm } from './bridge-command.js';
import { CLIENTS, ENTRY_NAME, clientSpec, markerFolder, placesOf, transportsOf, type ClientSpec, type McpEndpoint, type Places } from './clients.js';
import type { OpenDocument, ServersDocument } from './config-document.js';
import { configDiff, readConfig, writeConfig, type ConfigText } from './config-file.js';
import { connectErrors } from '../../shared/error-messages/connect.js';
import { handshake, type HandshakeResult } from './handshake.js';

export interface ConnectOptions {
  dryRun?: boolean;
  /** Default: the client's preferred transport, stdio for every client today. */
  transport?: BridgeTransport;
  /** Which program starts the bridge (stdio); default: the app's executable in a package, else Node. */
  via?: LaunchForm;
  /** The running owner's /mcp URL, when the caller knows it better than this process does (the CLI, which does not own runs). */
  mcpUrl?: string;
}

export interface ConnectionsOptions {
  /** Default: this process's platform (tests give another to check its locations). */
  platform?: NodeJS.Platform;
  /** How long a handshake may take. */
  handshakeTimeoutMs?: number;
  /** The URL of /mcp this process serves, when it owns runs (null otherwise). */
  mcpUrl?: () => string | null;
}

/** The format module of each syntax, loaded when a file of it is read. */
const FORMATS: Record<ConfigSyntax, () => Promise<OpenDocument>> = {
  json: async () => (await import('./jsonc-document.js')).openJsonc,
  jsonc: async () => (await import('./jsonc-document.js')).openJsonc,
  toml: async () => (await import('./toml-document.js')).openToml,
  yaml: async () => (await import('./yaml-document.js')).openYaml,
};

/** The entry names a transport by the keys only a URL entry has. */
function transportOf(entry: unknown): BridgeTransport {
  return typeof entry === 'object' && entry !== null && ['url', 'serverUrl', 'uri'].some((key) => Object.hasOwn(entry, key)) ? 'http' : 'stdio';
}

/** Every string in a config entry, however deep. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(stringsOf);
}

/** The token an entry sends as `Bearer <token>`, or null. */
function bearerOf(entry: unknown): string | null {
  for (const text of stringsOf(entry)) {
    const match = /^Bearer (\S+)$/.exec(text);
    if (match) return match[1] as string;
  }
  return null;
}

/** One client as found: its status, its entry (undefined when it has none or it cannot be read), and the tools a handshake listed. */
interface Found {
  status: AssistantStatus;
  entry: unknown;
  tools: string[] | null;
}

/** One client and what it holds: its status, its entry's credential, the assistant it acts as, the MCP tools its handshake listed. */
export type ClientHolding = Pick<AssistantView, 'status' | 'credential' | 'actsAs' | 'mcpTools'>;

/** The assistant a credential makes its holder: every call through /mcp or the bridge is an assistant's (core/authority.ts). */
function actsAs(credential: AssistantCredential): string | null {
  switch (credential.kind) {
    case 'bridge':
    case 'person_token':
      return BRIDGE_ASSISTANT;
    case 'assistant_token':
      return credential.name;
    case 'unknown_token':
    case 'no_token':
      return null;
  }
}

/** What a dry run shows in place of an assistant token a real connect would issue. */
export const TOKEN_ISSUED_ON_CONNECT = 'sta_<issued by connect>';

export class AssistantConnections {
  private readonly platform: NodeJS.Platform;

  constructor(
    private readonly config: CoreConfig,
    private readonly options: ConnectionsOptions = {},
  ) {
    this.platform = options.platform ?? process.platform;
  }

  private get places(): Places {
    return placesOf(this.config.env, this.platform);
  }

  private spec(id: string): ClientSpec {
    const spec = clientSpec(id);
    if (spec === undefined) throw connectErrors.unknownClient(id, ASSISTANT_IDS);
    return spec;
  }

  /** How the client was found: its folder, or its program on PATH; null when it was not. */
  private foundBy(spec: ClientSpec): AssistantStatus['foundBy'] {
    const folder = markerFolder(spec, this.places);
    if (folder !== null && existsSync(folder)) return 'folder';
    if (spec.programs.some((program) => resolveProgram(program, this.config.env, this.places.home, this.platform) !== null)) return 'binary';
    return null;
  }

  private async open(spec: ClientSpec, file: ConfigText): Promise<ServersDocument> {
    return (await FORMATS[spec.syntax]())(file.text, spec.serversKey, file.path);
  }

  /** Every bridge command this installation can write, the default form first. */
  private bridges(): BridgeCommand[] {
    const first = defaultForm(this.config);
    return [first, ...LAUNCH_FORMS.filter((form) => form !== first)].flatMap((form) => {
      const command = bridgeCommand(this.config, form);
      return 'unavailable' in command ? [] : [command];
    });
  }

  private currentUrl(given: string | undefined): string | null {
    return given ?? this.options.mcpUrl?.() ?? null;
  }

  /** The assistant token `entry` holds when it is one issued to this very client, else null. */
  private clientToken(spec: ClientSpec, entry: unknown): string | null {
    const token = bearerOf(entry);
    return token !== null && assistantOf(this.config.home, token) === spec.id ? token : null;
  }

  /** The client's entry as its config holds it now; undefined when it has none or the file cannot be read. */
  private async existingEntry(spec: ClientSpec): Promise<unknown> {
    const path = spec.configFile(this.places);
    if (path === null) return undefined;
    try {
      return (await this.open(spec, readConfig(path))).entry(ENTRY_NAME);
    } catch {
      return undefined;
    }
  }

  /**
   * The entry `connect` writes for `spec`, and what the handshake starts or calls to check it. A URL
   * entry carries the client's own assistant token: the one `existing` holds, when it was issued to
   * this client, else a fresh one (`fresh`), not issued yet.
   */
  private wanted(
    spec: ClientSpec,
    options: ConnectOptions,
    existing: unknown,
  ): { entry: Record<string, unknown>; transport: BridgeTransport; target: BridgeCommand | McpEndpoint; fresh: string | null } {
    const transport = options.transport ?? spec.prefers;
    if (transport === 'http') {
      if (spec.http === undefined)
        throw connectErrors.transportNotAvailable(`${spec.name} takes no URL; connect it over stdio`, { client: spec.id, transport });
      const url = this.currentUrl(options.mcpUrl);
      if (url === null) {
        throw connectErrors.transportNotAvailable('no Skilltray app or serve is running to serve /mcp: start one, or connect over stdio', {
          client: spec.id,
          transport,
        });
      }
      const held = this.clientToken(spec, existing);
      // A dry run issues nothing, so its diff shows where the token goes, not one that will never be issued.
      const endpoint = { url, token: held ?? (options.dryRun === true ? TOKEN_ISSUED_ON_CONNECT : newAssistantToken()) };
      return { entry: spec.http(endpoint), transport, target: endpoint, fresh: held === null && options.dryRun !== true ? endpoint.token : null };
    }
    const form = options.via ?? defaultForm(this.config);
    const bridge = bridgeCommand(this.config, form);
    if ('unavailable' in bridge) throw connectErrors.notWorking(spec.name, `${form}: ${bridge.unavailable}`);
    return { entry: spec.stdio(bridge), transport, target: bridge, fresh: null };
  }

  /** What `entry` starts or calls when it is one `connect` would write now (any launch form; this owner's URL with the client's own token), else null. */
  private currentTarget(spec: ClientSpec, entry: unknown, url: string | null): BridgeCommand | McpEndpoint | null {
    const token = this.clientToken(spec, entry);
    const endpoint = url === null || token === null ? null : { url, token };
    const targets: [Record<string, unknown>, BridgeCommand | McpEndpoint][] = [
      ...this.bridges().map((bridge): [Record<string, unknown>, BridgeCommand] => [spec.stdio(bridge), bridge]),
      ...(spec.http && endpoint ? [[spec.http(endpoint), endpoint] as [Record<string, unknown>, McpEndpoint]] : []),
    ];
    return targets.find(([candidate]) => isDeepStrictEqual(candidate, entry))?.[1] ?? null;
  }

  /**
   * Checks `wanted` with a handshake: a fresh token is issued for it first and withdrawn again unless
   * `keep` says the entry holding it is about to be written (the caller withdraws it if writing fails).
   */
  private async checked(wanted: ReturnType<AssistantConnections['wanted']>, spec: ClientSpec, keep: boolean): Promise<HandshakeResult> {
    const { home } = this.config;
    if (wanted.fresh !== null) issueAssistantToken(home, spec.id, wanted.fresh);
    let result: HandshakeResult | undefined;
    try {
      result = await handshake(wanted.target, this.config.env, this.options.handshakeTimeoutMs);
      return result;
    } finally {
      if (wanted.fresh !== null && !(keep && result?.works)) withdrawAssistantToken(home, wanted.fresh);
    }
  }

  private configPath(spec: ClientSpec): string {
    const path = spec.configFile(this.places);
    if (path === null) throw connectErrors.notFound(spec.name, [`a ${spec.name} for ${this.platform}`]);
    return path;
  }

  private checkFound(spec: ClientSpec): void {
    if (this.foundBy(spec) !== null) return;
    const folder = markerFolder(spec, this.places);
    throw connectErrors.notFound(spec.name, [...(folder === null ? [] : [folder]), ...spec.programs.map((p) => `'${p}' on PATH`)]);
  }

  /**
   * One client: where its config is, whether it is here, whether it names Skilltray (and whether that
   * entry holds the person's token), and (with `test`) whether that works; with the entry itself and
   * the tools its handshake listed.
   */
  private async found(spec: ClientSpec, url: string | null, personToken: string | null, test: boolean): Promise<Found> {
    const configPath = spec.configFile(this.places);
    const status: AssistantStatus = {
      id: spec.id,
      name: spec.name,
      syntax: spec.syntax,
      configPath,
      foundBy: configPath === null ? null : this.foundBy(spec),
      state: null,
      transport: null,
      personToken: false,
      error: null,
      works: null,
      worksError: null,
      transports: transportsOf(spec),
      docs: spec.docs,
    };
    if (configPath === null || status.foundBy === null) return { status, entry: undefined, tools: null };
    let entry: unknown;
    let target: BridgeCommand | McpEndpoint | null;
    try {
      entry = (await this.open(spec, readConfig(configPath))).entry(ENTRY_NAME);
      target = entry === undefined ? null : this.currentTarget(spec, entry, url);
      status.state = entry === undefined ? 'not_connected' : target !== null ? 'connected' : 'outdated';
      status.transport = entry === undefined ? null : transportOf(entry);
      status.personToken = personToken !== null && stringsOf(entry).some((text) => text.includes(personToken));
    } catch (error) {
      status.error = toSkilltrayError(error).toJSON();
      return { status, entry: undefined, tools: null };
    }
    // Only what Skilltray would write is started: an entry someone else changed is not run to find out.
    if (!test || target === null) return { status, entry, tools: null };
    const result = await handshake(target, this.config.env, this.options.handshakeTimeoutMs);
    status.works = result.works;
    status.worksError = result.works ? null : result.error;
    return { status, entry, tools: result.works ? result.tools : null };
  }

  /**
   * Every client: where its config is, whether it is here, whether it names Skilltray (and whether
   * that entry holds the person's token), and (with `test`) whether that works. `mcpUrl` is the running
   * owner's /mcp, for a caller that does not own runs: a URL entry is current only against it.
   */
  async list(options: { test?: boolean; mcpUrl?: string } = {}): Promise<AssistantStatus[]> {
    const url = this.currentUrl(options.mcpUrl);
    const personToken = readToken(this.config.home);
    return Promise.all(CLIENTS.map(async (spec) => (await this.found(spec, url, personToken, options.test ?? false)).status));
  }

  /**
   * One client as `list` finds it, with the credential its entry hands Skilltray and the assistant it
   * therefore acts as (docs/security.md#who-holds-what): its own token's name; `mcp` for the stdio
   * bridge, and for the person's token, which reaches only /mcp, where every caller is an assistant;
   * no one for a token this home does not know, or none.
   */
  async inspect(id: string, options: { test?: boolean; mcpUrl?: string } = {}): Promise<ClientHolding> {
    const spec = this.spec(id);
    const personToken = readToken(this.config.home);
    const { status, entry, tools } = await this.found(spec, this.currentUrl(options.mcpUrl), personToken, options.test ?? false);
    const credential = entry === undefined ? null : this.credentialOf(entry, status.personToken);
    return { status, credential, actsAs: credential === null ? null : actsAs(credential), mcpTools: tools };
  }

  /** What `entry` hands Skilltray; `personToken`: it holds the person's token (as `list` flags it). */
  private credentialOf(entry: unknown, personToken: boolean): AssistantCredential {
    if (personToken) return { kind: 'person_token' };
    if (transportOf(entry) === 'stdio') return { kind: 'bridge' };
    const token = bearerOf(entry);
    if (token === null) return { kind: 'no_token' };
    const name = assistantOf(this.config.home, token);
    return name === null ? { kind: 'unknown_token' } : { kind: 'assistant_token', name };
  }

  /** Whether what `connect` writes for `id` completes an MCP handshake here (a URL entry with the client's own token, or a fresh one held meanwhile). */
  async test(id: string, options: ConnectOptions = {}): Promise<AssistantTest> {
    const spec = this.spec(id);
    const wanted = this.wanted(spec, options, await this.existingEntry(spec));
    const result = await this.checked(wanted, spec, false);
    const target = 'command' in wanted.target ? wanted.target : { url: wanted.target.url };
    return {
      client: spec.id,
      transport: wanted.transport,
      works: result.works,
      tools: result.works ? result.tools : [],
      error: result.works ? null : result.error,
      target,
    };
  }

  /**
   * Adds (or brings up to date) Skilltray's entry in the client's config: checked with a handshake
   * first (E854 when it fails, and nothing is written), then written with a backup. With dryRun,
   * only the diff. Connecting again changes nothing.
   */
  async connect(id: string, options: ConnectOptions = {}): Promise<AssistantChange> {
    const spec = this.spec(id);
    const path = this.configPath(spec);
    this.checkFound(spec);
    const file = readConfig(path);
    const document = await this.open(spec, file);
    const existing = document.entry(ENTRY_NAME);
    const wanted = this.wanted(spec, options, existing);
    const { entry, transport } = wanted;
    const after = isDeepStrictEqual(existing, entry) ? file.text : document.withEntry(ENTRY_NAME, entry);
    const change: AssistantChange = {
      client: spec.id,
      name: spec.name,
      action: 'connect',
      path,
      changed: after !== file.text,
      dryRun: options.dryRun ?? false,
      diff: configDiff(path, file.text, after),
      backup: null,
      entry,
      transport,
      works: null,
    };
    if (change.dryRun) return change;
    const checked = await this.checked(wanted, spec, true);
    if (!checked.works) throw connectErrors.notWorking(spec.name, checked.error);
    change.works = true;
    const { home } = this.config;
    try {
      if (change.changed) change.backup = writeConfig(file, after);
    } catch (error) {
      if (wanted.fresh !== null) withdrawAssistantToken(home, wanted.fresh);
      throw error;
    }
    // The client holds this entry's token now, or none (stdio): any other it was given stops working.
    withdrawAssistant(home, spec.id, 'token' in wanted.target ? wanted.target.token : undefined);
    return change;
  }

  /** Removes exactly Skilltray's entry from the client's config (a backup kept) and withdraws the client's assistant tokens; with dryRun, only the diff. */
  async disconnect(id: string, options: { dryRun?: boolean } = {}): Promise<AssistantChange> {
    const spec = this.spec(id);
    const path = this.configPath(spec);
    const file = readConfig(path);
    const after = (await this.open(spec, file)).withoutEntry(ENTRY_NAME);
    const change: AssistantChange = {
      client: spec.id,
      name: spec.name,
      action: 'disconnect',
      path,
      changed: after !== file.text,
      dryRun: options.dryRun ?? false,
      diff: configDiff(path, file.text, after),
      backup: null,
      entry: null,
      transport: null,
      works: null,
    };
    if (change.dryRun) return change;
    if (change.changed) change.backup = writeConfig(file, after);
    withdrawAssistant(this.config.home, spec.id);
    return change;
  }
}
