/**
 * The bridge in this process (SDK client ↔ in-memory transport ↔ createMcpServer over a real core):
 * a long call keeps a waiting client's timeout from firing, and a client's cancellation reaches the
 * run, which stops and is recorded as cancelled.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { createMcpServer } from '../../../src-main/server/mcp.js';
import { localExecutor } from '../../../src-main/server/mcp-executor.js';
import { PROCESS_FIXTURES, skillMd, tempDir, testHome, writeSkill } from '../../support/temp.js';

const BEHAVE = join(PROCESS_FIXTURES, 'behave.mjs');

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/**
 * A bundled read-only skill whose tool sleeps `ms` then prints `done`, another that prints its
 * working directory, and a client connected to a bridge over them (offering `roots`, when given).
 */
async function bridge(progressIntervalMs: number, options: { roots?: string[][] } = {}): Promise<{ client: Client; core: SkilltrayCore }> {
  const t = testHome();
  const body = `\n### nap\n\nSleeps.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| ms | integer | yes | how long |\n\n#### Command\n\n\`\`\`\n${process.execPath} ${BEHAVE} sleep:<<ms>> out:done\n\`\`\`\n`;
  writeSkill(
    t.bundled,
    'sleepy',
    skillMd({ name: 'sleepy', description: 'Sleeps a while. Use when testing.', read_only: true, timeout: 60, reads: [PROCESS_FIXTURES] }, body),
  );
  writeSkill(
    t.bundled,
    'where',
    skillMd(
      { name: 'where', description: 'Prints where it runs. Use when testing.', read_only: true },
      '\n### pwd\n\nPrints the working directory.\n\n#### Parameters\n\nNone.\n\n#### Command\n\n```\npwd\n```\n',
    ),
  );
  t.sealBundled();
  const core = new SkilltrayCore(t.config());
  closers.push(() => core.close());
  const server = createMcpServer({
    version: '9.9.9',
    call: localExecutor(core, { cwd: t.userHome, version: '9.9.9', onWarning: () => undefined }),
    progressIntervalMs,
  });
  const roots = options.roots;
  const client = new Client({ name: 'bridge-test', version: '1.0.0' }, roots === undefined ? {} : { capabilities: { roots: { listChanged: true } } });
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: (roots[0] ?? []).map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })) }));
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return { client, core };
}

describe('the MCP bridge over a core', () => {
  it('reports progress while a call works, so a client that resets its timeout on progress keeps waiting', async () => {
    const { client } = await bridge(100);
    const progress: { progress: number; message?: string }[] = [];
    const result = (await client.callTool({ name: 'run', arguments: { skill: 'sleepy', tool: 'nap', args: { ms: 900 } } }, undefined, {
      timeout: 400,
      resetTimeoutOnProgress: true,
      onprogress: (p) => void progress.push(p),
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ result: { exitCode: 0, stdout: 'done' } });
    // The nap (900 ms) outlasts the client's timeout (400 ms) twice over: only progress kept the call alive.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect(progress[0]?.message).toContain('approve');
  });

  it('a client that asked for no progress times out as it chose to', async () => {
    const { client } = await bridge(100);
    // The nap outlasts the test: only the client's own timeout can end the call.
    await expect(
      client.callTool({ name: 'run', arguments: { skill: 'sleepy', tool: 'nap', args: { ms: 60_000 } } }, undefined, { timeout: 300 }),
    ).rejects.toMatchObject({
      code: -32001,
    });
  });

  it("passes the client's cancellation to the run: the process stops and the run is recorded as cancelled", async () => {
    const { client, core } = await bridge(10_000);
    const abort = new AbortController();
    const started = new Promise<void>((resolve) => core.on('event', (e) => e.type === 'run' && e.event.type === 'started' && resolve()));
    const finished = new Promise<void>((resolve) => core.on('event', (e) => e.type === 'run' && e.event.type === 'finished' && resolve()));
    // The nap outlasts the test: the run finishes in time only if the cancellation stops it.
    const call = client.callTool({ name: 'run', arguments: { skill: 'sleepy', tool: 'nap', args: { ms: 60_000 } } }, undefined, { signal: abort.signal });
    await started;
    abort.abort('the assistant gave up');
    await expect(call).rejects.toThrow();
    await finished;
    expect(core.runs.history()[0]?.status).toBe('cancelled');
  });
});

describe("where an MCP client's runs start", () => {
  const pwd = async (client: Client, args: Record<string, unknown> = {}): Promise<string> => {
    const result = (await client.callTool({ name: 'run', arguments: { skill: 'where', tool: 'pwd', ...args } })) as CallToolResult;
    return (result.structuredContent as { result: { stdout: string } }).result.stdout.trim();
  };

  it("in the client's first root, and in the new first root once the client says its roots changed", async () => {
    const first = tempDir();
    const second = tempDir();
    const roots = [[first, second]];
    const { client } = await bridge(10_000, { roots });
    expect(await pwd(client)).toBe(first);
    roots[0] = [second];
    await client.sendRootsListChanged();
    await expect.poll(() => pwd(client)).toBe(second);
    // A cwd the client names wins over its roots.
    expect(await pwd(client, { cwd: first })).toBe(first);
  });

  it('in an empty folder of its own when the client offers no roots, never where the bridge was started (often / or the home)', async () => {
    const { client } = await bridge(10_000);
    const where = await pwd(client);
    expect(where).toMatch(/skilltray-no-folder-/);
    expect(readdirSync(where)).toEqual([]);
  });
});
