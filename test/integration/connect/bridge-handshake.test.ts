/**
 * The entry `skilltray connect` writes works here: the fresh CLI connects a client in a temporary
 * HOME, and the test starts exactly the command, arguments and environment written into the file
 * (nothing else of this process's environment but PATH) and completes an MCP handshake with the
 * real bridge, which then lists the skills of the home and roots the entry named.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { AssistantChange, AssistantStatus } from '../../../src-main/shared/connect.js';
import { cliProcessBytes } from '../../support/cli.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';

describe('the entry skilltray connect writes', () => {
  // Four real processes (connect with its own handshake, the bridge, connect's table with another): minutes on a loaded machine.
  it("starts the real bridge, which answers initialize and tools/list and serves the app's home and roots", { timeout: 120_000 }, async () => {
    const t = testHome();
    writeSkill(
      t.skills,
      'only-here',
      skillMd({ name: 'only-here', description: 'A skill only the written roots hold. Use in tests.', version: '1.0.0' }, 'Nothing to run.\n'),
    );
    mkdirSync(join(t.userHome, '.codex'), { recursive: true });
    const env = { PATH: process.env.PATH, HOME: t.userHome, SKILLTRAY_HOME: t.home, SKILLTRAY_SKILLS_PATH: t.skills };

    const connected = await cliProcessBytes(['connect', 'codex', '--json'], env);
    expect(connected.stderr).toBe('');
    const change = JSON.parse(connected.stdout.toString('utf8')) as AssistantChange;
    expect(change).toMatchObject({ client: 'codex', changed: true, works: true });

    // What the client will start: read back from the file, not from the answer.
    const written = (
      parse(readFileSync(join(t.userHome, '.codex', 'config.toml'), 'utf8')) as {
        mcp_servers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
      }
    ).mcp_servers.skilltray;
    expect(written).toBeDefined();
    expect(written?.env).toEqual({ SKILLTRAY_HOME: t.home, SKILLTRAY_SKILLS_PATH: t.skills });
    const entry = written as { command: string; args: string[]; env: Record<string, string> };
    const client = new Client({ name: 'codex-as-it-would', version: '1' });
    // A client passes its own small environment: no SKILLTRAY_* of the test's, only what the entry says.
    await client.connect(
      new StdioClientTransport({
        command: entry.command,
        args: entry.args,
        env: { PATH: process.env.PATH ?? '', HOME: t.userHome, ...entry.env },
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['list', 'discover', 'run', 'describe']));
      const listed = (await client.callTool({ name: 'list', arguments: {} })) as CallToolResult;
      expect((listed.structuredContent as { skills: { name: string }[] }).skills.map((s) => s.name)).toContain('only-here');
    } finally {
      await client.close();
    }

    const table = await cliProcessBytes(['connect', '--json'], env);
    const codex = (JSON.parse(table.stdout.toString('utf8')) as AssistantStatus[]).find((s) => s.id === 'codex');
    expect(codex).toMatchObject({ foundBy: 'folder', state: 'connected', works: true });
    const text = (await cliProcessBytes(['connect'], env)).stdout.toString('utf8');
    expect(text).toMatch(/^codex\s+Codex\s+~\/\.codex\/config\.toml\s+connected\s+yes$/m);
  });
});
