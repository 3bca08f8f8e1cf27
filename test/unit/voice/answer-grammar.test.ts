import { describe, expect, it } from 'vitest';
import { SILENCE, answerFsg, dictionary, freeFsg, readAnswer, spokenWords } from '../../../src-main/core/voice/answer-grammar.js';
import { allCodes, codeWords } from '../../../src-main/shared/voice.js';

interface Fsg {
  start: number;
  final: number;
  edges: { from: number; to: number; p: number; word: string | null }[];
}

function parseFsg(text: string): Fsg {
  const lines = text.trim().split('\n');
  const value = (key: string): number => Number(lines.find((l) => l.startsWith(key))?.split(' ')[1]);
  const edges = lines
    .filter((l) => l.startsWith('TRANSITION '))
    .map((l) => {
      const [, from, to, p, word] = l.split(' ');
      return { from: Number(from), to: Number(to), p: Number(p), word: word ?? null };
    });
  return { start: value('START_STATE'), final: value('FINAL_STATE'), edges };
}

/** Every word sequence an acyclic FSG accepts, silences left out. */
function sentences(fsg: Fsg): Set<string> {
  const out = new Set<string>();
  const walk = (state: number, words: string[]): void => {
    if (state === fsg.final) out.add(words.filter((w) => w !== SILENCE).join(' '));
    for (const edge of fsg.edges.filter((e) => e.from === state)) walk(edge.to, edge.word === null ? words : [...words, edge.word]);
  };
  walk(fsg.start, []);
  return out;
}

describe('the answer grammar', () => {
  it('lets the person say run or always with any code, deny or cancel, and nothing else', () => {
    const coded = [...allCodes().flatMap((code) => [`run ${codeWords(code)}`, `always ${codeWords(code)}`]), 'deny', 'cancel'];
    expect(sentences(parseFsg(answerFsg({ codeless: false })))).toEqual(new Set(coded));
    expect(sentences(parseFsg(answerFsg({ codeless: true })))).toEqual(new Set([...coded, 'run', 'always']));
  });

  it('has a pronunciation for every word either grammar uses, and the ways out of each state but the last sum to one', () => {
    const known = new Set(
      dictionary()
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0]),
    );
    for (const text of [answerFsg({ codeless: false }), answerFsg({ codeless: true }), freeFsg()]) {
      const fsg = parseFsg(text);
      for (const edge of fsg.edges) if (edge.word !== null) expect(known, edge.word).toContain(edge.word);
      const out = new Map<number, number>();
      for (const edge of fsg.edges) out.set(edge.from, (out.get(edge.from) ?? 0) + edge.p);
      // The final state keeps the rest for ending there.
      for (const [state, sum] of out) if (state !== fsg.final) expect(sum, `state ${state}`).toBeCloseTo(1, 4);
    }
  });

  it('reads the words a recogniser returns as an answer and its code', () => {
    expect(readAnswer(['run', 'four', 'one', 'three'])).toEqual({ answer: 'run', code: '413' });
    expect(readAnswer(['always', 'one', 'two', 'five'])).toEqual({ answer: 'always', code: '125' });
    expect(readAnswer(['deny'])).toEqual({ answer: 'deny', code: null });
    expect(readAnswer(['cancel'])).toEqual({ answer: 'cancel', code: null });
    expect(readAnswer(['run'])).toEqual({ answer: 'run', code: null });
    // A code with a digit twice in a row, a digit no code has, a short code, or words after deny are no answer.
    expect(readAnswer(['run', 'four', 'four', 'three'])).toBeNull();
    expect(readAnswer(['run', 'four', 'nine', 'three'])).toBeNull();
    expect(readAnswer(['run', 'four', 'one'])).toBeNull();
    expect(readAnswer(['deny', 'four'])).toBeNull();
    expect(readAnswer([])).toBeNull();
    expect(spokenWords(['sil', 'always(2)', 'four', '(NULL)', 'one', 'three', '<sil>', 'sil'])).toEqual(['always', 'four', 'one', 'three']);
  });
});
