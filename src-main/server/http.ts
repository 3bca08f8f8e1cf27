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
import { readFileSync } from 'node:fs';
import type { SkilltrayCore } from '../core/api.js';
import { SkilltrayError, toSkilltrayError } from '../shared/skilltray-error.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';
import { runnerErrors } from '../shared/error-messages/runner.js';
import { userHome } from '../core/config.js';
import { callOperation, isOperation, type CallContext } from '../core/operations.js';
import { ownerStopping } from '../core/runs/interrupted-runs.js';
import { thisProcess } from '../core/process-identity.js';
import type { Envelope, Health } from '../shared/contract.js';
import { reportOfRecord } from '../shared/runs.js';
import { SURFACE_HEADER, findOwner } from './app-link.js';
import { mcpHttpEndpoint } from './mcp-http.js';
import { EventStreams } from './event-stream.js';
import { statusForCode } from './http-status.js';
import { IDEMPOTENCY_HEADER, IdempotentRequests, idempotencyKey, requestFingerprint, type Answer } from './idempotency.js';
import { openApiDocument } from './openapi.js';
import { LISTEN_BACKLOG, RequestQueue, holdConnections } from './overload.js';
import { claimOwnerFile, releaseOwnerFile } from './owner-file.js';
import { ownerFilePath, readOwnerRecord, type OwnerRecord } from './owner-record.js';
import { SECURITY_HEADERS, contentTypeOf, resolveStaticFile } from './static-files.js';
import { ensureToken, identityProof, isNonce, readToken, tokenMatches, tokenPath } from './token.js';

/** `cli` or `mcp` when a bridge says so; any other caller is `http`. A label only: it grants nothing. */
function bridgedSurface(value: string | string[] | undefined): 'cli' | 'mcp' | 'http' {
  return value === 'cli' || value === 'mcp' ? value : 'http';
}

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

/** Largest request body accepted. */
export const MAX_BODY_BYTES = 1024 * 1024;

const HEARTBEAT_MS = 15_000;

/** How long close() lets cancelled requests answer before cutting their connections. */
const CLOSE_GRACE_MS = 5000;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  let payload: string;
  try {
    payload = JSON.stringify(body);
  } catch (error) {
    status = 500;
    payload = JSON.stringify({ ok: false, error: toSkilltrayError(error).toJSON() });
  }
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

function sendError(res: ServerResponse, error: SkilltrayError, headers: Record<string, string> = {}): void {
  // A refusal that passes (too busy, too many streams) says when to come back.
  const retryAfter = error.details?.retryAfterSeconds;
  const retry: Record<string, string> = typeof retryAfter === 'number' ? { 'Retry-After': String(retryAfter) } : {};
  sendJson(res, statusForCode(error.code), { ok: false, error: error.toJSON() } satisfies Envelope<never>, { ...retry, ...headers });
}

/** The token from `Authorization: Bearer <token>`, or null. */
function bearer(header: string | undefined): string | null {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header ?? '');
  return match ? (match[1] as string) : null;
}

function tooLarge(): SkilltrayError {
  return gatewayErrors.bodyTooLarge(MAX_BODY_BYTES);
}

/**
 * The body, when all of it came with the request (the usual small JSON call), read at once: no turn
 * of the event loop, so the operation runs in the same slice of the request queue. Null otherwise.
 */
function bodyAtHand(req: IncomingMessage, limit: number): Buffer | null {
  if (!req.complete) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Reads a body of at most `limit` bytes; past it, stops reading and rejects with E804. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      if (error) {
        req.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(tooLarge());
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish());
    req.once('error', (error) => finish(error));
    // Made only when it happens: an Error captures a stack, and every request closes.
    req.once('close', () => done || finish(new Error('the client went away before sending its whole request')));
  });
}

