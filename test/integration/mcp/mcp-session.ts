/** A real MCP client session with `node bin/skilltray.js mcp`, as an assistant starts it. */
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import type { ErrorShape } from '../../../src-main/shared/errors.js';
import { BIN } from '../contract/fixture.js';

export interface McpSession {
  client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
  /** Closes the bridge's stdin, as an assistant that goes away does, and resolves with how the bridge then exited. */
  hangUp(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const open: McpSession[] = [];

afterEach(async () => {
  for (const session of open.splice(0)) await session.close();
});

/** Starts the bridge with exactly `env` (plus the SDK's safe defaults) and connects a client to it; closed after the test. */
export async function startMcp(env: NodeJS.ProcessEnv, options: { cwd?: string; keep?: boolean } = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    stderr: 'pipe',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'skilltray-tests', version: '1.0.0' });
  await client.connect(transport);
  // The SDK keeps the child private; hanging up by hand (rather than client.close(), which sends
  // SIGTERM after 2 s) shows whether the bridge leaves on its own.
  const child = (transport as unknown as { _process: ChildProcess })._process;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const hangUp = () => {
    child.stdin?.end();
    return exited;
  };
  const session: McpSession = { client, stderr: () => stderr, close: () => client.close(), hangUp };
  if (!options.keep) open.push(session);
  return session;
}

/** A successful tool call's structured value (arrays come wrapped as `{ results }`). */
export function structured(result: CallToolResult): Record<string, unknown> {
  if (result.isError) throw new Error(`expected a result, got ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

/** A failed tool call's structured error. */
export function toolError(result: CallToolResult): ErrorShape {
  if (!result.isError) throw new Error(`expected an error, got ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
  return (result.structuredContent as { error: ErrorShape }).error;
}

/** Calls a tool and returns its result. */
export async function callTool(session: McpSession, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await session.client.callTool({ name, arguments: args })) as CallToolResult;
}
