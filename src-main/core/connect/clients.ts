/**
 * The MCP clients Skilltray connects, as data: where each keeps its user config on Linux, macOS and
 * Windows (from its own documentation, cited in docs/connect.md), how to tell it is installed (its
 * config folder, or its program on PATH), which map in the file holds servers, and the entry it
 * takes for a command (stdio) or, where it takes one, a URL (Streamable HTTP).
 */
import { dirname, join } from 'node:path';
import { homedir } from 'node:os';
import type { AssistantId, BridgeCommand, BridgeTransport, ConfigSyntax } from '../../shared/connect.js';

/** The folders a client's locations are written in terms of, for one platform and environment. */
export interface Places {
  platform: NodeJS.Platform;
  /** The user's home (HOME, or USERPROFILE on Windows). */
  home: string;
  /** Windows' roaming application data (APPDATA). */
  appData: string;
  /** XDG_CONFIG_HOME, else ~/.config. */
  xdgConfig: string;
  env: NodeJS.ProcessEnv;
}

/** The owner's `/mcp` endpoint and the bearer token a URL entry sends: the client's own assistant token, never the person's. */
export interface McpEndpoint {
  url: string;
  token: string;
}

export interface ClientSpec {
  id: AssistantId;
  name: string;
  syntax: ConfigSyntax;
  /** The user config file, or null where the client has none on this platform. */
  configFile(at: Places): string | null;
  /** The folder whose presence says the client is installed (default: the config file's folder). */
  marker?(at: Places): string;
  /** Programs whose presence on PATH means the client is installed. */
  programs: readonly string[];
  /** The top-level key of the servers map. */
  serversKey: string;
  /** The entry that starts the bridge. */
  stdio(bridge: BridgeCommand): Record<string, unknown>;
  /** The entry that calls the owner's /mcp endpoint, for clients that take a URL. */
  http?(endpoint: McpEndpoint): Record<string, unknown>;
  /** The transport `connect` writes unless told otherwise. */
  prefers: BridgeTransport;
  /** The client's own page saying where its config lives and what an entry holds. */
  docs: string;
}

/** What Skilltray's entry is called in every client's servers map. */
export const ENTRY_NAME = 'skilltray';

/** How long a client may wait on one tool call: an approval waits up to five minutes, plus the run. */
const TOOL_TIMEOUT_S = 360;

const bearer = (endpoint: McpEndpoint): Record<string, string> => ({ Authorization: `Bearer ${endpoint.token}` });

/** `command`, `args`, `env`: what most clients take (Claude Desktop's format). */
const plain = (bridge: BridgeCommand): Record<string, unknown> => ({ command: bridge.command, args: bridge.args, env: bridge.env });

/** A file in the folder each platform keeps application data in (Application Support, APPDATA, XDG). */
const appFolder = (at: Places, ...parts: string[]): string =>
  at.platform === 'darwin'
    ? join(at.home, 'Library', 'Application Support', ...parts)
    : at.platform === 'win32'
      ? join(at.appData, ...parts)
      : join(at.xdgConfig, ...parts);

