import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH, nestsDeeperThan, shallowArguments } from '../../../src-main/core/input-depth.js';

/** Depth by the definition, recursively (fine for the small values fast-check makes). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { in: value };
  return value;
}

describe('input depth', () => {
  it('agrees with the recursive definition on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 0, max: 14 }), (value, max) => {
        expect(nestsDeeperThan(value, max)).toBe(depthOf(value) > max);
      }),
    );
  });

  it('walks half a million levels without overflowing the stack', () => {
    const deep = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    expect(nestsDeeperThan(JSON.parse(deep), MAX_INPUT_DEPTH)).toBe(true);
    expect(nestsDeeperThan(nested(MAX_INPUT_DEPTH), MAX_INPUT_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_INPUT_DEPTH + 1), MAX_INPUT_DEPTH)).toBe(true);
  });

  it('keeps what can be kept of arguments for history, and a note for a value too deep', () => {
    const args = shallowArguments({ name: 'x', list: [1, 2], deep: nested(6000) }, MAX_INPUT_DEPTH);
    expect(args).toEqual({ name: 'x', list: [1, 2], deep: '[nested too deep: not kept]' });
    expect(() => JSON.stringify(args)).not.toThrow();
    expect(shallowArguments([1], MAX_INPUT_DEPTH)).toEqual({});
  });
});
