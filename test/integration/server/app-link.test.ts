import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { toSkilltrayError } from '../../../src-main/core/errors.js';
import { SkilltrayClientError } from '../../../src-main/shared/contract.js';
import { findOwner, httpTransport, ownerClient } from '../../../src-main/server/app-link.js';
import { startHttpServer } from '../../../src-main/server/http.js';
import { testHome } from '../../support/temp.js';
import { onCleanup, readEvents, serverHome, waitFor } from './helpers.js';

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
  writeFileSync(join(home, 'server.json'), JSON.stringify({ url: `http://127.0.0.1:${String(record.port)}`, owner: 'serve', version: 'x', started_at: new Date().toISOString(), ...record }));
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
    const wrongToken = await ownerClient({ url: h.server.url, token: 'nope' }).health({}).catch((e: unknown) => e);
    expect(wrongToken).toMatchObject({ code: 'E802' });
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
    await waitFor(() => (h.core.pendingApprovals().length === 1 ? true : undefined));
    await h.server.close();
    expect(h.core.pendingApprovals()).toEqual([]);
    await waiting;
    expect(h.core.history()[0]).toMatchObject({ status: 'refused', errorCode: 'E613' });
    expect(existsSync(join(h.core.config.home, 'server.json'))).toBe(false);
    await expect(fetch(`${h.server.url}/openapi.json`)).rejects.toThrow();
    events.close();
  });
});