function isJsonContentType(header: string | undefined): boolean {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** Starts the loopback API for `options.core`; refuses (E809) when another owner already answers for this home. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningServer> {
  const { core, owner, version } = options;
  const home = core.config.home;
  const alreadyThere = async (): Promise<void> => {
    const running = await findOwner(home);
    if (running === null) return;
    throw gatewayErrors.ownerAlreadyRunning(home, running.url, running.owner);
  };
  await alreadyThere();
  // The new owner of runs for this home: first finish what an owner that died left running.
  await core.reclaimOrphanedRuns();
  ensureToken(home);

  // Where gateway commands say they were invoked from when the caller is not a shell.
  const personHome = userHome(core.config.env);
  const streams = new EventStreams(core, options.heartbeatMs ?? HEARTBEAT_MS);
  const queue = new RequestQueue();
  const idempotent = new IdempotentRequests((runId) => {
    const report = reportOfRecord(core.getRun(runId));
    if (report === null) throw runnerErrors.noFinishedRecord(runId);
    return { status: 200, envelope: { ok: true, value: report } };
  });
  const inflight = new Map<Promise<void>, AbortController>();
  let openapi: string | undefined;
  let port = 0;
  let origins = new Set<string>();
  let hosts = new Set<string>();

  const mcp = mcpHttpEndpoint({ core, owner, version, cwd: personHome, ...(options.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: options.approvalTimeoutMs }) });

  /** The home's bearer token the request carries; otherwise answers E802 and returns null. */
  function authorised(req: IncomingMessage, res: ServerResponse): string | null {
    const expected = readToken(home);
    const presented = bearer(req.headers.authorization);
    if (expected !== null && presented !== null && tokenMatches(expected, presented)) return presented;
    sendError(res, gatewayErrors.unauthorized(tokenPath(home)), {
      'WWW-Authenticate': 'Bearer realm="skilltray"',
    });
    return null;
  }

  /** A JSON request body within MAX_BODY_BYTES, parsed and as sent; a failure is answered here (E804, E805) and null returned. */
  async function jsonBody(req: IncomingMessage, res: ServerResponse): Promise<{ value: unknown; body: Buffer } | null> {
    if (!isJsonContentType(req.headers['content-type'])) {
      sendError(res, gatewayErrors.bodyNotJsonType(req.headers['content-type'] ?? null));
      return null;
    }
    try {
      const body = bodyAtHand(req, MAX_BODY_BYTES) ?? (await readBody(req, MAX_BODY_BYTES));
      return { value: JSON.parse(body.toString('utf8')), body };
    } catch (error) {
      if (error instanceof SkilltrayError) {
        // Stop here: answer, then drop the connection instead of reading the rest.
        res.shouldKeepAlive = false;
        res.once('finish', () => req.socket.destroySoon());
        sendError(res, error, { Connection: 'close' });
        return null;
      }
      if (error instanceof SyntaxError) {
        sendError(res, gatewayErrors.bodyNotJson(error.message));
        return null;
      }
      throw error;
    }
  }

  /** /mcp: MCP over Streamable HTTP (mcp-http.ts), with the same token as the API. */
  async function mcpRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (authorised(req, res) === null) return;
    if (!['GET', 'POST', 'DELETE'].includes(req.method ?? '')) return sendError(res, gatewayErrors.methodNotAllowed(req.method, '/mcp', 'POST, GET or DELETE'), { Allow: 'GET, POST, DELETE' });
    const body = req.method === 'POST' ? await jsonBody(req, res) : { value: undefined };
    if (body !== null) await mcp.handle(req, res, body.value);
  }

  /** POST /api/<operation> and GET /api/events, once Host and Origin passed. */
  async function api(req: IncomingMessage, res: ServerResponse, name: string, sameOrigin: boolean, controller: AbortController): Promise<void> {
    const presented = authorised(req, res);
    if (presented === null) return;
    if (name === 'events') {
      if (req.method !== 'GET') return sendError(res, gatewayErrors.methodNotAllowed(req.method, '/api/events', 'GET'), { Allow: 'GET' });
      const refused = streams.refusal(presented);
      if (refused !== null) return sendError(res, refused);
      return streams.subscribe(req, res, presented);
    }
    if (req.method !== 'POST') return sendError(res, gatewayErrors.methodNotAllowed(req.method, `/api/${name}`, 'POST'), { Allow: 'POST' });
    if (!isOperation(name)) return sendError(res, gatewayErrors.operationNotFound(name));
    const key = name === 'run' ? idempotencyKey(req.headers[IDEMPOTENCY_HEADER]) : null;
    const body = await jsonBody(req, res);
    if (body === null) return;
    const input = body.value;
    const context: CallContext = {
      // Same-origin is the UI in a browser: never the app's own window (that is IPC), whatever the headers say.
      surface: sameOrigin ? 'browser' : bridgedSurface(req.headers[SURFACE_HEADER]),
      cwd: personHome,
      approval: { kind: 'broker', ...(options.approvalTimeoutMs === undefined ? {} : { timeoutMs: options.approvalTimeoutMs }) },
      owner,
      version,
    };
    const call = async (signal: AbortSignal): Promise<Answer> => {
      const envelope = await callOperation(core, name, input, { ...context, signal });
      return { status: envelope.ok ? 200 : statusForCode(envelope.error.code), envelope };
    };
    if (key === null) {
      // The caller hung up before its answer: withdraw its approval or cancel its run.
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const { status, envelope } = await call(controller.signal);
      if (!res.destroyed) sendJson(res, status, envelope);
      return;
    }
    // Called off once every request waiting for this key has hung up, or when the server stops.
    const left = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const answer = await idempotent.answer(key, requestFingerprint(name, body.body), left, (signal) => call(AbortSignal.any([signal, controller.signal])));
    if (!res.destroyed) sendJson(res, answer.status, answer.envelope, answer.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  }

  /**
   * GET /api/identify?nonce=<32 hex>: proves, without a token and without sending it, that this
   * server holds the home's token (HMAC-SHA256(token, nonce)), so `findOwner` can tell the real owner
   * from another program on a crashed owner's port before it hands over the token. Nothing else is said.
   */
  function identify(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void {
    if (req.method !== 'GET') return sendError(res, gatewayErrors.methodNotAllowed(req.method, '/api/identify', 'GET'), { Allow: 'GET' });
    const nonces = query.getAll('nonce');
    const nonce = nonces[0];
    if (nonces.length !== 1 || nonce === undefined || !isNonce(nonce)) {
      return sendError(res, gatewayErrors.invalidNonce());
    }
    const token = readToken(home);
    if (token === null) return sendError(res, gatewayErrors.noValidToken(tokenPath(home)));
    sendJson(res, 200, { ok: true, value: { app: 'skilltray', proof: identityProof(token, nonce) } } satisfies Envelope<{ app: 'skilltray'; proof: string }>);
  }

  function serveFile(req: IncomingMessage, res: ServerResponse, webDir: string, pathname: string): boolean {
    const file = resolveStaticFile(webDir, pathname);
    if (file === null) return false;
    let content: Buffer;
    try {
      content = readFileSync(file);
    } catch {
      return false;
    }
    res.writeHead(200, {
      'Content-Type': contentTypeOf(file),
      'Content-Length': content.length,
      ...(file.endsWith('.html') ? { 'Cache-Control': 'no-store' } : { 'Cache-Control': 'no-cache' }),
    });
    res.end(req.method === 'HEAD' ? undefined : content);
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, controller: AbortController): Promise<void> {
    for (const [header, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(header, value);
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts.has(host)) {
      return sendError(res, gatewayErrors.foreignHost(port, req.headers.host ?? null));
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) {
      return sendError(res, gatewayErrors.crossOrigin(origin));
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return sendError(res, gatewayErrors.invalidTarget());
    }
    const pathname = target.pathname;
    if (pathname === '/api/identify') return identify(req, res, target.searchParams);
    if (pathname === '/mcp') return mcpRoute(req, res);
    if (pathname.startsWith('/api/')) return api(req, res, pathname.slice('/api/'.length), origin !== undefined, controller);
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    if (pathname === '/openapi.json') {
      if (!readOnly) return sendError(res, gatewayErrors.methodNotAllowed(req.method, '/openapi.json', 'GET'), { Allow: 'GET, HEAD' });
      openapi ??= JSON.stringify(openApiDocument(version));
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(openapi), 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : openapi);
      return;
    }
    if (options.webDir !== undefined) {
      if (!readOnly) return sendError(res, gatewayErrors.methodNotAllowed(req.method, pathname, 'GET'), { Allow: 'GET, HEAD' });
      if (serveFile(req, res, options.webDir, pathname)) return;
    }
    sendError(res, gatewayErrors.routeNotFound(req.method, pathname));
  }

  let stopping = false;
  /** One request, its turn come. */
  function serve(req: IncomingMessage, res: ServerResponse): void {
    if (stopping) {
      const error = gatewayErrors.serverStopping(owner, 5);
      return sendError(res, error);
    }
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

  // A request is only parsed and queued where it arrives: the work waits for its turn in the queue.
  const server: Server = createServer((req, res) => {
    try {
      queue.enter(() => serve(req, res));
    } catch (error) {
      sendError(res, toSkilltrayError(error));
    }
  });

  holdConnections(server);
  server.on('connection', () => queue.connected());
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      const reason = error.code === 'EADDRINUSE' ? 'it is in use' : error.message;
      reject(gatewayErrors.listenFailed(options.port ?? 0, reason, error.code ?? null, error));
    };
    server.once('error', failed);
    try {
      server.listen({ host: '127.0.0.1', port: options.port ?? 0, exclusive: true, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', failed);
        resolve();
      });
    } catch (error) {
      failed(error as NodeJS.ErrnoException);
    }
  });
  const address = server.address() as AddressInfo;
  port = address.port;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  origins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const url = `http://127.0.0.1:${port}`;
  core.serveMcpAt(() => ({ url: `${url}/mcp`, token: readToken(home) ?? ensureToken(home) }));
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

  const self = thisProcess();
  const record: OwnerRecord = { pid: self.pid, port, url, owner, version, started_at: new Date().toISOString(), ...(self.started === '' ? {} : { pid_started: self.started }) };
  const claim = async (): Promise<void> => {
    if (claimOwnerFile(home, record)) return;
    await alreadyThere();
    // What is there names no live owner of this home: a crashed owner's file.
    releaseOwnerFile(home, readOwnerRecord(home));
    if (claimOwnerFile(home, record)) return;
    await alreadyThere();
    throw gatewayErrors.ownerStarting(home, ownerFilePath(home));
  };
  try {
    await claim();
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
