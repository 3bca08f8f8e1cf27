/**
 * What `connect` gives an assistant: never the person's token. For every client and every transport
 * it takes (JSON, JSONC, TOML and YAML files), the file, its diff and the dry run hold no trace of
 * the person's token; a URL entry holds an assistant token issued to that client alone, which /mcp
 * takes, connecting again keeps, and disconnecting withdraws. An entry written the old way, with the
 * person's token, is listed as outdated (holding it) and connecting again replaces it. And with
 * `serve` running, the CLI's table lists an entry made with `--transport http` as connected and
 * working (#39.5: it never passed the server's address, so such an entry was always "outdated").
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src-main/core/config.js';
import { CLIENTS, placesOf, transportsOf, type ClientSpec } from '../../../src-main/core/connect/clients.js';
import { AssistantConnections, TOKEN_ISSUED_ON_CONNECT } from '../../../src-main/core/connect/connections.js';
import { assistantOf } from '../../../src-main/core/credentials/assistant-tokens.js';
import type { AssistantStatus } from '../../../src-main/shared/connect.js';
import { cli } from '../../support/cli.js';
import { raw, serverHome, type ServerHome } from '../server/helpers.js';

const FIXTURE_SERVER = fileURLToPath(new URL('../../fixtures/connect/mcp-server.mjs', import.meta.url));

/** Each client on a platform where it has a user config (Claude Desktop has none on Linux). */
const platformOf = (spec: ClientSpec): NodeJS.Platform => (spec.id === 'claude-desktop' ? 'darwin' : 'linux');

/** Connections over the server's home for `spec`, installed (its folder made) in the test's user home; its file. */
function clientOf(h: ServerHome, spec: ClientSpec): { connections: AssistantConnections; file: string } {
  const platform = platformOf(spec);
  const places = placesOf(h.t.env, platform);
  const file = spec.configFile(places) as string;
  mkdirSync(spec.marker ? spec.marker(places) : dirname(file), { recursive: true });
  mkdirSync(dirname(file), { recursive: true });
  const config = resolveConfig({
    env: h.t.env,
    bundledDir: h.t.bundled,
    platform,
    installation: { runtime: process.execPath, script: FIXTURE_SERVER, packaged: false },
  });
  return { connections: new AssistantConnections(config, { platform }), file };
}

/** The one `Bearer sta_…` token in a config text. */
function tokenIn(text: string): string {
  const found = [...text.matchAll(/Bearer (sta_[A-Za-z0-9_-]{43})/g)].map((m) => m[1] as string);
  expect(found).toHaveLength(1);
  return found[0] as string;
}

/** /mcp's answer to an initialize with `token`. */
const initialize = (h: ServerHome, token: string) =>
  raw(h.server.port, {
    method: 'POST',
    path: '/mcp',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });

const CASES = CLIENTS.flatMap((spec) => transportsOf(spec).map((transport) => [`${spec.id} over ${transport}`, spec, transport] as const));

describe('the person’s token is in no config connect writes', () => {
  it.each(CASES)('%s', async (_name, spec, transport) => {
    const h = await serverHome();
    const person = h.server.token();
    const mcpUrl = `${h.server.url}/mcp`;
    const { connections, file } = clientOf(h, spec);

    const dry = await connections.connect(spec.id, { transport, mcpUrl, dryRun: true });
    expect(dry.diff).not.toContain(person);
    // A dry run issues no token, so it shows none that would not work.
    if (transport === 'http') expect(dry.diff).toContain(TOKEN_ISSUED_ON_CONNECT);
    const change = await connections.connect(spec.id, { transport, mcpUrl });
    expect(change).toMatchObject({ changed: true, works: true, transport });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(person);
    expect(JSON.stringify(change)).not.toContain(person);
    const listed = async (test = false) => (await connections.list({ mcpUrl, test })).find((s) => s.id === spec.id) as AssistantStatus;

    if (transport === 'stdio') {
      expect(text).not.toMatch(/Bearer|sta_/);
      expect(await listed()).toMatchObject({ state: 'connected', transport: 'stdio', personToken: false });
      return;
    }
    // The client's own token: issued to it alone, taken by /mcp, kept when connecting again, withdrawn by disconnect.
    const token = tokenIn(text);
    expect(assistantOf(h.core.config.home, token)).toBe(spec.id);
    expect((await initialize(h, token)).status).toBe(200);
    expect(await listed(true)).toMatchObject({ state: 'connected', transport: 'http', personToken: false, works: true });
    expect(await connections.connect(spec.id, { transport, mcpUrl })).toMatchObject({ changed: false });
    expect(tokenIn(readFileSync(file, 'utf8'))).toBe(token);
    await connections.disconnect(spec.id);
    expect(assistantOf(h.core.config.home, token)).toBeNull();
    expect((await initialize(h, token)).status).toBe(401);
  });
});

