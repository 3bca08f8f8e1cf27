/**
 * Connecting every client over fixture config files in a temporary HOME (never the person's own):
 * empty, with other servers, with comments, broken. Connect, connect again, disconnect — everything
 * but Skilltray's entry byte for byte as it was — with the backup written and a broken file left
 * untouched with its line and column. The bridge here is a small real MCP server (the fixture), so
 * each connect's handshake is real and quick; bridge-handshake.test.ts starts the real bridge.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { parse as parseJsonc } from 'jsonc-parser';
import { resolveConfig } from '../../../src-main/core/config.js';
import { CLIENTS, placesOf, type ClientSpec } from '../../../src-main/core/connect/clients.js';
import { AssistantConnections } from '../../../src-main/core/connect/connections.js';
import type { ConfigSyntax } from '../../../src-main/shared/connect.js';
import { rejectionOf } from '../../support/errors.js';
import { tempDir } from '../../support/temp.js';

/** The SkilltrayError `promise` rejects with, checked to carry `code`. */
async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await rejectionOf(promise);
  expect(error.code).toBe(code);
  return error;
}

const FIXTURE_SERVER = fileURLToPath(new URL('../../fixtures/connect/mcp-server.mjs', import.meta.url));

/** Each client on a platform where it has a user config (Claude Desktop has none on Linux). */
const platformOf = (spec: ClientSpec): NodeJS.Platform => (spec.id === 'claude-desktop' ? 'darwin' : 'linux');

interface Setup {
  connections: AssistantConnections;
  file: string;
  home: string;
  skilltrayHome: string;
}

/** A temp HOME where `spec` is installed (its folder exists), and connections whose bridge is the fixture server (or `script`). */
function setup(spec: ClientSpec, options: { script?: string; installed?: boolean } = {}): Setup {
  const base = tempDir('skilltray-connect-');
  const home = join(base, 'user');
  const skilltrayHome = join(base, 'skilltray');
  mkdirSync(skilltrayHome, { recursive: true });
  const env = { HOME: home, PATH: '/usr/bin:/bin', SKILLTRAY_HOME: skilltrayHome };
  const platform = platformOf(spec);
  const places = placesOf(env, platform);
  const file = spec.configFile(places) as string;
  if (options.installed !== false) {
    mkdirSync(spec.marker ? spec.marker(places) : dirname(file), { recursive: true });
    mkdirSync(dirname(file), { recursive: true });
  }
  const config = resolveConfig({
    env,
    bundledDir: join(base, 'bundled'),
    platform,
    installation: { runtime: process.execPath, script: options.script ?? FIXTURE_SERVER, packaged: false },
  });
  return { connections: new AssistantConnections(config, { platform }), file, home, skilltrayHome };
}

/** The servers map of a config text, parsed with a library other than the one that edited it. */
function serversOf(syntax: ConfigSyntax, text: string, key: string): Record<string, unknown> | undefined {
  const data = (syntax === 'toml' ? parseToml(text) : syntax === 'yaml' ? parseYaml(text) : parseJsonc(text, [], { allowTrailingComma: true })) as Record<
    string,
    unknown
  > | null;
  return data?.[key] as Record<string, unknown> | undefined;
}

/** The fixture files of a syntax, for a servers map under `key`, and where the broken one breaks. */
function fixtures(syntax: ConfigSyntax, key: string): { others: string; comments: string; broken: string; breaksAt: [number, number] } {
  if (syntax === 'toml') {
    return {
      others: `model = "o3"\n\n[${key}.other]\ncommand = "npx"\nargs = ["-y", "other-server"]\n`,
      comments: `# my Codex\nmodel = "o3"  # the model\n\n[${key}.other]   # keep this one\ncommand = "npx"\n\n[profiles.fast]\nmodel = "gpt"\n`,
      broken: `model = "o3"\n[${key}.other\ncommand = "npx"\n`,
      breaksAt: [2, 19],
    };
  }
  if (syntax === 'yaml') {
    return {
      others: `GOOSE_PROVIDER: openai\n${key}:\n  developer:\n    enabled: true\n    type: builtin\n    name: developer\n`,
      comments: `# goose\nGOOSE_PROVIDER: openai  # the provider\n${key}:\n  developer:\n    enabled: true   # keep\n    type: builtin\n  # after developer\n\n# the model\nGOOSE_MODEL: gpt\n`,
      broken: `${key}:\n  developer: [1\nGOOSE_MODEL: x\n`,
      breaksAt: [3, 1],
    };
  }
  return {
    others: `{\n  "${key}": {\n    "other": {\n      "command": "npx",\n      "args": ["-y", "other-server"]\n    }\n  },\n  "theme": "dark"\n}\n`,
    comments: `{\n  // my servers\n  "${key}": {\n    "other": { "command": "npx" }, // keep this one\n  },\n  /* the rest */\n  "theme": "dark",\n}\n`,
    broken: `{\n  "${key}": {\n    "other": { "command": "npx" }\n    "oops": 1\n  }\n}\n`,
    breaksAt: [4, 5],
  };
}

