import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureToken, readToken, rotateToken, tokenPath } from '../../../src-main/core/credentials/person-token.js';
import { tempDir } from '../../support/temp.js';
import { errorOf, raw, serverHome, type ServerHome } from './helpers.js';

/** A run of the auto-approved tool: would run at once if the request were let through. */
const RUN = JSON.stringify({ skill: 'echoes', tool: 'go', args: { a: 'should-not-run' } });

function json(h: ServerHome, headers: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json', ...headers };
}

describe('the loopback API refuses what it must, before anything runs', () => {
  it('runs the tool when the request is right (the control for every refusal below)', async () => {
    const h = await serverHome();
    const ok = await raw(h.server.port, { method: 'POST', path: '/api/run', headers: json(h), body: RUN });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { result: { stdout: 'should-not-run\n', exitCode: 0 } } });
    expect(h.core.runs.history()).toHaveLength(1);
  });

  it.each([
    ['no token', 401, 'E802', () => ({ 'content-type': 'application/json' })],
    ['a wrong token', 401, 'E802', () => ({ 'content-type': 'application/json', authorization: `Bearer ${'x'.repeat(43)}` })],
    ['the token in another scheme', 401, 'E802', (h: ServerHome) => ({ 'content-type': 'application/json', authorization: `Basic ${h.server.token()}` })],
    ['a foreign Origin', 403, 'E803', (h: ServerHome) => json(h, { origin: 'http://evil.example' })],
    ['a loopback Origin on another port', 403, 'E803', (h: ServerHome) => json(h, { origin: `http://127.0.0.1:${h.server.port + 1}` })],
    ['Origin null', 403, 'E803', (h: ServerHome) => json(h, { origin: 'null' })],
    ['a non-loopback Host', 403, 'E803', (h: ServerHome) => json(h, { host: `evil.example:${h.server.port}` })],
    ['a Host without the port', 403, 'E803', (h: ServerHome) => json(h, { host: '127.0.0.1' })],
    ['a Host naming another port of 127.0.0.1', 403, 'E803', (h: ServerHome) => json(h, { host: `127.0.0.1:${h.server.port + 1}` })],
    ['a Host naming another port of localhost', 403, 'E803', (h: ServerHome) => json(h, { host: `localhost:${h.server.port + 1}` })],
    ['a body that is not JSON', 400, 'E805', (h: ServerHome) => json(h), 'skill=echoes&tool=go'],
    ['a form content type', 400, 'E805', (h: ServerHome) => json(h, { 'content-type': 'application/x-www-form-urlencoded' })],
    ['text/plain (what a cross-site form can send)', 400, 'E805', (h: ServerHome) => json(h, { 'content-type': 'text/plain' })],
    ['a schema-invalid body', 400, 'E805', (h: ServerHome) => json(h), '{"skill": 5}'],
    [
      'an attempt to pre-approve over HTTP',
      400,
      'E805',
      (h: ServerHome) => json(h),
      JSON.stringify({ skill: 'asks', tool: 'go', approval: { kind: 'preapproved', actor: 'me' } }),
    ],
    ['an empty body', 400, 'E805', (h: ServerHome) => json(h), ''],
  ])('refuses %s with %i %s, and nothing runs', async (_what, status, code, headers, body = RUN) => {
    const h = await serverHome();
    const response = await raw(h.server.port, { method: 'POST', path: '/api/run', headers: headers(h), body });
    expect(response.status).toBe(status);
    expect(errorOf(response).code).toBe(code);
    expect(h.core.runs.history()).toEqual([]);
  });

  it('refuses a 2 MiB body with 413 E804 without reading it all, and nothing runs', async () => {
    const h = await serverHome();
    const big = JSON.stringify({ skill: 'echoes', tool: 'go', args: { a: 'x'.repeat(2 * 1024 * 1024) } });
    const declared = await raw(h.server.port, { method: 'POST', path: '/api/run', headers: json(h), body: big });
    expect(declared.status).toBe(413);
    expect(errorOf(declared).code).toBe('E804');
    // Chunked, so no Content-Length announces the size: counted while it streams.
    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: h.server.port, method: 'POST', path: '/api/run', headers: { ...json(h), 'transfer-encoding': 'chunked' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = (): void => {
        while (sent < 2 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error.code).toBe('E804');
    expect(h.core.runs.history()).toEqual([]);
  });

  it('answers a CORS preflight from another origin with 403 and no allow headers', async () => {
    const h = await serverHome();
    const response = await raw(h.server.port, {
      method: 'OPTIONS',
      path: '/api/run',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(response.status).toBe(403);
    expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('accepts its own origin and localhost as Host, and says which methods a route takes', async () => {
    const h = await serverHome();
    const local = await raw(h.server.port, {
      method: 'POST',
      path: '/api/health',
      headers: json(h, { host: `localhost:${h.server.port}`, origin: `http://localhost:${h.server.port}` }),
      body: '{}',
    });
    expect(local.status).toBe(200);
    const get = await raw(h.server.port, { method: 'GET', path: '/api/run', headers: json(h) });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(errorOf(get).code).toBe('E808');
    const unknown = await raw(h.server.port, { method: 'POST', path: '/api/format_disk', headers: json(h), body: '{}' });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('E806');
    // Without the token even the route's existence is not disclosed.
    const anonymous = await raw(h.server.port, { method: 'GET', path: '/api/run' });
    expect(anonymous.status).toBe(401);
  });

  it('listens on 127.0.0.1 only', async () => {
    const h = await serverHome();
    expect(h.server.address()).toMatchObject({ address: '127.0.0.1', family: 'IPv4', port: h.server.port });
    expect(h.server.url).toBe(`http://127.0.0.1:${h.server.port}`);
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal);
    if (outside) {
      const refused = await new Promise<string>((resolve) => {
        const req = request({ host: outside.address, port: h.server.port, path: '/openapi.json', timeout: 2000 }, () => resolve('answered'));
        req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        req.on('timeout', () => req.destroy());
        req.end();
      });
      expect(refused).not.toBe('answered');
    }
  });

  it('keeps the token in a 0600 file, 32 random bytes in base64url', async () => {
    const h = await serverHome();
    const path = tokenPath(h.core.config.home);
    expect(path).toBe(join(h.core.config.home, 'token'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(h.server.token()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(h.server.token(), 'base64url')).toHaveLength(32);
    expect(statSync(join(h.core.config.home, 'server.json')).mode & 0o777).toBe(0o600);
  });

  it('never reads <home>/token through a symlink: a token planted elsewhere is no token (every request refused) until the server writes its own', async () => {
    const h = await serverHome();
    const home = h.core.config.home;
    const old = h.server.token();
    const planted = join(tempDir(), 'token');
    const known = randomBytes(32).toString('base64url');
    writeFileSync(planted, `${known}\n`);
    chmodSync(planted, 0o644);
    rmSync(tokenPath(home));
    symlinkSync(planted, tokenPath(home));
    expect(readToken(home)).toBeNull();
    for (const token of [known, old]) {
      const refused = await raw(h.server.port, { method: 'POST', path: '/api/health', headers: json(h, { authorization: `Bearer ${token}` }), body: '{}' });
      expect([refused.status, errorOf(refused).code]).toEqual([401, 'E802']);
    }
    // A start replaces the link with a token file of its own and leaves the planted file as it was.
    const fresh = ensureToken(home);
    expect(fresh).not.toBe(known);
    expect(lstatSync(tokenPath(home)).isSymbolicLink()).toBe(false);
    expect(statSync(tokenPath(home)).mode & 0o777).toBe(0o600);
    expect([readFileSync(planted, 'utf8'), statSync(planted).mode & 0o777]).toEqual([`${known}\n`, 0o644]);
  });

  it('takes a rotation at once: the old token is refused, the new one accepted', async () => {
    const h = await serverHome();
    const old = h.server.token();
    const fresh = rotateToken(h.core.config.home);
    expect(fresh).not.toBe(old);
    expect(h.server.token()).toBe(fresh);
    const withOld = await raw(h.server.port, { method: 'POST', path: '/api/health', headers: json(h, { authorization: `Bearer ${old}` }), body: '{}' });
    expect(withOld.status).toBe(401);
    const withNew = await raw(h.server.port, { method: 'POST', path: '/api/health', headers: json(h, { authorization: `Bearer ${fresh}` }), body: '{}' });
    expect(withNew.status).toBe(200);
    expect(statSync(tokenPath(h.core.config.home)).mode & 0o777).toBe(0o600);
  });

  it('sends the security headers on every answer, errors included', async () => {
    const h = await serverHome();
    for (const response of [await raw(h.server.port, { path: '/openapi.json' }), await raw(h.server.port, { method: 'POST', path: '/api/health' })]) {
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});
