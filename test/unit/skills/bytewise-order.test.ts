/** Listings are ordered by the UTF-8 bytes of their paths (RFC-0002), whatever the characters. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytewise } from '../../../src-main/core/files/paths.js';

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** Characters where UTF-16 and UTF-8 orders part: either side of the surrogates, pairs, lone halves, U+FFFD. */
const edgy = fc.constantFrom('a', '/', '.', 'é', '\u0800', '\uD7FF', '\uE000', '\uFFFD', '\uFFFF', '\uD83D', '\uDE00', '😀', '\uD83D\uDE00');
const unit = fc.oneof(edgy, fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)));

describe('compareBytewise', () => {
  it('orders any two strings as their UTF-8 bytes do', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 6 }), fc.string({ unit, maxLength: 6 }), (a, b) => {
        expect(Math.sign(compareBytewise(a, b))).toBe(byBytes(a, b));
      }),
      { numRuns: 5000 },
    );
  });

  it('puts a character past the surrogates before one that needs four bytes', () => {
    expect(['😀', '\uFFFF', 'z'].sort(compareBytewise)).toEqual(['z', '\uFFFF', '😀']);
  });
});
