/**
 * How a process that does not own runs (the CLI, the MCP bridge) reaches the one that does: find
 * it through `<home>/server.json` and the token, then call operations over its loopback HTTP API.
 * Plain `node:http` rather than fetch: a run may wait minutes for a person, longer than fetch's
 * built-in five-minute limit on waiting for response headers.
 */
import { realpathSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { createClient, type Envelope, type Health, type OperationName, type SkilltrayClient } from '../shared/contract.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';
import { isAlive } from '../core/runs-facade.js';
import { releaseOwnerFile } from './owner-file.js';
import { readOwnerRecord, type OwnerRecord } from './owner-record.js';
import { newNonce, proofMatches, readToken } from '../core/authority.js';

/** A live owner of runs for a home, and how to talk to it. */
export interface OwnerLink {
  url: string;
  token: string;
  owner: Health['owner'];
}

/** Largest response body accepted from an owner; a run's output is capped far below it. */
const MAX_RESPONSE_BYTES = 128 * 1024 * 1024;

/** How long `findOwner` waits for each answer (identify, then health) before calling the record stale. */
const HEALTH_TIMEOUT_MS = 3000;

/** Largest answer to `GET /api/identify` read; a real one is under 150 bytes. */
const MAX_IDENTIFY_BYTES = 4096;

/** A call of one operation, as `createClient` takes it. */
export type Transport = (operation: OperationName, input: unknown) => Promise<Envelope<unknown>>;

function unreachable(url: string, reason: string): Envelope<never> {
  return {
    ok: false,
    error: gatewayErrors.appNotReachable(url, reason).toJSON(),
  };
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.ok === true) return 'value' in v;
  const error = v.error as Record<string, unknown> | undefined;
  return v.ok === false && typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
}

/** The header a bridge (the CLI, the MCP server) names itself with, so history says where a run came from. */
export const SURFACE_HEADER = 'x-skilltray-surface';

/**
 * Calls operations at `url` (`POST /api/<operation>` with the bearer token). Every failure is an
 * envelope: the owner's own errors as it sent them, a network failure or a non-API answer as E807.
 */
export function httpTransport(url: string, token: string, options: { timeoutMs?: number; surface?: 'cli' | 'mcp' } = {}): Transport {
  const base = new URL(url);
  return (operation, input) =>
    new Promise((settle) => {
      const body = Buffer.from(JSON.stringify(input ?? {}), 'utf8');
      const req = request(
        new URL(`/api/${encodeURIComponent(operation)}`, base),
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': body.length,
            ...(options.surface === undefined ? {} : { [SURFACE_HEADER]: options.surface }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) {
              res.destroy();
              settle(unreachable(url, `the answer exceeded ${MAX_RESPONSE_BYTES} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('error', (error) => settle(unreachable(url, error.message)));
          res.on('close', () => {
            if (!res.complete) settle(unreachable(url, 'the connection closed before the answer was complete'));
          });
          res.on('end', () => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              parsed = undefined;
            }
            settle(isEnvelope(parsed) ? parsed : unreachable(url, `it answered HTTP ${res.statusCode ?? '?'} with something other than Skilltray's API`));
          });
        },
      );
      req.on('error', (error) => settle(unreachable(url, error.message)));
      if (options.timeoutMs !== undefined) req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
      req.end(body);
    });
}

/** A typed client of the owner, naming the bridge it speaks for; errors keep their codes through toSkilltrayError. */
export function ownerClient(link: Pick<OwnerLink, 'url' | 'token'>, surface?: 'cli' | 'mcp'): SkilltrayClient {
  return createClient(httpTransport(link.url, link.token, surface === undefined ? {} : { surface }));
}

/**
 * Whether the process a record names still runs as that process and is this user's: one we may not
 * signal (EPERM) belongs to someone else, and one started at another time got a recycled pid; neither
 * is our owner.
 */
function ownerAlive(record: OwnerRecord): boolean {
  try {
    process.kill(record.pid, 0);
  } catch {
    return false;
  }
  return isAlive({ pid: record.pid, started: record.pid_started ?? '' });
}

/**
 * Whether whatever listens at `url` holds `token`, asked without sending it: `GET /api/identify`
 * with a fresh nonce must answer HMAC-SHA256(token, nonce). Anything else (another program on a
 * crashed owner's port, a slow or oversized answer) is not our owner.
 */
function provesToken(url: string, token: string): Promise<boolean> {
  const nonce = newNonce();
  return new Promise((settle) => {
    const req = request(new URL(`/api/identify?nonce=${nonce}`, url), { method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_IDENTIFY_BYTES) {
          res.destroy();
          settle(false);
        } else chunks.push(chunk);
      });
      res.on('error', () => settle(false));
      res.on('close', () => settle(false));
      res.on('end', () => {
        try {
          const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ok?: unknown; value?: { app?: unknown; proof?: unknown } };
          settle(res.statusCode === 200 && answer.ok === true && answer.value?.app === 'skilltray' && proofMatches(token, nonce, answer.value.proof));
        } catch {
          settle(false);
        }
      });
    });
    req.on('error', () => settle(false));
    req.setTimeout(HEALTH_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`)));
    req.end();
  });
}

function sameDir(a: string, b: string): boolean {
  const canonical = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return canonical(a) === canonical(b);
}

/**
 * The process that owns runs for `home`, or null: server.json must name a live pid of this user (a
 * file naming a dead one is removed), the token must exist, whatever listens at 127.0.0.1 on that
 * port must prove it holds the token (identify, which sends no token), and only then `health`, with
 * the token, must answer from that pid for this very home. Only loopback is ever contacted, whatever the file says, and the token is sent only to a
 * server that already showed it knows it.
 */
export async function findOwner(home: string): Promise<OwnerLink | null> {
  const record = readOwnerRecord(home);
  if (record === null) return null;
  if (!ownerAlive(record)) {
    // A dead owner's file (killed, crashed): nobody will remove it but us (unless it was replaced meanwhile).
    releaseOwnerFile(home, record);
    return null;
  }
  const token = readToken(home);
  if (token === null) return null;
  const url = `http://127.0.0.1:${record.port}`;
  if (!(await provesToken(url, token))) return null;
  const envelope = await httpTransport(url, token, { timeoutMs: HEALTH_TIMEOUT_MS })('health', {});
  if (!envelope.ok) return null;
  const health = envelope.value as Partial<Health>;
  if (health.app !== 'skilltray' || health.pid !== record.pid || typeof health.home !== 'string' || !sameDir(health.home, home)) return null;
  if (health.owner !== 'app' && health.owner !== 'serve') return null;
  return { url, token, owner: health.owner };
}
