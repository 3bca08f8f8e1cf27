/**
 * MCP over Streamable HTTP at `/mcp` on the owner's loopback server, for clients that take a URL.
 * Each session is the very server `skilltray mcp` builds (createMcpServer: the same tools,
 * resources and prompts), over the SDK's StreamableHTTPServerTransport; its calls go straight to
 * this process's core with the approval broker, so a run asks the person at the desktop as any run
 * of the owner does. http.ts has checked Host, Origin and the bearer token before a request gets here,
 * and core/authority.ts has said who calls: always an assistant here. A session belongs to the caller
 * that opened it; another credential never reaches it.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { SkilltrayCore } from '../core/api.js';
import { callOperation } from '../core/operations.js';
import type { Caller, Health, ServerEvent } from '../shared/contract.js';
import type { OperationCall } from './mcp-executor.js';

export interface McpHttpOptions {
  core: SkilltrayCore;
  owner: Health['owner'];
  version: string;
  /** Where gateway calls resolve paths, as for every HTTP call; a run without a cwd or a root gets an empty folder instead. */
  cwd: string;
  approvalTimeoutMs?: number;
}

export interface McpHttpEndpoint {
  /** Serves one request to /mcp for `caller`; `body` is its JSON body, read within the API's limit (POST only). */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, caller: Caller): Promise<void>;
  /** Ends every session. */
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  caller: Caller;
}

/** Sessions kept at once; past this the oldest is ended (a client that went away never says so). */
const MAX_SESSIONS = 32;

const SESSION_HEADER = 'mcp-session-id';

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  res.end(body);
}

const isInitialize = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).some(
    (message) => typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'initialize',
  );

/** The /mcp endpoint of the owner of runs. */
export function mcpHttpEndpoint(options: McpHttpOptions): McpHttpEndpoint {
  const { core } = options;
  const sessions = new Map<string, Session>();
  const callFor =
    (caller: Caller): OperationCall =>
    (operation, input, signal) =>
      callOperation(core, operation, input, {
        surface: 'mcp',
        caller,
        cwd: options.cwd,
        approval: { kind: 'broker', ...(options.approvalTimeoutMs === undefined ? {} : { timeoutMs: options.approvalTimeoutMs }) },
        owner: options.owner,
        version: options.version,
        signal,
      });
  const onEvent = (event: ServerEvent): void => {
    if (event.type !== 'skills.changed') return;
    for (const { server } of sessions.values()) {
      server.sendResourceListChanged();
      server.sendPromptListChanged();
    }
  };
  core.on('event', onEvent);

  async function open(caller: Caller): Promise<Session> {
    // Loaded with the first session: the SDK's HTTP transport costs the owner nothing until a client uses it.
    const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('./mcp.js'),
    ]);
    const server = createMcpServer({ version: options.version, call: callFor(caller) });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport, caller });
        for (const [oldest, session] of sessions) {
          if (sessions.size <= MAX_SESSIONS) break;
          sessions.delete(oldest);
          void session.server.close();
        }
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return { server, transport, caller };
  }

  return {
    async handle(req, res, parsed, caller) {
      const id = req.headers[SESSION_HEADER];
      const found = typeof id === 'string' ? sessions.get(id) : undefined;
      // Another credential's session is no session of this caller's: answered as an unknown one.
      const session = found !== undefined && isDeepStrictEqual(found.caller, caller) ? found : undefined;
      if (session !== undefined) return session.transport.handleRequest(req, res, parsed);
      if (id !== undefined) return jsonRpcError(res, 404, 'no such MCP session (it ended, or the owner restarted): initialize again');
      if (req.method !== 'POST' || !isInitialize(parsed)) return jsonRpcError(res, 400, 'send initialize first: no Mcp-Session-Id was given');
      const opened = await open(caller);
      await opened.transport.handleRequest(req, res, parsed);
      // An initialize the transport refused made no session: nothing will ever reach this server.
      if (opened.transport.sessionId === undefined || !sessions.has(opened.transport.sessionId)) await opened.server.close();
    },
    async close() {
      core.off('event', onEvent);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map(({ server }) => server.close()));
    },
  };
}
