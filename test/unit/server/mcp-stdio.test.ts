import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BoundedStdioTransport, sniffId } from '../../../src-main/server/mcp-stdio.js';

interface Wire {
  transport: BoundedStdioTransport;
  stdin: PassThrough;
  /** Messages handed to the server, in order. */
  delivered: JSONRPCMessage[];
  /** Lines the transport wrote, parsed. */
  written: Record<string, unknown>[];
  /** Resolves once `n` lines have been written. */
  writtenCount(n: number): Promise<void>;
}

async function wire(limits = { lineBytes: 1024, concurrent: 2, queued: 3 }, start = true): Promise<Wire> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new BoundedStdioTransport(stdin, stdout, limits);
  const delivered: JSONRPCMessage[] = [];
  const written: Record<string, unknown>[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      written.push(JSON.parse(buffer.slice(0, end)) as Record<string, unknown>);
      buffer = buffer.slice(end + 1);
    }
    for (const waiter of [...waiters]) if (written.length >= waiter.n) waiter.resolve();
  });
  transport.onmessage = (message) => delivered.push(message);
  if (start) await transport.start();
  else transport.listen();
  return {
    transport,
    stdin,
    delivered,
    written,
    writtenCount: (n) => (written.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
  };
}

const request = (id: number | string, method = 'tools/list') => `${JSON.stringify({ jsonrpc: '2.0', id, method, params: {} })}\n`;
const answer = (id: number | string): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });

describe('the MCP bridge stdio transport', () => {
  it('answers junk with JSON-RPC errors and hands on the valid messages after it', async () => {
    const w = await wire({ lineBytes: 1024, concurrent: 10, queued: 10 });
    w.stdin.write('not json\n');
    w.stdin.write('[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n');
    w.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":null}\n');
    w.stdin.write('{"jsonrpc":"2.0","id":{"no":1},"method":"ping"}\n');
    w.stdin.write('{"id":3,"method":"ping"}\n');
    w.stdin.write('42\n');
    // A broken notification has nobody to answer.
    w.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized","params":null}\n');
    w.stdin.write(request(4));
    await w.writtenCount(6);
    expect(w.written.map((m) => [m.id, (m.error as { code: number }).code])).toEqual([
      [null, -32700],
      [null, -32600],
      [2, -32602],
      [null, -32600],
      [3, -32600],
      [null, -32600],
    ]);
    expect(w.delivered).toEqual([{ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }]);
  });

  it('skips a line past its limit as it streams, answers it under its id with E804, and reads on', async () => {
    const w = await wire();
    w.stdin.write('{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"pad":"');
    for (let i = 0; i < 64; i++) w.stdin.write('x'.repeat(1000));
    w.stdin.write('"}}\n');
    w.stdin.write(request(5, 'ping'));
    await w.writtenCount(1);
    expect(w.written[0]).toMatchObject({
      id: 'big-1',
      error: { code: -32600, data: { error: { code: 'E804', kind: 'body_too_large', details: { limit: 1024 } } } },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(w.delivered).toEqual([{ jsonrpc: '2.0', id: 5, method: 'ping', params: {} }]);
  });

  it('works on at most its limit of requests at once, pauses stdin past its queue, and goes on as answers go out', async () => {
    const w = await wire();
    for (let i = 1; i <= 10; i++) w.stdin.write(request(i));
    await new Promise((resolve) => setImmediate(resolve));
    expect(w.delivered.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    expect(w.stdin.isPaused()).toBe(true);
    // A ping is answered whatever waits.
    w.stdin.resume();
    await w.transport.send(answer(1));
    expect(w.delivered.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3]);
    for (let id = 2; id <= 10; id++) await w.transport.send(answer(id));
    await new Promise((resolve) => setImmediate(resolve));
    expect(w.delivered.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(w.stdin.isPaused()).toBe(false);
  });

  it('drops a queued request its client cancels, and frees the place of one at work', async () => {
    const w = await wire({ lineBytes: 1024, concurrent: 1, queued: 10 });
    w.stdin.write(request(1));
    w.stdin.write(request(2));
    w.stdin.write(request(3));
    w.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } })}\n`);
    w.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    const ids = w.delivered.map((m) => ('id' in m ? m.id : (m as { method: string }).method));
    expect(ids).toEqual([1, 'notifications/cancelled', 'notifications/cancelled', 3]);
  });

  it('reads before the server connects, and hands what it read on once it does', async () => {
    const w = await wire(undefined, false);
    w.stdin.write(request(1));
    w.stdin.write('junk\n');
    await w.writtenCount(1);
    expect(w.delivered).toEqual([]);
    await w.transport.start();
    expect(w.delivered.map((m) => (m as { id: number }).id)).toEqual([1]);
  });

  it('finds the id of a message from its first bytes, never one nested inside it', () => {
    // Keys that are not array indexes: JSON.stringify puts those first, whatever the order given.
    const others = fc.dictionary(
      fc.string().map((k) => `k${k}`),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 100 }), fc.integer()), others, (id, rest) => {
        // The id first, then anything: found from the first KiB.
        expect(sniffId(JSON.stringify({ id, ...rest }).slice(0, 1024))).toEqual(id);
        // No id at the top: whatever ids are nested, none is taken.
        expect(sniffId(JSON.stringify({ params: { id }, ...rest, list: [{ id }] }).slice(0, 1024))).toBeNull();
      }),
    );
    expect(sniffId('{"jsonrpc":"2.0","params":{"id":5},"id":7')).toBeNull();
    expect(sniffId('{"method":"x","id":"a\\"b","params":')).toBe('a"b');
    expect(sniffId('[{"id":1}]')).toBeNull();
  });
});
