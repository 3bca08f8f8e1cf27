/**
 * The token-guarded routes of the loopback API: `POST /api/<operation>` → callOperation → the
 * Envelope (a run carrying an Idempotency-Key answered once), `GET /api/events` (server-sent
 * events, the person's only) and `/mcp` (MCP over Streamable HTTP, an assistant's door). Who calls
 * is core/authority.ts's to say from the token and the surface. A run that needs approval waits in
 * the core's broker for as long as its caller stays connected.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SkilltrayCore } from '../core/api.js';
import { callOperation, isOperation, type CallContext } from '../core/operations.js';
import { refusal } from '../core/authority.js';
import type { Health } from '../shared/contract.js';
import { SURFACE_HEADER } from './app-link.js';
import type { EventStreams } from './event-stream.js';
import { authorised } from './http-auth.js';
import { VOICE_BODY_BYTES, jsonBody } from './http-body.js';
import { sendError, sendJson } from './http-reply.js';
import { statusForCode } from './http-status.js';
import { IDEMPOTENCY_HEADER, idempotencyKey, requestFingerprint, type Answer, type IdempotentRequests } from './idempotency.js';
import type { McpHttpEndpoint } from './mcp-http.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';

/** `cli` or `mcp` when a bridge says so; any other caller is `http`. A label only: it grants nothing. */
function bridgedSurface(value: string | string[] | undefined): 'cli' | 'mcp' | 'http' {
  return value === 'cli' || value === 'mcp' ? value : 'http';
}

export interface RouteDeps {
  core: SkilltrayCore;
  owner: Health['owner'];
  version: string;
  /** Where gateway calls over HTTP resolve paths: the user's home. */
  cwd: string;
  approvalTimeoutMs: number | undefined;
  streams: EventStreams;
  idempotent: IdempotentRequests;
  mcp: McpHttpEndpoint;
}

/** The routes over `deps`: `api` once Host and Origin passed, and `mcp`. */
export function tokenRoutes(deps: RouteDeps): {
  api(req: IncomingMessage, res: ServerResponse, name: string, sameOrigin: boolean, controller: AbortController): Promise<void>;
  mcp(req: IncomingMessage, res: ServerResponse): Promise<void>;
} {
  const { core, owner, version, streams, idempotent } = deps;
  const home = core.config.home;

  /** /mcp: MCP over Streamable HTTP (mcp-http.ts), with a token of this home; whoever calls through it is an assistant. */
  async function mcpRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const auth = authorised(home, req, res, 'mcp');
    if (auth === null) return;
    if (!['GET', 'POST', 'DELETE'].includes(req.method ?? ''))
      return sendError(res, gatewayErrors.methodNotAllowed(req.method, '/mcp', 'POST, GET or DELETE'), { Allow: 'GET, POST, DELETE' });
    const body = req.method === 'POST' ? await jsonBody(req, res) : { value: undefined };
    if (body !== null) await deps.mcp.handle(req, res, body.value, auth.caller);
  }

  /** POST /api/<operation> and GET /api/events, once Host and Origin passed. */
  async function api(req: IncomingMessage, res: ServerResponse, name: string, sameOrigin: boolean, controller: AbortController): Promise<void> {
    // Same-origin is the UI in a browser: never the app's own window (that is IPC), whatever the headers say.
    const surface = sameOrigin ? 'browser' : bridgedSurface(req.headers[SURFACE_HEADER]);
    const auth = authorised(home, req, res, surface);
    if (auth === null) return;
    if (name === 'events') {
      if (req.method !== 'GET') return sendError(res, gatewayErrors.methodNotAllowed(req.method, '/api/events', 'GET'), { Allow: 'GET' });
      // Everything that happens, every assistant's runs and the person's approvals among it: the person's to follow.
      const refused = refusal(auth.caller, 'events') ?? streams.refusal(auth.token);
      if (refused !== null) return sendError(res, refused);
      return streams.subscribe(req, res, auth.token);
    }
    if (req.method !== 'POST') return sendError(res, gatewayErrors.methodNotAllowed(req.method, `/api/${name}`, 'POST'), { Allow: 'POST' });
    if (!isOperation(name)) return sendError(res, gatewayErrors.operationNotFound(name));
    const key = name === 'run' ? idempotencyKey(req.headers[IDEMPOTENCY_HEADER]) : null;
    const body = await jsonBody(req, res, name === 'answerApprovalByVoice' ? VOICE_BODY_BYTES : undefined);
    if (body === null) return;
    const input = body.value;
    const context: CallContext = {
      surface,
      caller: auth.caller,
      cwd: deps.cwd,
      approval: { kind: 'broker', ...(deps.approvalTimeoutMs === undefined ? {} : { timeoutMs: deps.approvalTimeoutMs }) },
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
    // The caller is part of the request: one credential's key never replays another's answer.
    const fingerprint = requestFingerprint(auth.caller.kind === 'person' ? name : `${name}\0${auth.caller.name}`, body.body);
    const answer = await idempotent.answer(key, fingerprint, left, (signal) => call(AbortSignal.any([signal, controller.signal])));
    if (!res.destroyed) sendJson(res, answer.status, answer.envelope, answer.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  }

  return { api, mcp: mcpRoute };
}
