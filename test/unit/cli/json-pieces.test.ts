/** The CLI's JSON output written in pieces: the same text JSON.stringify(value, null, 2) makes, whatever the value. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printJson, type CliContext } from '../../../src-main/cli/command.js';
import { jsonPieces } from '../../../src-main/cli/json-pieces.js';

const whole = (value: unknown): string => [...jsonPieces(value)].join('');

/** A context whose stdout collects each write. */
function collecting(): { ctx: CliContext; writes: string[] } {
  const writes: string[] = [];
  const ctx = { io: { out: (text: string | Uint8Array) => writes.push(String(text)) } } as unknown as CliContext;
  return { ctx, writes };
}

describe('jsonPieces', () => {
  it('joins to JSON.stringify(value, null, 2) for any value JSON can hold (dates, boxed values, null prototypes, holes, undefined)', () => {
    const value = fc.anything({ withDate: true, withBoxedValues: true, withNullPrototype: true, withSparseArray: true, withObjectString: true, maxDepth: 4 });
    fc.assert(
      fc.property(value, (v) => {
        expect(whole(v)).toBe(String(JSON.stringify(v, null, 2)));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves out (or writes null for) what JSON cannot hold, and lets toJSON speak for its object, at every level', () => {
    const value = {
      fn: () => 1,
      sym: Symbol('s'),
      gone: undefined,
      list: [undefined, () => 1, Symbol('t'), { toJSON: () => ({ as: 'json' }) }, new Date(0), [], {}],
      nested: { empty: {}, none: [], deep: { a: [1, { b: 'x\ny' }] } },
      own: { toJSON: () => 'whole' },
    };
    expect(whole(value)).toBe(JSON.stringify(value, null, 2));
    for (const top of [[], {}, 'text', 1, null, undefined, [undefined], { a: undefined }]) expect(whole(top)).toBe(String(JSON.stringify(top, null, 2)));
  });
});

describe('printJson', () => {
  it('writes a large answer in chunks, never whole, that join to the JSON and its newline', () => {
    const skills = Array.from({ length: 3000 }, (_, i) => ({ name: `skill-${i}`, description: 'words '.repeat(10), tools: [{ name: 't', params: [] }] }));
    const value = { skills, shadowed: [], total: skills.length };
    const { ctx, writes } = collecting();
    printJson(ctx, value);
    expect(writes.join('')).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(writes.length).toBeGreaterThan(5);
    expect(Math.max(...writes.map((w) => w.length))).toBeLessThan(2 * 65_536);
  });
});
