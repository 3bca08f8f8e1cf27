import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import { followEvents, httpTransport, type StreamState } from '../../../src-renderer/api/http-transport.js';

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

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const settings = (mode: 'Global' | 'Dev'): ServerEvent => ({ type: 'settings', settings: { mode, paused: false, paletteShortcut: 'CommandOrControl+Shift+Space' } });

describe('the HTTP transport', () => {
  it('POSTs JSON with the bearer token to /api/<operation> and hands back the envelope, whatever the status', async () => {
    const seen: { url?: string; auth?: string; type?: string; body: string }[] = [];
    const origin = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body });
        res.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: { code: 'E603', kind: 'denied_by_user', message: 'no' } }));
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
  it('reconnects with backoff after a failure and after the stream ends, and delivers every event in order', async () => {
    let connections = 0;
    const auths: (string | undefined)[] = [];
    const origin = await serve((req, res) => {
      auths.push(req.headers.authorization);
      connections++;
      if (connections === 1) return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (connections === 2) {
        // Split mid-line and mid-event: the parser must stitch chunks together.
        const text = `: hello\n\nevent: settings\ndata: ${JSON.stringify(settings('Dev'))}\n\n`;
        res.write(text.slice(0, 20));
        setTimeout(() => res.end(text.slice(20)), 20);
      } else {
        res.write(`event: settings\r\ndata: ${JSON.stringify(settings('Global'))}\r\n\r\n`);
      }
    });
    const events: ServerEvent[] = [];
    const states: StreamState[] = [];
    const stream = followEvents({ origin, token: () => 'tok', onEvent: (e) => events.push(e), onState: (s) => states.push(s), baseDelayMs: 10 });
    try {
      await until(() => events.length === 2);
      expect(events).toEqual([settings('Dev'), settings('Global')]);
      expect(connections).toBe(3);
      expect(auths).toEqual(['Bearer tok', 'Bearer tok', 'Bearer tok']);
      expect(states).toEqual(['connecting', 'connecting', 'open', 'connecting', 'open']);
    } finally {
      stream.stop();
    }
  });

  it('stops at 401 until restarted with a token that works', async () => {
    let token = 'wrong';
    let connections = 0;
    const origin = await serve((req, res) => {
      connections++;
      if (req.headers.authorization !== 'Bearer right') return void res.writeHead(401).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(`data: ${JSON.stringify(settings('Dev'))}\n\n`);
    });
    const events: ServerEvent[] = [];
    const states: StreamState[] = [];
    const stream = followEvents({ origin, token: () => token, onEvent: (e) => events.push(e), onState: (s) => states.push(s), baseDelayMs: 5 });
    try {
      await until(() => states.includes('unauthorized'));
      await new Promise((r) => setTimeout(r, 60));
      expect(connections).toBe(1);
      token = 'right';
      stream.restart();
      await until(() => events.length === 1);
      expect(states).toEqual(['connecting', 'unauthorized', 'connecting', 'open']);
    } finally {
      stream.stop();
    }
  });

  it('stops for good: no reconnect after stop()', async () => {
    let connections = 0;
    const origin = await serve((_req, res) => {
      connections++;
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
    });
    const states: StreamState[] = [];
    const stream = followEvents({ origin, token: () => 't', onEvent: () => undefined, onState: (s) => states.push(s), baseDelayMs: 5 });
    await until(() => states.includes('open'));
    stream.stop();
    await new Promise((r) => setTimeout(r, 80));
    expect(connections).toBe(1);
    expect(states).toEqual(['connecting', 'open']);
  });
});
