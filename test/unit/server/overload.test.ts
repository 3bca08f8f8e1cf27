import { createServer } from 'node:http';
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

  it('answers one more than it may hold with E812 and when to come back, before any work', () => {
    const queue = new RequestQueue(3);
    for (let i = 0; i < 3; i++) queue.enter(() => undefined);
    expect(() => queue.enter(() => undefined)).toThrow(expect.objectContaining({ code: 'E812', details: expect.objectContaining({ retryAfterSeconds: 2, waiting: 3, limit: 3 }) }));
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
