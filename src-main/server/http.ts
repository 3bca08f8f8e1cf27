/**
 * The loopback HTTP API of the process that owns runs (the Electron app, or `skilltray serve`):
 * `POST /api/<operation>` → callOperation → the Envelope, `GET /api/events` (server-sent events),
 * `GET /openapi.json`, and the built UI. It binds 127.0.0.1 only, and every request must name this
 * server as Host and (when a browser sends one) as Origin; every /api route needs the bearer token.
 * All of that is checked before a byte of the body is read. A run that needs approval waits in the
 * core's broker for as long as its caller stays connected.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ownerStopping, type SkilltrayCore } from '../core/api.js';
import { userHome } from '../core/config.js';
import { toSkilltrayError } from '../shared/skilltray-error.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';
import type { Health } from '../shared/contract.js';
import { reportOfRecord } from '../shared/runs.js';
import { mcpHttpEndpoint } from './mcp-http.js';
import { EventStreams } from './event-stream.js';
import { LoopbackNames, identify } from './http-auth.js';
import { sendError } from './http-reply.js';
import { tokenRoutes } from './http-routes.js';
import { staticRoutes } from './http-static.js';
import { IdempotentRequests } from './idempotency.js';
import { LISTEN_BACKLOG, RequestQueue, holdConnections } from './overload.js';
import { releaseOwnerFile } from './owner-file.js';
import { claimOwnership, ownerRecordHere, refuseWhileOwned } from './owner-lifecycle.js';
import { SECURITY_HEADERS } from './static-files.js';
import { ensureToken, readToken } from '../core/authority.js';
import { runnerErrors } from '../shared/error-messages/runner.js';

export interface HttpServerOptions {
  core: SkilltrayCore;
  /** Who runs the server: the tray app or `skilltray serve` (reported by `health` and server.json). */
  owner: Health['owner'];
  version: string;
  /** 0 (the default) takes any free port. */
  port?: number;
  /** Serve the built UI from here. */
  webDir?: string;
  /** How long a run waits for a person before E604 (default: the core's five minutes). */
  approvalTimeoutMs?: number;
  /** Between event-stream heartbeats (15 s). */
  heartbeatMs?: number;
}

export interface RunningServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Where the server is bound (always 127.0.0.1). */
  address(): AddressInfo;
  /** The token in force now (read from `<home>/token`, so a rotation shows at once). */
  token(): string;
  /** Stops accepting, ends event streams, cancels what its callers wait for, removes server.json. */
  close(): Promise<void>;
}

const HEARTBEAT_MS = 15_000;

/** How long close() lets cancelled requests answer before cutting their connections. */
const CLOSE_GRACE_MS = 5000;

/** Listens on 127.0.0.1 only, on `port` (0: any free one); E810 when it cannot. */
function listenOnLoopback(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      const reason = error.code === 'EADDRINUSE' ? 'it is in use' : error.message;
      reject(gatewayErrors.listenFailed(port, reason, error.code ?? null, error));
    };
    server.once('error', failed);
    try {
      server.listen({ host: '127.0.0.1', port, exclusive: true, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', failed);
        resolve();
      });
    } catch (error) {
      failed(error as NodeJS.ErrnoException);
    }
  });
}

