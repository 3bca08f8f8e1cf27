/**
 * How the loopback API holds under load: a request a client has sent is served, in the order
 * requests arrived, or answered 503 with Retry-After — never dropped with a reset. Idle keep-alive
 * connections are kept longer than any client keeps them (a server that closes one as the client
 * reuses it resets that request), the listen backlog holds a thousand connections at once, and
 * operations run from a FIFO queue a time slice at a time, so between slices the event loop goes
 * back to the OS: new connections are accepted and new requests queued behind the older ones.
 */
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { SkilltrayError } from '../core/errors.js';

/** Idle keep-alive connections stay this long (and `Keep-Alive: timeout=65` tells clients): past any client's own idle timeout. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Connections the OS may hold for the server before it accepts them (the kernel caps it at somaxconn). */
export const LISTEN_BACKLOG = 2048;

/** Requests that may wait for their turn; one more is answered 503 E812 at once. */
export const MAX_WAITING = 2048;

/** How long one slice of queued operations may run before the event loop goes back to the OS. */
const SLICE_MS = 20;

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
  /** Index of the oldest waiting request in `waiting` (shifting an array of thousands is quadratic). */
  private head = 0;
  private scheduled = false;

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
      throw new SkilltrayError('E812', `the server is busy: ${this.length} requests are waiting; try again in ${RETRY_AFTER_S} s`, {
        details: { waiting: this.length, limit: this.limit, retryAfterSeconds: RETRY_AFTER_S },
      });
    }
    this.waiting.push(serve);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Serves the oldest requests for one slice, then yields to the event loop if any are left. */
  private drain(): void {
    this.scheduled = false;
    const until = performance.now() + SLICE_MS;
    while (this.head < this.waiting.length) {
      const serve = this.waiting[this.head] as () => void;
      this.head++;
      serve();
      if (performance.now() >= until) break;
    }
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else {
      if (this.head > 1024) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }
}
