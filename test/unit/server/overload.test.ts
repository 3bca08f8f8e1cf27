import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { KEEP_ALIVE_TIMEOUT_MS, RequestQueue, holdConnections } from '../../../src-main/server/overload.js';

/** Work that keeps the event loop busy for `ms`. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('the request queue', () => {
  it('serves requests in the order they arrived, a slice at a time, with the event loop free between slices', async () => {
    const queue = new RequestQueue(100);
    const served: string[] = [];
    let done: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (done = resolve));
    for (let i = 0; i < 10; i++) {
      queue.enter(() => {
        busy(5);
        served.push(`request ${i}`);
        if (i === 9) done();
      });
    }
    // Something that arrives meanwhile (a new connection, say) gets its turn before the queue is worked off.
    setImmediate(() => served.push('meanwhile'));
    await all;
    const meanwhile = served.indexOf('meanwhile');
    expect(served.filter((s) => s !== 'meanwhile')).toEqual(Array.from({ length: 10 }, (_, i) => `request ${i}`));
    expect(meanwhile).toBeGreaterThan(0);
    expect(meanwhile).toBeLessThan(10);
  });

  it('gives a turn to accepting when a connection has just arrived (the OS hands over one a turn), then serves', async () => {
    const queue = new RequestQueue(100);
    const served: number[] = [];
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    queue.enter(() => served.push(1));
    queue.connected();
    await turn();
    expect(served).toEqual([]);
    await turn();
    expect(served).toEqual([1]);
  });

  it('holds back the next request of a connection answered while many wait, and reads it again once they are served', async () => {
    const queue = new RequestQueue(100);
    const calls: string[] = [];
    const socket = {
      destroyed: false,
      pause: () => calls.push('pause'),
      resume: () => calls.push('resume'),
      setTimeout: (ms: number) => calls.push(`timeout ${ms}`),
    } as unknown as Socket;
    let done: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (done = resolve));
    for (let i = 0; i < 40; i++) queue.enter(() => (i === 39 ? done() : undefined));
    queue.answered(socket);
    expect(calls).toEqual(['timeout 0', 'pause']);
    await all;
    expect(calls).toEqual(['timeout 0', 'pause', `timeout ${KEEP_ALIVE_TIMEOUT_MS}`, 'resume']);
    // With few waiting, an answered connection is read on at once.
    queue.answered(socket);
    expect(calls).toHaveLength(4);
  });

  it('answers one more than it may hold with E812 and when to come back, before any work', () => {
    const queue = new RequestQueue(3);
    for (let i = 0; i < 3; i++) queue.enter(() => undefined);
    expect(() => queue.enter(() => undefined)).toThrow(
      expect.objectContaining({ code: 'E812', details: expect.objectContaining({ retryAfterSeconds: 2, waiting: 3, limit: 3 }) }),
    );
    expect(queue.length).toBe(3);
  });

  it('keeps idle keep-alive connections longer than clients keep theirs, and headers may take as long', () => {
    const server = createServer();
    holdConnections(server);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
  });
});
