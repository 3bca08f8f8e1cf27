/**
 * Who may talk to the loopback API, checked before a byte of a body is read: the request must name
 * this server as Host and (when a browser sends one) as Origin, every /api route and /mcp needs a
 * bearer token of this home (the person's, or an assistant's: core/authority.ts says whose), and
 * `GET /api/identify` proves this server holds the person's token without sending it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SkilltrayError } from '../shared/skilltray-error.js';
import type { Caller, Envelope } from '../shared/contract.js';
import type { Surface } from '../shared/runs.js';
import { sendError, sendJson } from './http-reply.js';
import { callerOf, identityProof, isNonce, readToken, tokenPath } from '../core/authority.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';

/** The names this server answers as once it listens on `port`: refuses every other Host and Origin (E803). */
export class LoopbackNames {
  private port = 0;
  private hosts = new Set<string>();
  private origins = new Set<string>();

  bind(port: number): void {
    this.port = port;
    this.hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.origins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  }

  /** Why the request is refused (E803), or null. */
  refusal(req: IncomingMessage): SkilltrayError | null {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!this.hosts.has(host)) {
      return gatewayErrors.foreignHost(this.port, req.headers.host ?? null);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.has(origin)) {
      return gatewayErrors.crossOrigin(origin);
    }
    return null;
  }
}

/** The token from `Authorization: Bearer <token>`, or null. */
function bearer(header: string | undefined): string | null {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header ?? '');
  return match ? (match[1] as string) : null;
}

/** The bearer token the request carries and who it makes the caller through `surface`; otherwise answers E802 and returns null. */
export function authorised(home: string, req: IncomingMessage, res: ServerResponse, surface: Surface): { token: string; caller: Caller } | null {
  const token = bearer(req.headers.authorization);
  const caller = callerOf(home, { kind: 'bearer', token }, surface);
  if (token !== null && caller !== null) return { token, caller };
  sendError(res, gatewayErrors.unauthorized(tokenPath(home)), {
    'WWW-Authenticate': 'Bearer realm="skilltray"',
  });
  return null;
}

/**
 * GET /api/identify?nonce=<32 hex>: proves, without a token and without sending it, that this
 * server holds the home's token (HMAC-SHA256(token, nonce)), so `findOwner` can tell the real owner
 * from another program on a crashed owner's port before it hands over the token. Nothing else is said.
 */
export function identify(home: string, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void {
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
