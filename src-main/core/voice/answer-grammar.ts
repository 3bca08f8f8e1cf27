/**
 * The answer grammar as a recogniser takes it: the words and their pronunciations (ARPAbet, as
 * Debian's US English model spells them), the grammar itself ("run <code>", "always <code>",
 * "deny", "cancel", with silence around) and a free loop of the same words, written as Sphinx
 * finite-state grammars; and the words a recogniser returns, read back as an answer.
 */
import { CODE_DIGITS, isCode, type SpokenAnswer } from '../../shared/voice.js';

/** Every word the recogniser may return, with its pronunciations. */
const LEXICON: Readonly<Record<string, readonly string[]>> = {
  run: ['R AH N'],
  always: ['AO L W EY Z', 'AO L W IY Z'],
  deny: ['D IH N AY'],
  cancel: ['K AE N S AH L'],
  zero: ['Z IH R OW', 'Z IY R OW'],
  one: ['W AH N', 'HH W AH N'],
  two: ['T UW'],
  three: ['TH R IY'],
  four: ['F AO R'],
  five: ['F AY V'],
  six: ['S IH K S'],
  seven: ['S EH V AH N'],
  eight: ['EY T'],
  nine: ['N AY N'],
  sil: ['SIL'],
};

/** The word that stands for silence before and after an answer. */
export const SILENCE = 'sil';

/** The dictionary file: one pronunciation a line, alternates as `word(2)`. */
export function dictionary(): string {
  return Object.entries(LEXICON)
    .flatMap(([word, prons]) => prons.map((pron, i) => `${i === 0 ? word : `${word}(${i + 1})`} ${pron}`))
    .join('\n')
    .concat('\n');
}

/** What a grammar lets the person say: always `deny` and `cancel`; `run`/`always` with a code, and without one when `codeless`. */
export interface AnswerGrammar {
  codeless: boolean;
}

type Transition = [from: number, to: number, probability: number, word?: string];

function fsg(name: string, states: number, final: number, transitions: readonly Transition[]): string {
  const lines = transitions.map(([from, to, p, word]) => `TRANSITION ${from} ${to} ${p.toFixed(6)}${word === undefined ? '' : ` ${word}`}`);
  return `FSG_BEGIN ${name}\nNUM_STATES ${states}\nSTART_STATE 0\nFINAL_STATE ${final}\n${lines.join('\n')}\nFSG_END\n`;
}

/**
 * The answer grammar as an FSG. States: 0 start, 1 past the silence before, 2 after run/always,
 * 3–7 after the first digit (one per digit), 8–12 after the second, 13 the answer said, 14 final.
 * A code never has a digit twice in a row, so neither does the grammar.
 */
export function answerFsg(grammar: AnswerGrammar): string {
  const digits = Object.entries(CODE_DIGITS);
  const first = (i: number): number => 3 + i;
  const second = (i: number): number => 3 + digits.length + i;
  const said = 3 + 2 * digits.length;
  const t: Transition[] = [
    [0, 1, 0.5, SILENCE],
    [0, 1, 0.5],
    [1, 2, 0.25, 'run'],
    [1, 2, 0.25, 'always'],
    [1, said, 0.25, 'deny'],
    [1, said, 0.25, 'cancel'],
    [said, said + 1, 0.5, SILENCE],
    [said, said + 1, 0.5],
  ];
  const share = grammar.codeless ? 0.5 : 1;
  if (grammar.codeless) t.push([2, said, 0.5]);
  digits.forEach(([, word], i) => t.push([2, first(i), share / digits.length, word]));
  digits.forEach((_, i) =>
    digits.forEach(([, word], j) => {
      if (i !== j) t.push([first(i), second(j), 1 / (digits.length - 1), word]);
    }),
  );
  digits.forEach((_, i) =>
    digits.forEach(([, word], j) => {
      if (i !== j) t.push([second(i), said, 1 / (digits.length - 1), word]);
    }),
  );
  return fsg('answer', said + 2, said + 1, t);
}

/** The grammar's words (code digits only) in any order: a second, looser pass whose words an accepted answer must agree with. */
export function freeFsg(): string {
  const words = ['run', 'always', 'deny', 'cancel', ...Object.values(CODE_DIGITS), SILENCE];
  return fsg('free', 2, 1, [...words.map((word): Transition => [0, 1, 1 / words.length, word]), [1, 0, 0.9]]);
}

/** A returned word as written in the lexicon: `always(2)` is `always`. */
export function baseWord(word: string): string {
  return word.replace(/\(\d+\)$/, '');
}

/** The spoken words of a hypothesis: silence, fillers and null transitions left out. */
export function spokenWords(words: readonly string[]): string[] {
  return words.map(baseWord).filter((w) => w !== SILENCE && w !== '(NULL)' && !w.startsWith('<') && !w.startsWith('['));
}

const DIGIT_OF: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(CODE_DIGITS).map(([d, w]) => [w, d]));

/** The answer a sequence of spoken words makes, with its code; null when they make none. */
export function readAnswer(words: readonly string[]): { answer: SpokenAnswer; code: string | null } | null {
  const [first, ...rest] = words;
  if ((first === 'deny' || first === 'cancel') && rest.length === 0) return { answer: first, code: null };
  if (first !== 'run' && first !== 'always') return null;
  if (rest.length === 0) return { answer: first, code: null };
  const code = rest.map((w) => DIGIT_OF[w] ?? '?').join('');
  return isCode(code) ? { answer: first, code } : null;
}