export const CLIENTS: readonly ClientSpec[] = [
  {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    syntax: 'json',
    // There is no Claude Desktop for Linux, so no file to write there.
    configFile: (at) => (at.platform === 'linux' ? null : appFolder(at, 'Claude', 'claude_desktop_config.json')),
    programs: [],
    serversKey: 'mcpServers',
    stdio: plain,
    prefers: 'stdio',
    docs: 'https://modelcontextprotocol.io/docs/develop/connect-local-servers',
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    syntax: 'json',
    configFile: (at) => join(at.home, '.claude.json'),
    // ~/.claude.json sits in the home folder itself, which every user has.
    marker: (at) => join(at.home, '.claude'),
    programs: ['claude'],
    serversKey: 'mcpServers',
    stdio: (bridge) => ({ type: 'stdio', ...plain(bridge) }),
    http: (endpoint) => ({ type: 'http', url: endpoint.url, headers: bearer(endpoint) }),
    prefers: 'stdio',
    docs: 'https://code.claude.com/docs/en/mcp',
  },
  {
    id: 'cursor',
    name: 'Cursor',
    syntax: 'json',
    configFile: (at) => join(at.home, '.cursor', 'mcp.json'),
    programs: ['cursor'],
    serversKey: 'mcpServers',
    stdio: plain,
    http: (endpoint) => ({ url: endpoint.url, headers: bearer(endpoint) }),
    prefers: 'stdio',
    docs: 'https://cursor.com/docs/context/mcp',
  },
  {
    id: 'vscode',
    name: 'VS Code',
    syntax: 'jsonc',
    configFile: (at) => appFolder(at, 'Code', 'User', 'mcp.json'),
    programs: ['code'],
    serversKey: 'servers',
    stdio: (bridge) => ({ type: 'stdio', ...plain(bridge) }),
    http: (endpoint) => ({ type: 'http', url: endpoint.url, headers: bearer(endpoint) }),
    prefers: 'stdio',
    docs: 'https://code.visualstudio.com/docs/copilot/reference/mcp-configuration',
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    syntax: 'json',
    configFile: (at) => join(at.home, '.codeium', 'windsurf', 'mcp_config.json'),
    programs: ['windsurf'],
    serversKey: 'mcpServers',
    stdio: plain,
    http: (endpoint) => ({ serverUrl: endpoint.url, headers: bearer(endpoint) }),
    prefers: 'stdio',
    docs: 'https://docs.windsurf.com/windsurf/cascade/mcp',
  },
  {
    id: 'zed',
    name: 'Zed',
    syntax: 'jsonc',
    configFile: (at) =>
      at.platform === 'win32'
        ? join(at.appData, 'Zed', 'settings.json')
        : at.platform === 'darwin'
          ? join(at.home, '.config', 'zed', 'settings.json')
          : join(at.xdgConfig, 'zed', 'settings.json'),
    programs: ['zed', 'zeditor'],
    serversKey: 'context_servers',
    stdio: plain,
    prefers: 'stdio',
    docs: 'https://zed.dev/docs/ai/mcp',
  },
  {
    id: 'goose',
    name: 'goose',
    syntax: 'yaml',
    configFile: (at) =>
      at.platform === 'win32' ? join(at.appData, 'Block', 'goose', 'config', 'config.yaml') : join(at.home, '.config', 'goose', 'config.yaml'),
    programs: ['goose'],
    serversKey: 'extensions',
    stdio: (bridge) => ({
      enabled: true,
      type: 'stdio',
      name: ENTRY_NAME,
      description: 'Skills hosted by Skilltray, run after you approve them',
      cmd: bridge.command,
      args: bridge.args,
      envs: bridge.env,
      timeout: TOOL_TIMEOUT_S,
    }),
    http: (endpoint) => ({
      enabled: true,
      type: 'streamable_http',
      name: ENTRY_NAME,
      description: 'Skills hosted by Skilltray, run after you approve them',
      uri: endpoint.url,
      headers: bearer(endpoint),
      timeout: TOOL_TIMEOUT_S,
    }),
    prefers: 'stdio',
    docs: 'https://block.github.io/goose/docs/guides/config-files',
  },
  {
    id: 'codex',
    name: 'Codex',
    syntax: 'toml',
    configFile: (at) => join(at.env.CODEX_HOME || join(at.home, '.codex'), 'config.toml'),
    programs: ['codex'],
    serversKey: 'mcp_servers',
    // Codex gives a tool call 60 s by default; a run may wait minutes for the person.
    stdio: (bridge) => ({ ...plain(bridge), tool_timeout_sec: TOOL_TIMEOUT_S }),
    http: (endpoint) => ({ url: endpoint.url, http_headers: bearer(endpoint), tool_timeout_sec: TOOL_TIMEOUT_S }),
    prefers: 'stdio',
    docs: 'https://developers.openai.com/codex/mcp',
  },
];

/** The client of that id, or undefined. */
export function clientSpec(id: string): ClientSpec | undefined {
  return CLIENTS.find((client) => client.id === id);
}

/** The places of `env` on `platform`. */
export function placesOf(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Places {
  const home = (platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir();
  return {
    platform,
    home,
    appData: env.APPDATA || join(home, 'AppData', 'Roaming'),
    xdgConfig: env.XDG_CONFIG_HOME || join(home, '.config'),
    env,
  };
}

/** The folder whose presence says the client is installed, or null where it has no config here. */
export function markerFolder(spec: ClientSpec, at: Places): string | null {
  if (spec.marker) return spec.marker(at);
  const file = spec.configFile(at);
  return file === null ? null : dirname(file);
}

/** The transports a client takes, its preferred one first. */
export function transportsOf(spec: ClientSpec): BridgeTransport[] {
  const all: BridgeTransport[] = spec.http === undefined ? ['stdio'] : ['stdio', 'http'];
  return [spec.prefers, ...all.filter((t) => t !== spec.prefers)];
}
