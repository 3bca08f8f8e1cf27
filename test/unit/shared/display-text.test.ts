import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayLines, displayText, visibleParts } from '../../../src-main/shared/display-text.js';

const visibleString = (value: string): string => `"${displayText(value)}"`;

describe('text shown exactly', () => {
  it('quotes the value so spaces and the empty string are visible', () => {
    expect(visibleString('')).toBe('""');
    expect(visibleString(' two  spaces ')).toBe('" two  spaces "');
    expect(visibleString('C:\\dir "quoted"')).toBe('"C:\\dir "quoted""');
  });

  it('spells out control characters, bidi overrides, zero-width and odd spaces', () => {
    expect(visibleString('a\nb\tc\0')).toBe('"a\\nb\\tc\\0"');
    expect(visibleString('evil\u202Etxt.exe')).toBe('"evil\\u202etxt.exe"');
    expect(visibleString('zero\u200Bwidth\uFEFF')).toBe('"zero\\u200bwidth\\ufeff"');
    expect(visibleString('tag\u{E0001}')).toBe('"tag\\u{e0001}"');
    expect(visibleString('no\u00A0break\x1B[0m')).toBe('"no\\xa0break\\x1b[0m"');
    expect(visibleParts('a\u2028')).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'escape', text: '\\u2028', codePoint: 0x2028 },
    ]);
  });

  it('keeps ordinary text, accents, CJK and emoji literal', () => {
    expect(visibleParts('héllo 世界 👋')).toEqual([{ kind: 'text', text: 'héllo 世界 👋' }]);
  });

  it('leaves a line with nothing hidden as it is, and escapes each line of many on its own', () => {
    expect(displayText('git -C . status')).toBe('git -C . status');
    expect(displayLines(['pack e\u202Evil', 'two\nlines'])).toBe('pack e\\u202evil\ntwo\\nlines\n');
  });

  it('loses nothing: every character is either kept or escaped, in order', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const parts = visibleParts(value);
        const rebuilt = parts.map((p) => (p.kind === 'text' ? p.text : String.fromCodePoint(p.codePoint))).join('');
        expect(rebuilt).toBe(value);
        for (const p of parts) if (p.kind === 'text') expect(p.text).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
      }),
    );
  });
});
