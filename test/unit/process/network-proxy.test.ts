/**
 * A run's filtering proxy on real sockets (loopback only): HTTP forwarding, CONNECT and SOCKS5
 * reach a listed host and are refused for any other, each refusal counted by host and port; a
 * refused name is never looked up; `*` and a name that resolves to this computer do not reach
 * it; the record stays bounded; closing cuts what it carries. Names resolve through a lookup the
 * test gives, so nothing leaves the machine.
 */
import { request as httpRequest, createServer as createHttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { refusedConnection } from '../../../src-main/cli/commands/history.js';
import { judge } from '../../../src-main/core/process/network/allow-list.js';
import { MAX_DENIALS, startNetworkProxy, type NetworkProxy, type ProxyOptions } from '../../../src-main/core/process/network/proxy-server.js';
import type { NetworkDenial } from '../../../src-main/shared/runs.js';
import { tempDir } from '../../support/temp.js';

const servers: Server[] = [];
const proxies: NetworkProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.dispose();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** An HTTP server on loopback answering with the path it was asked for; and a raw echo server. */
async function origin(): Promise<number> {
  const server = createHttpServer((req, res) =>
    res.end(`reached ${req.url ?? ''} host=${req.headers.host ?? ''} proxy-auth=${req.headers['proxy-authorization'] ?? 'none'}`),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function proxyFor(options: Partial<ProxyOptions> & { hosts: string[] }): Promise<NetworkProxy> {
  const proxy = await startNetworkProxy({ socketPath: join(tempDir(), 'proxy.sock'), lookup: async () => '127.0.0.1', ...options });
  proxies.push(proxy);
  return proxy;
}

function dial(proxy: NetworkProxy): Socket {
  return proxy.address.kind === 'unix' ? connect(proxy.address.path) : connect(proxy.address.port, '127.0.0.1');
}

/** Everything the socket sends until it ends. */
function drain(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
}

/** A plain-HTTP request through the proxy (absolute-form), as curl sends it with http_proxy set. */
function forward(
  proxy: NetworkProxy,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; refused: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ createConnection: () => dial(proxy), path: url, headers: { host: new URL(url).host, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, refused: res.headers['x-skilltray-refused'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** CONNECT host:port, then (when tunnelled) a GET through the tunnel; returns all the client read. */
async function tunnel(proxy: NetworkProxy, authority: string): Promise<string> {
  const socket = dial(proxy);
  const all = drain(socket);
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\nGET /through-tunnel HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
  return all;
}

/** A SOCKS5 CONNECT to a name (type 3) or an IPv4 address (type 1); returns the reply code and what followed. */
async function socks(proxy: NetworkProxy, host: string, port: number, command = 0x01): Promise<{ reply: number; rest: string }> {
  const socket = dial(proxy);
  const all = drain(socket);
  const address = /^\d+\.\d+\.\d+\.\d+$/.test(host)
    ? Buffer.from([0x01, ...host.split('.').map(Number)])
    : Buffer.concat([Buffer.from([0x03, host.length]), Buffer.from(host, 'latin1')]);
  const portBytes = Buffer.alloc(2);
  portBytes.writeUInt16BE(port);
  // Greeting, request and the first bytes of the tunnelled request in one write: the proxy must cope.
  socket.write(
    Buffer.concat([
      Buffer.from([0x05, 0x01, 0x00, 0x05, command, 0x00]),
      address,
      portBytes,
      Buffer.from(`GET /through-socks HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    ]),
  );
  const text = Buffer.from(await all, 'latin1');
  expect([...text.subarray(0, 2)]).toEqual([0x05, 0x00]);
  return { reply: text[3] as number, rest: text.subarray(12).toString() };
}

describe('the network proxy', () => {
  it('forwards plain HTTP to a listed host without the proxy’s own headers, and refuses another with 403', async () => {
    const port = await origin();
    const proxy = await proxyFor({ hosts: [`127.0.0.1:${port}`] });
    const ok = await forward(proxy, `http://127.0.0.1:${port}/page?q=1`, { 'proxy-authorization': 'Basic c2VjcmV0' });
    expect(ok).toMatchObject({ status: 200, body: `reached /page?q=1 host=127.0.0.1:${port} proxy-auth=none` });
    const no = await forward(proxy, `http://127.0.0.1:${port + 1}/x`);
    expect(no).toMatchObject({ status: 403, refused: "not in the skill's network list" });
    expect(no.body).toContain(`refused "127.0.0.1" port ${port + 1}`);
    expect(proxy.denied()).toEqual([{ host: '127.0.0.1', port: port + 1, why: "not in the skill's network list", count: 1 }]);
  });

  it('tunnels CONNECT to a listed host and refuses another', async () => {
    const port = await origin();
    const proxy = await proxyFor({ hosts: ['localhost'] });
    const ok = await tunnel(proxy, `localhost:${port}`);
    expect(ok).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(ok).toContain('reached /through-tunnel');
    const no = await tunnel(proxy, `api.github.com:443`);
    expect(no).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(no).not.toContain('reached');
    expect(proxy.denied()).toEqual([{ host: 'api.github.com', port: 443, why: "not in the skill's network list", count: 1 }]);
  });

  it('speaks SOCKS5 to a name the proxy resolves and to an address; refuses others (0x02) and BIND (0x07)', async () => {
    const port = await origin();
    const proxy = await proxyFor({ hosts: ['localhost', `127.0.0.1:${port}`] });
    const byName = await socks(proxy, 'localhost', port);
    expect(byName.reply).toBe(0x00);
    expect(byName.rest).toContain('reached /through-socks');
    expect((await socks(proxy, '127.0.0.1', port)).reply).toBe(0x00);
    expect((await socks(proxy, '127.0.0.1', port + 1)).reply).toBe(0x02);
    expect((await socks(proxy, 'evil.example', 80)).reply).toBe(0x02);
    expect((await socks(proxy, 'localhost', port, 0x02)).reply).toBe(0x07);
    expect(proxy.denied().map((d) => `${d.host}:${d.port}`)).toEqual([`127.0.0.1:${port + 1}`, 'evil.example:80']);
  });

  it('records a SOCKS5 name that is no host name exactly, and the CLI shows it escaped, so it cannot fake a line of history', async () => {
    const proxy = await proxyFor({ hosts: ['api.github.com'] });
    const forged = 'x\nrefused     \u001b[2Jok.example';
    expect((await socks(proxy, forged, 443)).reply).toBe(0x02);
    const [denial] = proxy.denied();
    expect(denial).toEqual({ host: forged, port: 443, why: 'not a host name or address and port', count: 1 });
    expect(refusedConnection(denial as NetworkDenial)).toBe('x\\nrefused     \\x1b[2Jok.example:443: not a host name or address and port');
  });

  it('never looks up a name it refuses, so a refused name cannot carry data to a DNS server', async () => {
    const asked: string[] = [];
    const lookup = async (host: string): Promise<string> => {
      asked.push(host);
      return '93.184.215.14';
    };
    expect(await judge(['api.github.com'], 'c2VjcmV0.evil.example', 443, lookup)).toMatchObject({ kind: 'deny' });
    expect(asked).toEqual([]);
    expect(await judge(['api.github.com'], 'API.GITHUB.COM.', 443, lookup)).toEqual({ kind: 'allow', host: 'api.github.com', address: '93.184.215.14' });
    expect(asked).toEqual(['api.github.com']);
  });

  it('keeps this computer out of reach of * and of a listed name that resolves to it (DNS rebinding), but not of a list that names it', async () => {
    const loopback = async (): Promise<string> => '127.0.0.1';
    const own = (): string[] => ['127.0.0.1', '::1', '192.168.7.20'];
    expect(await judge(['*'], 'anything.example', 80, loopback, own)).toMatchObject({
      kind: 'deny',
      why: '127.0.0.1 is this computer (loopback, 127.0.0.0/8); only a list that names this address reaches it',
    });
    expect(await judge(['*'], '2130706433', 80, loopback, own)).toMatchObject({ kind: 'deny', host: '127.0.0.1' });
    expect(await judge(['*'], '[::ffff:127.0.0.1]', 80, loopback, own)).toMatchObject({ kind: 'deny' });
    expect(await judge(['*'], '169.254.169.254', 80, loopback, own)).toMatchObject({ kind: 'deny' });
    expect(await judge(['rebind.example'], 'rebind.example', 80, loopback, own)).toMatchObject({ kind: 'deny' });
    expect(await judge(['localhost'], 'localhost', 80, loopback, own)).toMatchObject({ kind: 'allow', address: '127.0.0.1' });
    expect(await judge(['localhost'], 'localhost', 80, async () => '192.168.7.20', own)).toMatchObject({ kind: 'deny' });
    expect(await judge(['127.0.0.1:8080'], '127.0.0.1', 8080, loopback, own)).toMatchObject({ kind: 'allow' });
    // This computer's LAN address is its own: a service on 0.0.0.0 answers there.
    expect(await judge(['*'], '192.168.7.20', 80, loopback, own)).toMatchObject({
      kind: 'deny',
      why: "192.168.7.20 is this computer's own address; only a list that names this address reaches it",
    });
    expect(await judge(['printer.lan'], 'printer.lan', 80, async () => '192.168.7.20', own)).toMatchObject({ kind: 'deny' });
    expect(await judge(['192.168.7.20:80'], '192.168.7.20', 80, loopback, own)).toMatchObject({ kind: 'allow' });
    expect(await judge(['*'], 'example.org', 80, async () => '93.184.215.14', own)).toMatchObject({ kind: 'allow' });
    expect(await judge(['*'], 'nowhere.invalid', 80, async () => Promise.reject(new Error('ENOTFOUND')), own)).toMatchObject({ kind: 'unreachable' });
  });

  it('with any host (*) reaches the public internet only; a list reaches the private hosts it names, by address or by name', async () => {
    const own = (): string[] => ['127.0.0.1'];
    const intranet = async (): Promise<string> => '10.1.2.3';
    expect(await judge(['*'], 'intranet.corp.example', 443, intranet, own)).toMatchObject({
      kind: 'deny',
      why: '10.1.2.3 is not on the public internet (a private network (10.0.0.0/8)); only a list that names it reaches it',
    });
    expect(await judge(['*'], '10.1.2.3', 443, intranet, own)).toMatchObject({ kind: 'deny' });
    expect(await judge(['*'], '[fd00::5]', 443, intranet, own)).toMatchObject({ kind: 'deny' });
    expect(await judge(['intranet.corp.example'], 'intranet.corp.example', 443, intranet, own)).toMatchObject({ kind: 'allow', address: '10.1.2.3' });
    expect(await judge(['*.corp.example'], 'db.corp.example', 443, intranet, own)).toMatchObject({ kind: 'allow' });
    expect(await judge(['10.1.2.3:443'], '10.1.2.3', 443, intranet, own)).toMatchObject({ kind: 'allow' });
    expect(await judge(['[fd00::5]'], '[fd00::5]', 443, intranet, own)).toMatchObject({ kind: 'allow' });
  });

  it('counts repeats and keeps at most MAX_DENIALS host:port pairs', async () => {
    const proxy = await proxyFor({ hosts: ['api.github.com'] });
    await forward(proxy, 'http://a.example/');
    await forward(proxy, 'http://a.example/again');
    for (let i = 0; i < MAX_DENIALS + 5; i++) await forward(proxy, `http://h${i}.example/`);
    const denied = proxy.denied();
    expect(denied).toHaveLength(MAX_DENIALS);
    expect(denied[0]).toEqual({ host: 'a.example', port: 80, why: "not in the skill's network list", count: 2 });
  });

  it('listens on a loopback port when given no socket path (Seatbelt), and cuts every tunnel when closed', async () => {
    const echo = createServer((socket) => socket.pipe(socket));
    servers.push(echo);
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const port = (echo.address() as AddressInfo).port;
    const proxy = await proxyFor({ hosts: [`127.0.0.1:${port}`], socketPath: null });
    expect(proxy.address).toEqual({ kind: 'tcp', port: expect.any(Number) });
    const client = dial(proxy);
    const ended = drain(client);
    client.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
    await new Promise<void>((resolve) => client.once('data', () => resolve()));
    await proxy.dispose();
    expect(await ended).toContain('200 Connection Established');
  });
});
