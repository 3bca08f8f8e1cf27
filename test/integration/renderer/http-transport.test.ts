import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import { followEvents, httpTransport, type RetryTimers, type StreamState } from '../../../src-renderer/api/http-transport.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Retry timers fired by hand: a scheduled reconnect is seen, and run, without waiting for it. */
class ManualTimers implements RetryTimers {
  private nextHandle = 1;
  private readonly pending = new Map<number, { callback: () => void; ms: number }>();
  private waiters: (() => void)[] = [];

  setTimeout = (callback: () => void, ms: number): unknown => {
    const handle = this.nextHandle++;
    this.pending.set(handle, { callback, ms });
    for (const wake of this.waiters.splice(0)) wake();
    return handle;
  };

  clearTimeout = (handle: unknown): void => {
    this.pending.delete(handle as number);
  };

  get scheduled(): number {
    return this.pending.size;
  }

  /** Resolves once a retry is scheduled. */
  async retryScheduled(): Promise<void> {
    while (this.pending.size === 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Waits for the one retry to be scheduled, runs it, and returns the delay it asked for. */
  async fire(): Promise<number> {
    await this.retryScheduled();
    const [handle, timer] = [...this.pending][0]!;
    this.pending.delete(handle);
    timer.callback();
    return timer.ms;
  }
}

/** Collects what a stream reports, and lets a test wait until a condition on it holds. */
function recorder<T>() {
  const seen: T[] = [];
  let waiters: (() => void)[] = [];
  return {
    seen,
    push: (item: T): void => {
      seen.push(item);
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
    async until(check: (seen: T[]) => boolean): Promise<void> {
      while (!check(seen)) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

/** Lets every promise reaction already queued (an aborted read, its catch) run. */
const drain = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const settings = (mode: 'Global' | 'Dev'): ServerEvent => ({
  type: 'settings',
  settings: {
    mode,
    paused: false,
    paletteShortcut: 'CommandOrControl+Shift+Space',
    retention: { outputDays: 30, outputMaxMb: 100 },
    limitCeiling: { processes: 1024, memoryMiB: 8192, fileSizeMiB: 16384, cpuSeconds: 600 },
  },
});

describe('the HTTP transport', () => {
  it('POSTs JSON with the bearer token to /api/<operation> and hands back the envelope, whatever the status', async () => {
    const seen: { url?: string; auth?: string; type?: string; body: string }[] = [];
    const origin = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body });
        res
          .writeHead(409, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: false, error: { code: 'E603', kind: 'denied_by_user', message: 'no' } }));
      });
    });
    const call = httpTransport(origin, () => 'secret');
    expect(await call('run', { skill: 's', tool: 't' })).toEqual({ ok: false, error: { code: 'E603', kind: 'denied_by_user', message: 'no' } });
    expect(seen).toEqual([{ url: '/api/run', auth: 'Bearer secret', type: 'application/json', body: '{"skill":"s","tool":"t"}' }]);
  });

  it('turns an unreachable app into E807 and a body that is not an envelope into E999', async () => {
    const gone = await serve(() => undefined);
    const server = servers.pop() as Server;
    await new Promise((resolve) => server.close(resolve));
    expect(await httpTransport(gone, () => null)('health', {})).toMatchObject({ ok: false, error: { code: 'E807', kind: 'app_not_reachable' } });

    const html = await serve((_req, res) => res.writeHead(502).end('<html>bad gateway</html>'));
    expect(await httpTransport(html, () => null)('health', {})).toMatchObject({ ok: false, error: { code: 'E999' } });
    const json = await serve((_req, res) => res.writeHead(200).end('{"value":1}'));
    expect(await httpTransport(json, () => null)('health', {})).toMatchObject({ ok: false, error: { code: 'E999' } });
  });
});

