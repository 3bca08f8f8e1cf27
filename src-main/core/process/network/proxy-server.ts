/**
 * A run's filtering proxy: Skilltray starts one per run whose network leads to a list of hosts,
 * outside the sandbox, and the sandbox reaches it only through the socket bound into it (see
 * net-relay.c). One listener speaks three protocols, told apart by the first byte: SOCKS5 (0x05),
 * HTTP CONNECT (a tunnel, for https) and plain HTTP forwarding (`GET http://host/…`), the last two
 * parsed by Node's own HTTP server. Every target is judged by allow-list.ts before anything is
 * looked up or connected; what it refuses is counted, by host and port, for the run's record.
 */
import { createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { NetworkDenial } from '../../../shared/runs.js';
import type { Disposable } from '../run-resources.js';
import { judge, type Lookup, type OwnAddresses, type Verdict } from './allow-list.js';
import { readSocksRequest, socksReply, SOCKS_REPLY } from './socks5.js';

/** Where a proxy listens: a Unix socket (bound into a bubblewrap sandbox), or a loopback TCP port (Seatbelt). */
export type ProxyAddress = { kind: 'unix'; path: string } | { kind: 'tcp'; port: number };

/** A running proxy. */
export interface NetworkProxy extends Disposable {
  address: ProxyAddress;
  /** What it refused so far, by host and port, first refusals first. */
  denied(): NetworkDenial[];
  /** Stops listening and cuts every connection it carries. */
  dispose(): Promise<void>;
}

export interface ProxyOptions {
  /** The run's host list (`*` alone: any host). */
  hosts: readonly string[];
  /** A Unix socket path to listen on, or null for a loopback TCP port the OS picks. */
  socketPath: string | null;
  /** Name resolution; the system's unless a test gives its own. */
  lookup?: Lookup;
  /** This computer's own addresses; its interfaces' at each connection unless a test gives its own. */
  ownAddresses?: OwnAddresses;
}

/** Refusals kept per run: a tool that tries a million hosts leaves a record of bounded size. */
export const MAX_DENIALS = 100;

/** Headers that describe one hop, not the request: never forwarded (RFC 9110 §7.6.1, and the proxy's own). */
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name)));
}

/** `host:port` of a CONNECT request (`[v6]:port` for IPv6). */
function authority(text: string): { host: string; port: number } {
  const match = /^(\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(text);
  return match === null ? { host: text, port: 0 } : { host: match[1] as string, port: Number(match[2]) };
}

/** Ties two sockets together until either ends; an error on one ends both. */
function splice(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = (): void => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end);
  b.on('error', end);
  a.on('close', end);
  b.on('close', end);
}

/** Starts a proxy for one run. */
export async function startNetworkProxy(options: ProxyOptions): Promise<NetworkProxy> {
  const sockets = new Set<Socket>();
  const denials = new Map<string, NetworkDenial>();
  const track = (socket: Socket): Socket => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
  const decide = async (host: string, port: number): Promise<Verdict> => {
    const verdict = await judge(options.hosts, host, port, options.lookup, options.ownAddresses);
    if (verdict.kind === 'deny') {
      const key = `${verdict.host}\0${port}`;
      const seen = denials.get(key);
      if (seen) seen.count += 1;
      else if (denials.size < MAX_DENIALS) denials.set(key, { host: verdict.host, port, why: verdict.why, count: 1 });
    }
    return verdict;
  };
  /** Connects to an allowed target; resolves null when it cannot be reached. */
  const open = (address: string, port: number): Promise<Socket | null> =>
    new Promise((resolve) => {
      const upstream = track(connect({ host: address, port }));
      upstream.once('connect', () => resolve(upstream));
      upstream.once('error', () => resolve(null));
    });

  const refusal = (verdict: Exclude<Verdict, { kind: 'allow' }>, port: number): string =>
    verdict.kind === 'deny'
      ? `Skilltray's network allow-list refused ${JSON.stringify(verdict.host)} port ${port}: ${verdict.why}\n`
      : `${JSON.stringify(verdict.host)}: ${verdict.why}\n`;

  const forward = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('this is a proxy: ask for an absolute http:// URL, or CONNECT\n');
      return;
    }
    if (target.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('only http:// URLs are forwarded; https goes through CONNECT\n');
      return;
    }
    const port = target.port === '' ? 80 : Number(target.port);
    const verdict = await decide(target.hostname, port);
    if (verdict.kind !== 'allow') {
      res.writeHead(verdict.kind === 'deny' ? 403 : 502, { 'content-type': 'text/plain', 'x-skilltray-refused': verdict.why }).end(refusal(verdict, port));
      return;
    }
    const upstream = httpRequest({
      host: verdict.address,
      port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: endToEnd(req.headers),
      setHost: false,
    });
    upstream.on('socket', track);
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(res);
    });
    upstream.on('error', () =>
      res.headersSent ? res.destroy() : res.writeHead(502, { 'content-type': 'text/plain' }).end(`cannot reach ${verdict.host}:${port}\n`),
    );
    req.pipe(upstream);
  };

  const tunnel = async (req: IncomingMessage, client: Socket, head: Buffer): Promise<void> => {
    const { host, port } = authority(req.url ?? '');
    const verdict = await decide(host, port);
    if (verdict.kind !== 'allow') {
      const body = refusal(verdict, port);
      const status = verdict.kind === 'deny' ? '403 Forbidden' : '502 Bad Gateway';
      client.end(
        `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nX-Skilltray-Refused: ${verdict.why}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const upstream = await open(verdict.address, port);
    if (upstream === null) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  };

  const socks = async (client: Socket, first: Buffer): Promise<void> => {
    const request = await readSocksRequest(client, first);
    if (request === null) return;
    const verdict = await decide(request.host, request.port);
    if (verdict.kind !== 'allow') {
      client.end(socksReply(verdict.kind === 'deny' ? SOCKS_REPLY.notAllowed : SOCKS_REPLY.hostUnreachable));
      return;
    }
    const upstream = await open(verdict.address, request.port);
    if (upstream === null) {
      client.end(socksReply(SOCKS_REPLY.refused));
      return;
    }
    client.write(socksReply(SOCKS_REPLY.succeeded));
    if (request.rest.length > 0) upstream.write(request.rest);
    splice(client, upstream);
  };

  // The run's own timeout bounds every exchange, so the HTTP server adds none of its own.
  const http = createHttpServer({ requestTimeout: 0, headersTimeout: 0, keepAliveTimeout: 0 }, (req, res) => void forward(req, res));
  http.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => void tunnel(req, client, head));
  http.on('clientError', (_error, client: Socket) => client.destroy());

  const server = createServer((client) => {
    track(client);
    client.on('error', () => client.destroy());
    client.once('data', (first: Buffer) => {
      client.pause();
      if (first[0] === 0x05) {
        void socks(client, first);
        return;
      }
      client.unshift(first);
      http.emit('connection', client);
      client.resume();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (options.socketPath === null) server.listen(0, '127.0.0.1', resolve);
    else server.listen(options.socketPath, resolve);
  });
  const address: ProxyAddress =
    options.socketPath === null ? { kind: 'tcp', port: (server.address() as AddressInfo).port } : { kind: 'unix', path: options.socketPath };
  let closed: Promise<void> | undefined;
  return {
    address,
    denied: () => [...denials.values()].map((denial) => ({ ...denial })),
    dispose: () =>
      (closed ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      })),
  };
}
