/**
 * `GET /api/events`: the core's events as server-sent events (`event: <type>\ndata: <json>\n\n`),
 * with a comment heartbeat so idle connections and proxies stay open. Each event is serialised
 * once and the same bytes are written to every subscriber. A subscriber costs at most its byte
 * budget of bytes its socket has not taken yet (counted in bytes: every write is a Buffer): one that
 * stops reading is dropped there. One token holds at most MAX_STREAMS_PER_TOKEN streams at once.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SkilltrayCore } from '../core/api.js';
import type { SkilltrayError } from '../shared/skilltray-error.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';
import type { ServerEvent } from '../shared/contract.js';

/** Bytes written to one subscriber and not yet taken by its socket, before it is dropped. */
export const MAX_BACKLOG_BYTES = 1024 * 1024;

/** Event streams one token may hold open at once. */
export const MAX_STREAMS_PER_TOKEN = 512;

/** How long a refused subscriber is told to wait before trying again. */
const RETRY_AFTER_S = 5;

/** One event as every subscriber receives it. */
export function eventFrame(event: ServerEvent): Buffer {
  return Buffer.from(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`, 'utf8');
}

const HEARTBEAT = Buffer.from(': heartbeat\n\n');
const CONNECTED = Buffer.from(': connected\n\n');

interface Subscriber {
  res: ServerResponse;
  /** Which token opened it (a digest: the token itself is not kept). */
  token: string;
}

/** The open event streams of one server. */
export class EventStreams {
  private readonly open = new Map<ServerResponse, Subscriber>();
  private readonly perToken = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly onEvent = (event: ServerEvent): void => this.broadcast(eventFrame(event));

  constructor(
    private readonly core: SkilltrayCore,
    private readonly heartbeatMs: number,
  ) {}

  /** Why a new stream for `token` is refused (E811, too many open), or null. */
  refusal(token: string): SkilltrayError | null {
    const held = this.perToken.get(digest(token)) ?? 0;
    if (held < MAX_STREAMS_PER_TOKEN) return null;
    return gatewayErrors.tooManyStreams(held, MAX_STREAMS_PER_TOKEN, RETRY_AFTER_S);
  }

  /** Turns a response into an event stream for `token` until the client goes away or the server closes. */
  subscribe(req: IncomingMessage, res: ServerResponse, token: string): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    req.socket.setNoDelay(true);
    const subscriber: Subscriber = { res, token: digest(token) };
    this.open.set(res, subscriber);
    this.perToken.set(subscriber.token, (this.perToken.get(subscriber.token) ?? 0) + 1);
    if (this.open.size === 1) this.start();
    res.once('close', () => this.forget(subscriber));
    this.send(subscriber, CONNECTED);
  }

  /** Ends every stream (the server is closing). */
  closeAll(): void {
    for (const subscriber of [...this.open.values()]) {
      this.forget(subscriber);
      subscriber.res.end();
    }
  }

  private start(): void {
    this.core.on('event', this.onEvent);
    this.heartbeat = setInterval(() => this.broadcast(HEARTBEAT), this.heartbeatMs);
    this.heartbeat.unref();
  }

  private broadcast(frame: Buffer): void {
    for (const subscriber of [...this.open.values()]) this.send(subscriber, frame);
  }

  /** Writes `frame` unless it would take the subscriber past its budget: then it is dropped. */
  private send(subscriber: Subscriber, frame: Buffer): void {
    const { res } = subscriber;
    if (res.writableEnded || res.destroyed) return;
    // What the response and its socket still hold, in bytes: the chunk framing is written as latin1, one byte a character.
    if (res.writableLength + frame.length > MAX_BACKLOG_BYTES) {
      this.forget(subscriber);
      res.destroy();
      return;
    }
    res.write(frame);
  }

  private forget(subscriber: Subscriber): void {
    if (!this.open.delete(subscriber.res)) return;
    const held = (this.perToken.get(subscriber.token) ?? 1) - 1;
    if (held === 0) this.perToken.delete(subscriber.token);
    else this.perToken.set(subscriber.token, held);
    if (this.open.size > 0) return;
    this.core.off('event', this.onEvent);
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
