import { describe, expect, it } from 'vitest';
import { splitMatches } from '../../../src-renderer/skills/highlight.js';

describe('search snippet highlights', () => {
  it('splits at the markers', () => {
    expect(splitMatches('...use [MATCH]deploy[/MATCH] to [MATCH]stage[/MATCH]...')).toEqual([
      { text: '...use ', match: false },
      { text: 'deploy', match: true },
      { text: ' to ', match: false },
      { text: 'stage', match: true },
      { text: '...', match: false },
    ]);
  });

  it('keeps markup as text: it is never parsed', () => {
    expect(splitMatches('<img src=x onerror=alert(1)> [MATCH]<b>[/MATCH]')).toEqual([
      { text: '<img src=x onerror=alert(1)> ', match: false },
      { text: '<b>', match: true },
    ]);
  });

  it('copes with an unclosed match, a stray close marker, adjacent matches and nothing at all', () => {
    expect(splitMatches('a [MATCH]b')).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
    ]);
    expect(splitMatches('a[/MATCH]b')).toEqual([{ text: 'ab', match: false }]);
    expect(splitMatches('[MATCH]a[/MATCH][MATCH]b[/MATCH]')).toEqual([{ text: 'ab', match: true }]);
    expect(splitMatches('')).toEqual([]);
  });
});
