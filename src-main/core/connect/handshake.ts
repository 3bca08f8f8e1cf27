/**
 * Whether a connection works: start the bridge exactly as a client would (or call the /mcp URL)
 * and complete MCP's `initialize` and `tools/list` with the SDK's own client. The bridge gets only
 * the environment a client passes a server by default (the SDK's list: HOME, PATH, USER, …) plus
 * the entry's `env`, so a check that passes does not lean on anything of this process's.
 */
import type { BridgeCommand } from '../../shared/connect.js';
import type { McpEndpoint } from './clients.js';

/** What a handshake found: the tools listed, or why it failed. */
export type HandshakeResult = { works: true; tools: string[] } | { works: false; error: string };

const HANDSHAKE_TIMEOUT_MS = 30_000;

/** The environment a client gives a server it starts: the SDK's default list, taken from `env`, then the entry's own. */
async function clientEnv(env: NodeJS.ProcessEnv, own: Record<string, string>): Promise<Record<string, string>> {
  const { DEFAULT_INHERITED_ENV_VARS } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const inherited = DEFAULT_INHERITED_ENV_VARS.flatMap((name) => {
    const value = env[name];
    // Functions exported by a shell (`() {…`) are what the SDK leaves out too.
    return value === undefined || value.startsWith('()') ? [] : [[name, value] as const];
  });
  return { ...Object.fromEntries(inherited), ...own };
}

/** Starts `bridge` (or calls `endpoint`), completes initialize and tools/list, and closes it. */
export async function handshake(target: BridgeCommand | McpEndpoint, env: NodeJS.ProcessEnv, timeoutMs = HANDSHAKE_TIMEOUT_MS): Promise<HandshakeResult> {
  const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const client = new Client({ name: 'skilltray-connect', version: '1' });
  let stderr = '';
  const transport =
    'command' in target
      ? new StdioClientTransport({ command: target.command, args: target.args, env: await clientEnv(env, target.env), stderr: 'pipe' })
      : new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: { Authorization: `Bearer ${target.token}` } } });
  if (transport instanceof StdioClientTransport) transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)));
  try {
    const tools = await Promise.race([
      (async () => {
        await client.connect(transport);
        return (await client.listTools()).tools.map((tool) => tool.name);
      })(),
      timedOut,
    ]);
    return { works: true, tools };
  } catch (error) {
    const said = stderr
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1);
    return { works: false, error: `${error instanceof Error ? error.message : String(error)}${said === undefined ? '' : ` (the bridge said: ${said})`}` };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}
