import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CappedOutput, droppedMarker } from '../../../src-main/core/process/capped-output.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const decode = (data: Uint8Array): string => new TextDecoder().decode(data);

function feed(cap: number, chunks: readonly Uint8Array[]): { output: CappedOutput; live: string } {
  const output = new CappedOutput(cap);
  let live = '';
  for (const chunk of chunks) live += output.push(chunk);
  live += output.finishLive();
  return { output, live };
}

describe('CappedOutput', () => {
  it('keeps everything under the cap', () => {
    const { output, live } = feed(22, [bytes('hello '), bytes('world')]);
    expect(output.text()).toBe('hello world');
    expect(output.droppedBytes).toBe(0);
    expect(output.totalBytes).toBe(11);
    expect(live).toBe('hello world');
  });

  it('keeps the first half and the last half of the cap, and marks the cut', () => {
    const { output, live } = feed(10, [bytes('abcdefghijklmnopqrstuvwxyz')]);
    expect(output.text()).toBe(`abcde${droppedMarker(16)}vwxyz`);
    expect(output.droppedBytes).toBe(16);
    expect(live).toBe('abcde');
  });

  it('gives an odd byte of the cap to the tail', () => {
    const { output } = feed(5, [bytes('0123456789')]);
    expect(output.text()).toBe(`01${droppedMarker(5)}789`);
  });

  it('wraps the tail ring across many small writes', () => {
    const { output } = feed(8, [...'0123456789abcdefghij'].map(bytes));
    expect(output.text()).toBe(`0123${droppedMarker(12)}ghij`);
  });

  it('drops everything with a zero cap but still counts it', () => {
    const { output, live } = feed(0, [bytes('abc'), bytes('def')]);
    expect(output.text()).toBe(droppedMarker(6));
    expect(output.droppedBytes).toBe(6);
    expect(live).toBe('');
  });

  it('decodes characters split across chunks, and is lossy only at the cuts', () => {
    const euro = bytes('€'); // three bytes
    expect(feed(16, [euro.subarray(0, 1), euro.subarray(1)]).output.text()).toBe('€');
    expect(feed(16, [euro.subarray(0, 1), euro.subarray(1)]).live).toBe('€');
    const { output } = feed(8, [bytes('€€€€')]);
    expect(output.text()).toBe(`€\ufffd${droppedMarker(4)}\ufffd€`);
  });

  it('never streams more than the head live, with no partial character at its end', () => {
    const { live } = feed(6, [bytes('ab€cd')]);
    expect(live).toBe('ab');
  });

  it('matches a head-and-tail model for any chunking and cap', () => {
    fc.assert(
      fc.property(fc.nat({ max: 64 }), fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 20 }), (cap, chunks) => {
        const all = Buffer.concat(chunks);
        const headCap = Math.floor(cap / 2);
        const head = all.subarray(0, headCap);
        const tail = all.subarray(Math.max(headCap, all.length - (cap - headCap)));
        const dropped = all.length - head.length - tail.length;
        const { output, live } = feed(cap, chunks);
        expect(output.totalBytes).toBe(all.length);
        expect(output.droppedBytes).toBe(dropped);
        expect(output.text()).toBe(dropped === 0 ? decode(all) : decode(head) + droppedMarker(dropped) + decode(tail));
        // Live text is the decoded head, whole when nothing overflowed, else a prefix of it.
        if (all.length <= headCap) expect(live).toBe(decode(all));
        else expect(decode(head).startsWith(live)).toBe(true);
        expect(live.length).toBeLessThanOrEqual(headCap);
      }),
      { numRuns: 500 },
    );
  });
});
