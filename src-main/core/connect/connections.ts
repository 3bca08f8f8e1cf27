/**
 * Connecting assistants, whole: which clients are on this machine and whether they name Skilltray,
 * connecting one (the entry checked with a real MCP handshake before anything is written, the diff
 * shown, a backup kept, the write atomic), disconnecting it (exactly Skilltray's entry removed), and
 * testing it. The core API's connect methods are this; every surface reaches it through them.
 */
import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import {
  ASSISTANT_IDS,
  LAUNCH_FORMS,
  type AssistantChange,
  type AssistantStatus,
  type AssistantTest,
  type BridgeCommand,
  type BridgeTransport,
  type ConfigSyntax,
  type LaunchForm,
} from '../../shared/connect.js';
import type { CoreConfig } from '../config.js';
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
  /** The owner's /mcp endpoint (http), when the caller knows it better than this process does. */
  endpoint?: McpEndpoint;
}

export interface ConnectionsOptions {
  /** Default: this process's platform (tests give another to check its locations). */
  platform?: NodeJS.Platform;
  /** How long a handshake may take. */
  handshakeTimeoutMs?: number;
  /** Where this process serves MCP over HTTP, when it owns runs (null otherwise). */
  endpoint?: () => McpEndpoint | null;
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
  return typeof entry === 'object' && entry !== null && ['url', 'serverUrl', 'uri'].some((key) => key in entry) ? 'http' : 'stdio';
}

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

  private currentEndpoint(given: McpEndpoint | undefined): McpEndpoint | null {
    return given ?? this.options.endpoint?.() ?? null;
  }

  /** The entry `connect` writes for `spec`, and what the handshake starts or calls to check it. */
  private wanted(
    spec: ClientSpec,
    options: ConnectOptions,
  ): { entry: Record<string, unknown>; transport: BridgeTransport; target: BridgeCommand | McpEndpoint } {
    const transport = options.transport ?? spec.prefers;
    if (transport === 'http') {
      if (spec.http === undefined)
        throw connectErrors.transportNotAvailable(`${spec.name} takes no URL; connect it over stdio`, { client: spec.id, transport });
      const endpoint = this.currentEndpoint(options.endpoint);
      if (endpoint === null) {
        throw connectErrors.transportNotAvailable('no Skilltray app or serve is running to serve /mcp: start one, or connect over stdio', {
          client: spec.id,
          transport,
        });
      }
      return { entry: spec.http(endpoint), transport, target: endpoint };
    }
    const form = options.via ?? defaultForm(this.config);
    const bridge = bridgeCommand(this.config, form);
    if ('unavailable' in bridge) throw connectErrors.notWorking(spec.name, `${form}: ${bridge.unavailable}`);
    return { entry: spec.stdio(bridge), transport, target: bridge };
  }

  /** What `entry` starts or calls when it is one `connect` would write now (any launch form; the URL of this owner), else null. */
  private currentTarget(spec: ClientSpec, entry: unknown): BridgeCommand | McpEndpoint | null {
    const endpoint = this.currentEndpoint(undefined);
    const targets: [Record<string, unknown>, BridgeCommand | McpEndpoint][] = [
      ...this.bridges().map((bridge): [Record<string, unknown>, BridgeCommand] => [spec.stdio(bridge), bridge]),
      ...(spec.http && endpoint ? [[spec.http(endpoint), endpoint] as [Record<string, unknown>, McpEndpoint]] : []),
    ];
    return targets.find(([candidate]) => isDeepStrictEqual(candidate, entry))?.[1] ?? null;
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

  /** Every client: where its config is, whether it is here, whether it names Skilltray, and (with `test`) whether that works. */
  async list(options: { test?: boolean } = {}): Promise<AssistantStatus[]> {
    return Promise.all(
      CLIENTS.map(async (spec): Promise<AssistantStatus> => {
        const configPath = spec.configFile(this.places);
        const status: AssistantStatus = {
          id: spec.id,
          name: spec.name,
          syntax: spec.syntax,
          configPath,
          foundBy: configPath === null ? null : this.foundBy(spec),
          state: null,
          transport: null,
          error: null,
          works: null,
          worksError: null,
          transports: transportsOf(spec),
          docs: spec.docs,
        };
        if (configPath === null || status.foundBy === null) return status;
        let target: BridgeCommand | McpEndpoint | null;
        try {
          const entry = (await this.open(spec, readConfig(configPath))).entry(ENTRY_NAME);
          target = entry === undefined ? null : this.currentTarget(spec, entry);
          status.state = entry === undefined ? 'not_connected' : target !== null ? 'connected' : 'outdated';
          status.transport = entry === undefined ? null : transportOf(entry);
        } catch (error) {
          status.error = toSkilltrayError(error).toJSON();
          return status;
        }
        // Only what Skilltray would write is started: an entry someone else changed is not run to find out.
        if (options.test && target !== null) {
          const result = await handshake(target, this.config.env, this.options.handshakeTimeoutMs);
          status.works = result.works;
          status.worksError = result.works ? null : result.error;
        }
        return status;
      }),
    );
  }

  private async check(
    spec: ClientSpec,
    options: ConnectOptions,
  ): Promise<HandshakeResult & { target: BridgeCommand | McpEndpoint; transport: BridgeTransport }> {
    const { target, transport } = this.wanted(spec, options);
    const result = await handshake(target, this.config.env, this.options.handshakeTimeoutMs);
    return { ...result, target, transport };
  }

  /** Whether what `connect` writes for `id` completes an MCP handshake here. */
  async test(id: string, options: ConnectOptions = {}): Promise<AssistantTest> {
    const spec = this.spec(id);
    const result = await this.check(spec, options);
    const target = 'command' in result.target ? result.target : { url: result.target.url };
    return {
      client: spec.id,
      transport: result.transport,
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
    const { entry, transport } = this.wanted(spec, options);
    const after = isDeepStrictEqual(document.entry(ENTRY_NAME), entry) ? file.text : document.withEntry(ENTRY_NAME, entry);
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
    const checked = await this.check(spec, options);
    if (!checked.works) throw connectErrors.notWorking(spec.name, checked.error);
    change.works = true;
    if (change.changed) change.backup = writeConfig(file, after);
    return change;
  }

  /** Removes exactly Skilltray's entry from the client's config (a backup kept); with dryRun, only the diff. */
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
    if (!change.dryRun && change.changed) change.backup = writeConfig(file, after);
    return change;
  }
}