/** Sends each request to its phase: Host and Origin first, then identify, MCP, the API or the static files. */
function dispatcher(home: string, names: LoopbackNames, routes: ReturnType<typeof tokenRoutes>, otherRoutes: ReturnType<typeof staticRoutes>) {
  return async (req: IncomingMessage, res: ServerResponse, controller: AbortController): Promise<void> => {
    for (const [header, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(header, value);
    const refused = names.refusal(req);
    if (refused !== null) return sendError(res, refused);
    let target: URL;
    try {
      target = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return sendError(res, gatewayErrors.invalidTarget());
    }
    const pathname = target.pathname;
    if (pathname === '/api/identify') return identify(home, req, res, target.searchParams);
    if (pathname === '/mcp') return routes.mcp(req, res);
    if (pathname.startsWith('/api/')) return routes.api(req, res, pathname.slice('/api/'.length), req.headers.origin !== undefined, controller);
    otherRoutes(req, res, pathname);
  };
}

/**
 * The server: a request is only parsed and queued where it arrives, and its work waits for its turn;
 * each answer in flight is kept in `inflight` (with its abort) until handed to the OS.
 */
function queuedServer(
  queue: RequestQueue,
  inflight: Map<Promise<void>, AbortController>,
  handle: ReturnType<typeof dispatcher>,
  owner: Health['owner'],
  stopping: () => boolean,
): Server {
  /** One request, its turn come. */
  function serve(req: IncomingMessage, res: ServerResponse): void {
    if (stopping()) return sendError(res, gatewayErrors.serverStopping(owner, 5));
    const controller = new AbortController();
    // Done when the answer is handed to the OS (or the connection is gone), so close() never cuts one off.
    const answered = new Promise<void>((resolve) => {
      res.once('finish', () => {
        queue.answered(req.socket);
        resolve();
      });
      res.once('close', resolve);
    });
    const done = handle(req, res, controller)
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else sendError(res, toSkilltrayError(error));
      })
      .then(() => answered)
      .finally(() => inflight.delete(done));
    inflight.set(done, controller);
  }

  return createServer((req, res) => {
    try {
      queue.enter(() => serve(req, res));
    } catch (error) {
      sendError(res, toSkilltrayError(error));
    }
  });
}

/** Starts the loopback API for `options.core`; refuses (E809) when another owner already answers for this home. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningServer> {
  const { core, owner, version } = options;
  const home = core.config.home;
  await refuseWhileOwned(home);
  // The new owner of runs for this home: first finish what an owner that died left running.
  await core.runs.reclaimOrphanedRuns();
  ensureToken(home);

  // Where gateway commands say they were invoked from when the caller is not a shell.
  const personHome = userHome(core.config.env);
  const streams = new EventStreams(core, options.heartbeatMs ?? HEARTBEAT_MS);
  const queue = new RequestQueue();
  const idempotent = new IdempotentRequests((runId) => {
    const report = reportOfRecord(core.runs.getRun(runId));
    if (report === null) throw runnerErrors.noFinishedRecord(runId);
    return { status: 200, envelope: { ok: true, value: report } };
  });
  const inflight = new Map<Promise<void>, AbortController>();
  const names = new LoopbackNames();
  const otherRoutes = staticRoutes(version, options.webDir);

  const mcp = mcpHttpEndpoint({
    core,
    owner,
    version,
    cwd: personHome,
    ...(options.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: options.approvalTimeoutMs }),
  });

  const routes = tokenRoutes({ core, owner, version, cwd: personHome, approvalTimeoutMs: options.approvalTimeoutMs, streams, idempotent, mcp });

  const handle = dispatcher(home, names, routes, otherRoutes);

  let stopping = false;
  const server = queuedServer(queue, inflight, handle, owner, () => stopping);

  holdConnections(server);
  server.on('connection', () => queue.connected());
  await listenOnLoopback(server, options.port ?? 0);
  const address = server.address() as AddressInfo;
  const { port } = address;
  names.bind(port);
  const url = `http://127.0.0.1:${port}`;
  core.serveMcpAt(`${url}/mcp`);
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));

  const stop = async (): Promise<void> => {
    stopping = true;
    server.close();
    core.serveMcpAt(null);
    streams.closeAll();
    await mcp.close();
    // Runs its callers wait for stop as interrupted: it is the owner going away, not the callers.
    for (const controller of inflight.values()) controller.abort(ownerStopping(`the ${owner === 'app' ? 'Skilltray app' : 'skilltray serve'} API is stopping`));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...inflight.keys()]), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(timer);
    server.closeAllConnections();
    await closed;
  };

  const record = ownerRecordHere(port, url, owner, version);
  try {
    await claimOwnership(home, record);
  } catch (error) {
    await stop();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    address: () => address,
    token: () => readToken(home) ?? ensureToken(home),
    close: () => {
      closing ??= (async () => {
        releaseOwnerFile(home, record);
        await stop();
      })();
      return closing;
    },
  };
}