describe('an entry that holds the person’s token', () => {
  const urlClients = CLIENTS.filter((spec) => spec.http !== undefined);

  it.each(urlClients.map((spec) => [spec.id, spec] as const))('%s: listed as outdated, holding it; connecting again replaces it', async (_id, spec) => {
    const h = await serverHome();
    const person = h.server.token();
    const mcpUrl = `${h.server.url}/mcp`;
    const { connections, file } = clientOf(h, spec);
    // What connect --transport http wrote before assistants had tokens of their own.
    const { openJsonc } = await import('../../../src-main/core/connect/jsonc-document.js');
    const { openToml } = await import('../../../src-main/core/connect/toml-document.js');
    const { openYaml } = await import('../../../src-main/core/connect/yaml-document.js');
    const open = spec.syntax === 'toml' ? openToml : spec.syntax === 'yaml' ? openYaml : openJsonc;
    const old = (spec.http as NonNullable<ClientSpec['http']>)({ url: mcpUrl, token: person });
    writeFileSync(file, (await open('', spec.serversKey, file)).withEntry('skilltray', old));

    const before = (await connections.list({ mcpUrl, test: true })).find((s) => s.id === spec.id);
    expect(before).toMatchObject({ state: 'outdated', personToken: true, works: null });
    const change = await connections.connect(spec.id, { transport: 'http', mcpUrl });
    expect(change).toMatchObject({ changed: true, works: true });
    expect(readFileSync(file, 'utf8')).not.toContain(person);
    expect(assistantOf(h.core.config.home, tokenIn(readFileSync(file, 'utf8')))).toBe(spec.id);
    expect((await connections.list({ mcpUrl })).find((s) => s.id === spec.id)).toMatchObject({ state: 'connected', personToken: false });
  });
});

describe('skilltray connect with serve running', () => {
  it('lists an entry made with --transport http as connected and working, and warns of one holding the person’s token', async () => {
    const h = await serverHome();
    mkdirSync(join(h.t.userHome, '.codex'), { recursive: true });
    const connected = await cli(['connect', 'codex', '--transport', 'http', '--json'], h.t);
    expect(connected).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(connected.stdout)).toMatchObject({ client: 'codex', transport: 'http', works: true });

    const listed = await cli(['connect', '--json'], h.t);
    expect((JSON.parse(listed.stdout) as AssistantStatus[]).find((s) => s.id === 'codex')).toMatchObject({
      state: 'connected',
      transport: 'http',
      works: true,
      personToken: false,
    });
    const text = (await cli(['connect'], h.t)).stdout;
    expect(text).toMatch(/^codex\s+Codex\s+~\/\.codex\/config\.toml\s+connected \(url\)\s+yes$/m);
    expect(text).not.toContain('outdated');

    // Cursor's entry from before: the person's own token in its file.
    mkdirSync(join(h.t.userHome, '.cursor'), { recursive: true });
    const cursorFile = join(h.t.userHome, '.cursor', 'mcp.json');
    writeFileSync(
      cursorFile,
      JSON.stringify({ mcpServers: { skilltray: { url: `${h.server.url}/mcp`, headers: { Authorization: `Bearer ${h.server.token()}` } } } }),
    );
    const warned = (await cli(['connect'], h.t)).stdout;
    expect(warned).toMatch(/^cursor\s+Cursor\s+~\/\.cursor\/mcp\.json\s+outdated \(connect again\) \(holds your token\) \(url\)\s+-$/m);
    expect(warned).toContain("warning: Cursor's entry holds your own token");
    expect(warned).toContain("'skilltray connect cursor' replaces it");
  });
});
