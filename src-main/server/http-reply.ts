/** How the loopback API answers: a JSON envelope with its status, and a coded error as one. */
import type { ServerResponse } from 'node:http';
import { toSkilltrayError, type SkilltrayError } from '../shared/skilltray-error.js';
import type { Envelope } from '../shared/contract.js';
import { statusForCode } from './http-status.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
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

export function sendError(res: ServerResponse, error: SkilltrayError, headers: Record<string, string> = {}): void {
  // A refusal that passes (too busy, too many streams) says when to come back.
  const retryAfter = error.details?.retryAfterSeconds;
  const retry: Record<string, string> = typeof retryAfter === 'number' ? { 'Retry-After': String(retryAfter) } : {};
  sendJson(res, statusForCode(error.code), { ok: false, error: error.toJSON() } satisfies Envelope<never>, { ...retry, ...headers });
}
