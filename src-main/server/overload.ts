/**
 * How the loopback API holds under load: a request a client has sent is served, in the order
 * requests arrived, or answered 503 with Retry-After — never dropped with a reset. Idle keep-alive
 * connections are kept longer than any client keeps them (a server that closes one as the client
 * reuses it resets that request), the listen backlog holds a thousand connections at once, and
 * operations run from a FIFO queue a time slice at a time, so between slices the event loop goes
 * back to the OS: new connections are accepted and new requests queued behind the older ones. The
 * OS hands over one new connection per turn of the event loop (libuv accepts one per readiness),
 * so while connections keep arriving the queue lets turns go by without serving, for a moment:
 * otherwise a burst of a thousand connects waits behind the requests of those already in.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { gatewayErrors } from '../shared/error-messages/gateway.js';

/** Idle keep-alive connections stay this long (and `Keep-Alive: timeout=65` tells clients): past any client's own idle timeout. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Connections the OS may hold for the server before it accepts them (the kernel caps it at somaxconn). */
export const LISTEN_BACKLOG = 2048;

/** Requests that may wait for their turn; one more is answered 503 E812 at once. */
export const MAX_WAITING = 2048;

/** How long one slice of queued operations may run before the event loop goes back to the OS. */
const SLICE_MS = 4;

/** How long serving may wait while connections keep arriving (a turn each); it then serves as long before waiting again. */
const ACCEPT_FIRST_MS = 50;

/** Past this many waiting, a connection just answered is not read again until the queue is down to half. */
const HOLD_BACK_AT = 16;

/** What a client shed with E812 is told to wait. */
const RETRY_AFTER_S = 2;

/** Sets the timeouts that keep a sent request from being reset (see KEEP_ALIVE_TIMEOUT_MS). */
export function holdConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Headers may take as long as a kept connection waits; the whole request keeps Node's 300 s.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
}

/** Requests waiting to be served, first come, first served. */
export class RequestQueue {
  private readonly waiting: (() => void)[] = [];
  /** Connections held back, oldest first. */
  private readonly held: Socket[] = [];
  /** Index of the oldest waiting request in `waiting` (shifting an array of thousands is quadratic). */
  private head = 0;
  private scheduled = false;
  /** A connection arrived since the last turn: more may be waiting to be accepted. */
  private accepting = false;
  /** When serving started to wait for arriving connections (null: it does not wait). */
  private waitingSince: number | null = null;
  /** When it last stopped waiting: a flood of connections gets at most half the time. */
  private waitedUntil = Number.NEGATIVE_INFINITY;

  constructor(private readonly limit = MAX_WAITING) {}

  /** How many requests wait now. */
  get length(): number {
    return this.waiting.length - this.head;
  }

  /**
   * Queues `serve` behind every request that arrived before it; it is called (synchronously, in a
   * slice) when its turn comes. Throws E812 instead when MAX_WAITING requests already wait.
   */
  enter(serve: () => void): void {
    if (this.length >= this.limit) {
      throw gatewayErrors.serverBusy(this.length, this.limit, RETRY_AFTER_S);
    }
    this.waiting.push(serve);
    if (!this.scheduled) this.next();
  }

  /**
   * A request on `socket` was answered: while many wait, its connection's next request stays in
   * the OS (never dropped) so the requests already read, and new connections, come first.
   */
  answered(socket: Socket): void {
    if (this.length < HOLD_BACK_AT || socket.destroyed) return;
    // Its idle timer would close it with a request unread, which the client sees as a reset.
    socket.setTimeout(0);
    socket.pause();
    this.held.push(socket);
  }

  /** A connection was accepted: the next turns go to accepting the others that may be waiting. */
  connected(): void {
    this.accepting = true;
  }

  /** Reads held connections again, oldest first, once the queue is down to half. */
  private release(): void {
    while (this.held.length > 0 && this.length < HOLD_BACK_AT / 2) {
      const socket = this.held.shift() as Socket;
      socket.setTimeout(KEEP_ALIVE_TIMEOUT_MS);
      socket.resume();
    }
  }

  /** Serves the oldest requests for one slice, then yields to the event loop if any are left. */
  private drain(): void {
    this.scheduled = false;
    const now = performance.now();
    const mayWait = this.waitingSince === null ? now - this.waitedUntil >= ACCEPT_FIRST_MS : now - this.waitingSince < ACCEPT_FIRST_MS;
    if (this.accepting && mayWait) {
      this.waitingSince ??= now;
      this.accepting = false;
      this.next();
      return;
    }
    this.accepting = false;
    if (this.waitingSince !== null) {
      this.waitingSince = null;
      this.waitedUntil = now;
    }
    const until = now + SLICE_MS;
    while (this.head < this.waiting.length) {
      const serve = this.waiting[this.head] as () => void;
      this.head++;
      serve();
      if (performance.now() >= until) break;
    }
    this.release();
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else {
      if (this.head > 1024) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      this.next();
    }
  }

  /** Serves the next slice at the next turn of the event loop. */
  private next(): void {
    this.scheduled = true;
    setImmediate(() => this.drain());
  }
}