describe.each(CLIENTS.map((spec) => [spec.id, spec] as const))('connecting %s', (_id, spec) => {
  it.each(['others', 'comments'] as const)('keeps a file with %s byte for byte apart from its own entry, and is idempotent', async (kind) => {
    const s = setup(spec);
    const original = fixtures(spec.syntax, spec.serversKey)[kind];
    writeFileSync(s.file, original);

    const dry = await s.connections.connect(spec.id, { dryRun: true });
    expect(dry).toMatchObject({ changed: true, dryRun: true, backup: null });
    expect(dry.diff).toContain('+');
    expect(readFileSync(s.file, 'utf8')).toBe(original);

    const first = await s.connections.connect(spec.id);
    expect(first).toMatchObject({ changed: true, works: true, backup: `${s.file}.skilltray.bak` });
    expect(readFileSync(`${s.file}.skilltray.bak`, 'utf8')).toBe(original);
    const connected = readFileSync(s.file, 'utf8');
    const servers = serversOf(spec.syntax, connected, spec.serversKey);
    expect(servers?.skilltray).toEqual(first.entry);
    expect(Object.keys(servers ?? {})).toEqual(expect.arrayContaining(['skilltray', spec.syntax === 'yaml' ? 'developer' : 'other']));
    // Every line that was there is still there, in order.
    const lines = connected.split('\n');
    let at = 0;
    for (const line of original.split('\n')) {
      at = lines.indexOf(line, at);
      expect(at, `lost: ${line}`).toBeGreaterThanOrEqual(0);
    }

    const again = await s.connections.connect(spec.id);
    expect(again).toMatchObject({ changed: false, diff: '', backup: null });
    expect(readFileSync(s.file, 'utf8')).toBe(connected);
    expect((await s.connections.list()).find((c) => c.id === spec.id)).toMatchObject({ foundBy: 'folder', state: 'connected', configPath: s.file });

    const gone = await s.connections.disconnect(spec.id);
    expect(gone).toMatchObject({ changed: true, backup: `${s.file}.skilltray.bak` });
    expect(readFileSync(s.file, 'utf8')).toBe(original);
    expect(await s.connections.disconnect(spec.id)).toMatchObject({ changed: false });
  });

  it('creates the file when there is none, and disconnecting leaves no entry', async () => {
    const s = setup(spec);
    const change = await s.connections.connect(spec.id);
    expect(change).toMatchObject({ changed: true, backup: null, works: true });
    expect(serversOf(spec.syntax, readFileSync(s.file, 'utf8'), spec.serversKey)?.skilltray).toEqual(change.entry);
    expect(existsSync(`${s.file}.skilltray.bak`)).toBe(false);
    await s.connections.disconnect(spec.id);
    expect(serversOf(spec.syntax, readFileSync(s.file, 'utf8'), spec.serversKey)?.skilltray).toBeUndefined();
  });

  it('leaves a file that does not parse untouched and says where it breaks (E850)', async () => {
    const s = setup(spec);
    const { broken, breaksAt } = fixtures(spec.syntax, spec.serversKey);
    writeFileSync(s.file, broken);
    const error = await expectCode(s.connections.connect(spec.id), 'E850');
    expect(error.details).toMatchObject({ file: s.file, line: breaksAt[0], column: breaksAt[1] });
    expect(error.message).toContain(`line ${breaksAt[0]}, column ${breaksAt[1]}`);
    await expectCode(s.connections.disconnect(spec.id), 'E850');
    expect(readFileSync(s.file, 'utf8')).toBe(broken);
    expect(existsSync(`${s.file}.skilltray.bak`)).toBe(false);
    const listed = (await s.connections.list()).find((c) => c.id === spec.id);
    expect(listed?.error).toMatchObject({ code: 'E850' });
  });
});

