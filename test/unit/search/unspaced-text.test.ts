import { describe, expect, it } from 'vitest';
import { hasUnspacedRun } from '../../../src-main/core/search/unspaced-text.js';

/** The scripts written without spaces, as docs/gateway.md names them: a letter, mark or digit of one. */
const RUN_CHAR = new RegExp(
  String.raw`(?=[\p{L}\p{M}\p{N}])[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]`,
  'u',
);

describe('hasUnspacedRun', () => {
  it("its quick test of code units lets through every code point of Unicode that starts a run (this Node's Unicode)", () => {
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const char = String.fromCodePoint(cp);
      if (RUN_CHAR.test(char) !== hasUnspacedRun(`a ${char} b`)) missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
  });
});
