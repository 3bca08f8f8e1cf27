import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../../../src-renderer/api/sse.js';

function parse(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const push = createSseParser((m) => out.push(m));
  for (const chunk of chunks) push(chunk);
  return out;
}

describe('the server-sent events parser', () => {
  it('dispatches on a blank line, with the event type and the data', () => {
    expect(parse(['event: approval.added\ndata: {"a":1}\n\n'])).toEqual([{ event: 'approval.added', data: '{"a":1}' }]);
  });

  it('skips comment lines (heartbeats) and names an unnamed event "message"', () => {
    expect(parse([': heartbeat\n\n', 'data: x\n\n'])).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('joins data lines with \\n and strips only one leading space', () => {
    expect(parse(['data:  a\ndata:b\n\n'])).toEqual([{ event: 'message', data: ' a\nb' }]);
  });

  it('accepts \\r\\n and \\r line ends, even when a \\r\\n is split across chunks', () => {
    expect(parse(['event: e\r\ndata: 1\r', '\n\r', '\n'])).toEqual([{ event: 'e', data: '1' }]);
    expect(parse(['data: 1\r\r'])).toEqual([{ event: 'message', data: '1' }]);
  });

  it('does not dispatch an event without data, nor a half-received one', () => {
    expect(parse(['event: lonely\n\n', 'data: partial\n'])).toEqual([]);
  });

  it('resets the event type after each dispatch', () => {
    expect(parse(['event: a\ndata: 1\n\ndata: 2\n\n'])).toEqual([
      { event: 'a', data: '1' },
      { event: 'message', data: '2' },
    ]);
  });

  it('gives the same events however the stream is cut into chunks', () => {
    const stream = 'event: run\ndata: {"x":"a b"}\n\n: ping\n\nevent: settings\r\ndata: 1\r\ndata: 2\r\n\r\ndata: last\n\n';
    const whole = parse([stream]);
    expect(whole).toHaveLength(3);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: stream.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [...points, stream.length].map((end, i) => stream.slice(i === 0 ? 0 : points[i - 1], end));
        expect(parse(chunks)).toEqual(whole);
      }),
    );
  });
});