describe('what connect checks first', () => {
  const cursor = CLIENTS.find((c) => c.id === 'cursor') as ClientSpec;

  it('writes nothing when the bridge it would write does not answer a handshake (E854)', async () => {
    const s = setup(cursor, { script: join(tempDir(), 'no-such-bridge.js') });
    const original = fixtures('json', 'mcpServers').others;
    writeFileSync(s.file, original);
    const error = await expectCode(s.connections.connect('cursor'), 'E854');
    expect(error.message).toContain('nothing was written');
    expect(readFileSync(s.file, 'utf8')).toBe(original);
    expect(existsSync(`${s.file}.skilltray.bak`)).toBe(false);
  });

  it('writes nothing over a file the client rewrote while the bridge was being checked (E853)', async () => {
    const s = setup(cursor);
    writeFileSync(s.file, fixtures('json', 'mcpServers').others);
    // connect reads the file before its first await; the handshake that follows gives the "client" time to write.
    const pending = s.connections.connect('cursor');
    const rewritten = fixtures('json', 'mcpServers').comments;
    writeFileSync(s.file, rewritten);
    const error = await expectCode(pending, 'E853');
    expect(error.message).toContain('changed while Skilltray was editing it');
    expect(readFileSync(s.file, 'utf8')).toBe(rewritten);
    expect(existsSync(`${s.file}.skilltray.bak`)).toBe(false);
  });

  it('refuses a client that is not on this machine (E852) and one it does not know (E851)', async () => {
    const s = setup(cursor, { installed: false });
    await expectCode(s.connections.connect('cursor'), 'E852');
    await expectCode(s.connections.connect('emacs'), 'E851');
    expect((await s.connections.list()).find((c) => c.id === 'cursor')?.foundBy).toBeNull();
  });

  it('writes a symlinked config where it really lives and keeps the link', async () => {
    const s = setup(cursor);
    const real = join(tempDir(), 'dotfiles-mcp.json');
    writeFileSync(real, fixtures('json', 'mcpServers').others);
    symlinkSync(real, s.file);
    await s.connections.connect('cursor');
    expect(lstatSync(s.file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(s.file)).toBe(real);
    expect(serversOf('json', readFileSync(real, 'utf8'), 'mcpServers')?.skilltray).toBeDefined();
    expect(existsSync(`${real}.skilltray.bak`)).toBe(true);
  });

  it('writes SKILLTRAY_HOME and the skills path into the entry, and the handshake sees them', async () => {
    const s = setup(cursor);
    const change = await s.connections.connect('cursor');
    expect(change.entry).toMatchObject({
      command: process.execPath,
      args: [FIXTURE_SERVER, 'mcp'],
      env: { SKILLTRAY_HOME: s.skilltrayHome, SKILLTRAY_SKILLS_PATH: '' },
    });
    const test = await s.connections.test('cursor');
    expect(test).toMatchObject({ works: true, tools: ['home-set'] });
  });

  it('lists an outdated entry without starting it', async () => {
    const s = setup(cursor);
    writeFileSync(s.file, JSON.stringify({ mcpServers: { skilltray: { command: '/somewhere/else', args: ['mcp'] } } }));
    const [status] = (await s.connections.list({ test: true })).filter((c) => c.id === 'cursor');
    expect(status).toMatchObject({ state: 'outdated', works: null });
  });
});

describe('where each client keeps its config', () => {
  const at = (platform: NodeJS.Platform) =>
    placesOf({ HOME: '/home/ann', USERPROFILE: 'C:\\Users\\ann', APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, platform);
  it.each([
    ['claude-desktop', 'linux', null],
    ['claude-desktop', 'darwin', '/home/ann/Library/Application Support/Claude/claude_desktop_config.json'],
    ['claude-code', 'linux', '/home/ann/.claude.json'],
    ['cursor', 'darwin', '/home/ann/.cursor/mcp.json'],
    ['vscode', 'linux', '/home/ann/.config/Code/User/mcp.json'],
    ['vscode', 'darwin', '/home/ann/Library/Application Support/Code/User/mcp.json'],
    ['windsurf', 'linux', '/home/ann/.codeium/windsurf/mcp_config.json'],
    ['zed', 'linux', '/home/ann/.config/zed/settings.json'],
    ['zed', 'darwin', '/home/ann/.config/zed/settings.json'],
    ['goose', 'darwin', '/home/ann/.config/goose/config.yaml'],
    ['codex', 'linux', '/home/ann/.codex/config.toml'],
  ] as const)('%s on %s: %s', (id, platform, expected) => {
    expect(CLIENTS.find((c) => c.id === id)?.configFile(at(platform))).toBe(expected);
  });

  it('follows CODEX_HOME and XDG_CONFIG_HOME where the clients do', () => {
    const places = placesOf({ HOME: '/home/ann', CODEX_HOME: '/srv/codex', XDG_CONFIG_HOME: '/home/ann/xdg' }, 'linux');
    expect(CLIENTS.find((c) => c.id === 'codex')?.configFile(places)).toBe('/srv/codex/config.toml');
    expect(CLIENTS.find((c) => c.id === 'zed')?.configFile(places)).toBe('/home/ann/xdg/zed/settings.json');
  });
});
