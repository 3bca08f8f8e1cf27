/**
 * 1,000 keep-alive clients at once, five requests each, against `skilltray serve`: every request
 * is answered (served, or 503 with Retry-After), none is reset, and none waits more than three
 * times the median — the server serves in the order requests came.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { figure } from '../../support/process-memory.js';
import { testHome } from '../../support/temp.js';
import { serve } from '../server/helpers.js';

const CLIENTS = 1000;
const REQUESTS = 5;

interface Outcome {
  ms: number;
  status: number | null;
  retryAfter: string | null;
  /** The error code of a request that got no answer (ECONNRESET, …). */
  failure: string | null;
}

/** One `POST /api/health` on `agent`'s connection, timed from when it is sent: once the connection is up, not while this busy client still connects. */
function health(port: number, token: string, agent: Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    let started = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/health',
        method: 'POST',
        agent,
        headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': 2 },
      },
      (res) => {
        res.resume();
        res.once('end', () =>
          resolve({
            ms: performance.now() - started,
            status: res.statusCode ?? null,
            retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
            failure: null,
          }),
        );
      },
    );
    req.once('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (started = performance.now()));
      else started = performance.now();
    });
    req.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ ms: performance.now() - started, status: null, retryAfter: null, failure: error.code ?? error.message }),
    );
    req.end('{}');
  });
}

/** `clients` keep-alive clients at once, each sending `requests` requests one after another. */
async function load(port: number, token: string, clients: number, requests: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; i < requests; i++) outcomes.push(await health(port, token, agent));
      agent.destroy();
    }),
  );
  return outcomes;
}

describe('soak: HTTP overload', () => {
  it(
    `${CLIENTS.toLocaleString('en-US')} concurrent keep-alive clients × ${REQUESTS} requests: no reset, none older than 3× the median`,
    { timeout: 600_000 },
    async () => {
      const t = testHome();
      const serving = await serve(t);
      const port = Number(new URL(serving.url).port);
      const token = readFileSync(join(t.home, 'token'), 'utf8').trim();
      // A serve that has been up a while: its code compiled, its heap grown (the first seconds run several times slower).
      await load(port, token, 50, 40);
      const outcomes = await load(port, token, CLIENTS, REQUESTS);
      const failures = outcomes.filter((o) => o.failure !== null);
      const answered = outcomes.filter((o) => o.status !== null);
      const shed = answered.filter((o) => o.status === 503);
      const times = answered.map((o) => o.ms).sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] as number;
      const late = times.filter((ms) => ms > 3 * median);
      figure(
        'HTTP overload',
        `${outcomes.length} requests from ${CLIENTS} clients: ${failures.length} reset or failed, ${shed.length} answered 503, median ${median.toFixed(0)} ms, p99 ${(times[Math.floor(times.length * 0.99)] as number).toFixed(0)} ms, max ${(times.at(-1) as number).toFixed(0)} ms, ${late.length} older than 3× the median`,
      );
      expect(failures.map((o) => o.failure)).toEqual([]);
      expect(answered.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([]);
      expect(shed.filter((o) => o.retryAfter === null)).toEqual([]);
      expect(late).toEqual([]);
    },
  );
});