describe('following /api/events', () => {
  it('reconnects with doubling backoff after failures, from the start again once a stream opened, and delivers every event in order', async () => {
    let connections = 0;
    const auths: (string | undefined)[] = [];
    const origin = await serve((req, res) => {
      auths.push(req.headers.authorization);
      connections++;
      if (connections <= 2) return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (connections === 3) {
        // Split mid-line and mid-event: the parser must stitch chunks together.
        const text = `: hello\n\nevent: settings\ndata: ${JSON.stringify(settings('Dev'))}\n\n`;
        res.write(text.slice(0, 20));
        setTimeout(() => res.end(text.slice(20)), 20);
      } else {
        res.write(`event: settings\r\ndata: ${JSON.stringify(settings('Global'))}\r\n\r\n`);
      }
    });
    const events = recorder<ServerEvent>();
    const states = recorder<StreamState>();
    const timers = new ManualTimers();
    const stream = followEvents({ origin, token: () => 'tok', onEvent: events.push, onState: states.push, baseDelayMs: 100, timers });
    try {
      const delays = [await timers.fire(), await timers.fire()];
      await events.until((seen) => seen.length === 1);
      delays.push(await timers.fire());
      await events.until((seen) => seen.length === 2);
      // 100 ms, then 200 ms (each ±25 % jitter); the stream that opened resets it to 100 ms.
      expect(delays.map((ms, i) => ms / [100, 200, 100][i]!).every((ratio) => ratio >= 0.75 && ratio <= 1.25)).toBe(true);
      expect(events.seen).toEqual([settings('Dev'), settings('Global')]);
      expect(connections).toBe(4);
      expect(auths).toEqual(['Bearer tok', 'Bearer tok', 'Bearer tok', 'Bearer tok']);
      expect(states.seen).toEqual(['connecting', 'connecting', 'connecting', 'open', 'connecting', 'open']);
    } finally {
      stream.stop();
    }
  });

  it('stops at 401, scheduling no retry, until restarted with a token that works', async () => {
    let token = 'wrong';
    let connections = 0;
    const origin = await serve((req, res) => {
      connections++;
      if (req.headers.authorization !== 'Bearer right') return void res.writeHead(401).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(`data: ${JSON.stringify(settings('Dev'))}\n\n`);
    });
    const events = recorder<ServerEvent>();
    const states = recorder<StreamState>();
    const timers = new ManualTimers();
    const stream = followEvents({ origin, token: () => token, onEvent: events.push, onState: states.push, timers });
    try {
      await states.until((seen) => seen.includes('unauthorized'));
      await drain();
      expect(timers.scheduled).toBe(0);
      expect(connections).toBe(1);
      token = 'right';
      stream.restart();
      await events.until((seen) => seen.length === 1);
      expect(states.seen).toEqual(['connecting', 'unauthorized', 'connecting', 'open']);
    } finally {
      stream.stop();
    }
  });

  it('stops for good: stop() closes an open stream and cancels a pending retry, and nothing reconnects', async () => {
    let connections = 0;
    const closed = recorder<number>();
    const origin = await serve((req, res) => {
      const n = ++connections;
      req.on('close', () => closed.push(n));
      if (n === 1) return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
    });
    const states = recorder<StreamState>();
    const timers = new ManualTimers();
    const waiting = followEvents({ origin, token: () => 't', onEvent: () => undefined, onState: states.push, timers });
    await timers.fire();
    await states.until((seen) => seen.includes('open'));
    waiting.stop();
    await closed.until((seen) => seen.includes(2));
    await drain();
    expect(timers.scheduled).toBe(0);
    expect(states.seen).toEqual(['connecting', 'connecting', 'open']);

    const unavailable = await serve((_req, res) => void res.writeHead(503).end());
    const retrying = followEvents({ origin: unavailable, token: () => 't', onEvent: () => undefined, onState: () => undefined, timers });
    await timers.retryScheduled();
    retrying.stop();
    expect(timers.scheduled).toBe(0);
    expect(connections).toBe(2);
  });
});
