import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { toSkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { SkilltrayClientError } from '../../../src-main/shared/contract.js';
import { findOwner, httpTransport, ownerClient } from '../../../src-main/server/app-link.js';
import { startHttpServer } from '../../../src-main/server/http.js';
import { ensureToken } from '../../../src-main/core/credentials/person-token.js';
import { testHome } from '../../support/temp.js';
import { errorOf, onCleanup, raw, readEvents, serverHome, waitFor } from './helpers.js';

async function deadPid(): Promise<number> {
  const child = execa(process.execPath, ['-e', '']);
  await child;
  return child.pid as number;
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function writeRecord(home: string, record: Record<string, unknown>): void {
  writeFileSync(
    join(home, 'server.json'),
    JSON.stringify({ url: `http://127.0.0.1:${String(record.port)}`, owner: 'serve', version: 'x', started_at: new Date().toISOString(), ...record }),
  );
}

describe('finding the owner of runs', () => {
  it('finds a running server through server.json and the token', async () => {
    const h = await serverHome();
    const record = JSON.parse(readFileSync(join(h.core.config.home, 'server.json'), 'utf8'));
    expect(record).toMatchObject({ pid: process.pid, port: h.server.port, url: h.server.url, owner: 'serve', version: '0.0.0-test' });
    expect(Date.parse(record.started_at)).not.toBeNaN();
    expect(await findOwner(h.core.config.home)).toEqual({ url: h.server.url, token: h.server.token(), owner: 'serve' });
  });

  it('says null for no file, a garbled file, a dead pid, a closed port, or a server of another home', async () => {
    const t = testHome();
    const home = t.home;
    expect(await findOwner(home)).toBeNull();
    const other = await serverHome();
    writeFileSync(join(home, 'token'), `${other.server.token()}\n`, { mode: 0o600 });
    writeFileSync(join(home, 'server.json'), '{ not json');
    expect(await findOwner(home)).toBeNull();
    writeRecord(home, { pid: await deadPid(), port: other.server.port });
    expect(await findOwner(home)).toBeNull();
    writeRecord(home, { pid: process.pid, port: await closedPort() });
    expect(await findOwner(home)).toBeNull();
    // Live pid, answering port, right token — but the server owns another home.
    writeRecord(home, { pid: process.pid, port: other.server.port });
    expect(await findOwner(home)).toBeNull();
    // Whatever url the file claims, only loopback on its port is contacted (and the token sent there).
    writeRecord(other.core.config.home, { pid: process.pid, port: other.server.port, url: 'http://evil.example:80' });
    expect(await findOwner(other.core.config.home)).toMatchObject({ url: other.server.url });
  });

  it('answers a network failure as an E807 envelope, and owner errors with their codes', async () => {
    const port = await closedPort();
    const envelope = await httpTransport(`http://127.0.0.1:${port}`, 'x')('health', {});
    expect(envelope).toMatchObject({ ok: false, error: { code: 'E807', kind: 'app_not_reachable' } });
    expect(envelope.ok ? '' : envelope.error.message).toContain(`the Skilltray app is not reachable at http://127.0.0.1:${port}`);
    const h = await serverHome();
    const client = ownerClient({ url: h.server.url, token: h.server.token() });
    expect((await client.health({})).home).toBe(h.core.config.home);
    const error = await client.describe({ skill: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkilltrayClientError);
    expect(error).toMatchObject({ code: 'E001', kind: 'skill_not_found', message: "skill 'nope' not found" });
    expect(toSkilltrayError(error)).toMatchObject({ code: 'E001', message: "skill 'nope' not found", details: { skill: 'nope' } });
    const wrongToken = await ownerClient({ url: h.server.url, token: 'nope' })
      .health({})
      .catch((e: unknown) => e);
    expect(wrongToken).toMatchObject({ code: 'E802' });
  });
});

/** Everything a fake server on a recorded port was sent: request line, headers and body, as text. */
interface Impostor {
  port: number;
  received: string[];
}

/**
 * A program of another user on a crashed owner's port: it logs everything it receives and answers
 * each request with `answer` (by default what a real owner's `health` would say for `home`).
 */
async function impostor(home: string, answer?: (req: IncomingMessage, res: ServerResponse) => void): Promise<Impostor> {
  const received: string[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${body}`);
      if (answer) return answer(req, res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, value: { app: 'skilltray', pid: process.pid, home, owner: 'serve', version: 'x' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise((resolve) => server.close(() => resolve())));
  return { port: (server.address() as { port: number }).port, received };
}

describe('proving the owner before sending it the token', () => {
  it('answers GET /api/identify with HMAC-SHA256(token, nonce) and nothing else, without a token', async () => {
    const h = await serverHome();
    const nonce = '0123456789abcdef0123456789abcdef';
    const answer = await raw(h.server.port, { path: `/api/identify?nonce=${nonce}` });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      ok: true,
      value: { app: 'skilltray', proof: createHmac('sha256', h.server.token()).update(nonce).digest('hex') },
    });
    expect(answer.body).not.toContain(h.server.token());
    for (const query of [
      '',
      '?nonce=',
      '?nonce=0123456789abcdef',
      `?nonce=${nonce.toUpperCase()}`,
      `?nonce=${'g'.repeat(32)}`,
      `?nonce=${nonce}0`,
      `?nonce=${nonce}&nonce=${nonce}`,
    ]) {
      const refused = await raw(h.server.port, { path: `/api/identify${query}` });
      expect([query, refused.status, errorOf(refused).code]).toEqual([query, 400, 'E805']);
    }
    const posted = await raw(h.server.port, {
      method: 'POST',
      path: `/api/identify?nonce=${nonce}`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect([posted.status, posted.headers.allow]).toEqual([405, 'GET']);
    const rebound = await raw(h.server.port, { path: `/api/identify?nonce=${nonce}`, headers: { host: `attacker.example:${h.server.port}` } });
    expect([rebound.status, errorOf(rebound).code]).toEqual([403, 'E803']);
    const foreign = await raw(h.server.port, { path: `/api/identify?nonce=${nonce}`, headers: { origin: 'http://attacker.example' } });
    expect(foreign.status).toBe(403);
  });

  it("never sends the token to whatever holds a crashed owner's port, however it answers", async () => {
    const t = testHome();
    const token = ensureToken(t.home);
    const wrongKey = (req: IncomingMessage, res: ServerResponse): void => {
      const nonce = new URL(req.url ?? '/', 'http://x').searchParams.get('nonce') ?? '';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, value: { app: 'skilltray', proof: createHmac('sha256', 'not the token').update(nonce).digest('hex') } }));
    };
    const echo = (req: IncomingMessage, res: ServerResponse): void => {
      const nonce = new URL(req.url ?? '/', 'http://x').searchParams.get('nonce') ?? '';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, value: { app: 'skilltray', proof: nonce + nonce } }));
    };
    for (const answer of [undefined, wrongKey, echo]) {
      const fake = await impostor(t.home, answer);
      writeRecord(t.home, { pid: process.pid, port: fake.port });
      expect(await findOwner(t.home)).toBeNull();
      expect(fake.received).toHaveLength(1);
      expect(fake.received[0]).toMatch(/^GET \/api\/identify\?nonce=[0-9a-f]{32}\n/);
      expect(fake.received.join('\n')).not.toContain(token);
      expect(fake.received.join('\n')).not.toMatch(/authorization/i);
    }
  });

  it('starts a new owner over an impostor on the recorded port, and tells it nothing', async () => {
    const t = testHome();
    const token = ensureToken(t.home);
    const fake = await impostor(t.home);
    writeRecord(t.home, { pid: process.pid, port: fake.port });
    const core = new SkilltrayCore(t.config());
    onCleanup(() => core.close());
    const server = await startHttpServer({ core, owner: 'serve', version: 'x' });
    onCleanup(() => server.close());
    expect(JSON.parse(readFileSync(join(t.home, 'server.json'), 'utf8'))).toMatchObject({ pid: process.pid, port: server.port });
    expect(fake.received.length).toBeGreaterThan(0);
    expect(fake.received.join('\n')).not.toContain(token);
  });

  it('does not take a pid of another user (EPERM) for the owner, and contacts nothing', async () => {
    const t = testHome();
    ensureToken(t.home);
    const fake = await impostor(t.home);
    const otherUsers = 4_000_000;
    const kill = process.kill.bind(process);
    const spy = vi.spyOn(process, 'kill').mockImplementation((pid: number, signal?: string | number) => {
      if (pid !== otherUsers) return kill(pid, signal);
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM', syscall: 'kill' });
    });
    onCleanup(async () => spy.mockRestore());
    writeRecord(t.home, { pid: otherUsers, port: fake.port });
    expect(await findOwner(t.home)).toBeNull();
    expect(spy).toHaveBeenCalledWith(otherUsers, 0);
    expect(fake.received).toEqual([]);
  });
});

describe('one owner per home', () => {
  it('refuses a second server on the same home with E809, and allows one once the first closed', async () => {
    const h = await serverHome();
    const second = new SkilltrayCore(h.t.config());
    onCleanup(() => second.close());
    await expect(startHttpServer({ core: second, owner: 'app', version: 'x' })).rejects.toMatchObject({ code: 'E809', kind: 'owner_already_running' });
    await h.server.close();
    expect(existsSync(join(h.core.config.home, 'server.json'))).toBe(false);
    const again = await startHttpServer({ core: second, owner: 'app', version: 'x' });
    onCleanup(() => again.close());
    expect(await findOwner(h.core.config.home)).toMatchObject({ url: again.url, owner: 'app' });
  });

  it("replaces a crashed owner's server.json", async () => {
    const t = testHome();
    writeRecord(t.home, { pid: await deadPid(), port: 1 });
    const core = new SkilltrayCore(t.config());
    onCleanup(() => core.close());
    const server = await startHttpServer({ core, owner: 'serve', version: 'x' });
    onCleanup(() => server.close());
    expect(JSON.parse(readFileSync(join(t.home, 'server.json'), 'utf8'))).toMatchObject({ pid: process.pid, port: server.port });
  });

  it('says which port cannot be bound (E810)', async () => {
    const h = await serverHome();
    const t = testHome();
    const core = new SkilltrayCore(t.config());
    onCleanup(() => core.close());
    await expect(startHttpServer({ core, owner: 'serve', version: 'x', port: h.server.port })).rejects.toMatchObject({ code: 'E810' });
    expect(existsSync(join(t.home, 'server.json'))).toBe(false);
  });
});

describe('closing the server', () => {
  it('withdraws what its callers wait for, ends event streams, and removes server.json', async () => {
    const h = await serverHome();
    const events = await readEvents(h.server);
    const waiting = h.call('run', { skill: 'asks', tool: 'go', args: { a: 'x' } }).catch((error: unknown) => error);
    await waitFor(() => (h.core.broker.list().length === 1 ? true : undefined));
    await h.server.close();
    expect(h.core.broker.list()).toEqual([]);
    await waiting;
    expect(h.core.runs.history()[0]).toMatchObject({ status: 'refused', errorCode: 'E613', decidedBy: 'caller' });
    expect(existsSync(join(h.core.config.home, 'server.json'))).toBe(false);
    await expect(fetch(`${h.server.url}/openapi.json`)).rejects.toThrow();
    events.close();
  });
});
