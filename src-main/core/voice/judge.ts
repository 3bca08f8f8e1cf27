/**
 * Whether what the grammar heard was said. A grammar always finds its closest answer ("hello there
 * how are you doing today" comes out as a run with some code), so three checks must agree before an
 * answer counts:
 * - every word (the silences around it too) must fit the sound about as well as a free phone loop
 *   over the same frames does: the per-frame log-likelihood ratio against the loop, whose worst word
 *   gives the confidence;
 * - the silence the grammar put around the answer must not hold speech (words around the answer);
 * - a second pass over a free loop of the same words must hear the answer's words, in order.
 */
import { SILENCE, baseWord, spokenWords } from './answer-grammar.js';

/** One word (or phone) of a recogniser's segmentation: frames from `sf` to `ef` inclusive, and its acoustic score. */
export interface Segment {
  word: string;
  sf: number;
  ef: number;
  ascr: number;
}

/**
 * The worst per-frame ratio a code answer's word may have (confidence 0.5), and a one-word answer's
 * (deny, cancel, or run without a code: short words match by chance more easily, so 0.65). Measured
 * in test/integration/voice/false-accepts.test.ts.
 */
export const CODE_ANSWER_MIN_SCORE = -50;
export const ONE_WORD_MIN_SCORE = -35;

/** Frames of speech (100 a second) the silence around an answer may hold before it counts as other words. */
export const SPEECH_IN_SILENCE_FRAMES = 10;

/** The loop's acoustic score over frames `sf`–`ef`, each phone counted for the part it overlaps; and how many of those frames are speech. */
function loopOver(loop: readonly Segment[], sf: number, ef: number): { ascr: number; speech: number } {
  let ascr = 0;
  let speech = 0;
  for (const phone of loop) {
    const from = Math.max(sf, phone.sf);
    const to = Math.min(ef, phone.ef);
    if (to < from) continue;
    const frames = to - from + 1;
    ascr += (phone.ascr * frames) / (phone.ef - phone.sf + 1);
    if (phone.word !== 'SIL' && !phone.word.startsWith('+') && !phone.word.startsWith('<')) speech += frames;
  }
  return { ascr, speech };
}

/** True when every word of `inner` appears in `outer`, in order. */
function inOrder(inner: readonly string[], outer: readonly string[]): boolean {
  let i = 0;
  for (const word of outer) if (i < inner.length && inner[i] === word) i++;
  return i === inner.length;
}

/** Confidence 0–1 from the worst word's per-frame ratio: 0 ratio (as good as free speech) is 1, -100 or worse is 0. */
export function confidenceOf(score: number): number {
  return Math.max(0, Math.min(1, 1 + score / 100));
}

export interface Judgement {
  confidence: number;
  accepted: boolean;
  why: string | null;
}

/** Judges the grammar's segmentation of an answer against the phone loop's and the free pass's words. */
export function judge(grammar: readonly Segment[], loop: readonly Segment[], free: readonly string[]): Judgement {
  const segments = grammar.filter((s) => s.word !== '(NULL)' && s.ef >= s.sf);
  const words = spokenWords(segments.map((s) => s.word));
  if (words.length === 0) return { confidence: 0, accepted: false, why: 'nothing in it sounded like an answer' };
  const scores = segments.map((s) => (s.ascr - loopOver(loop, s.sf, s.ef).ascr) / (s.ef - s.sf + 1));
  const worst = Math.min(...scores);
  const confidence = confidenceOf(worst);
  const coded = words.length > 1;
  const needed = coded ? CODE_ANSWER_MIN_SCORE : ONE_WORD_MIN_SCORE;
  if (worst < needed) {
    const weakest = segments[scores.indexOf(worst)] as Segment;
    const which = baseWord(weakest.word) === SILENCE ? 'the sound around the answer' : `'${baseWord(weakest.word)}'`;
    return { confidence, accepted: false, why: `${which} did not sound enough like it (confidence ${confidence.toFixed(2)}, needs ${confidenceOf(needed)})` };
  }
  const speech = segments.filter((s) => baseWord(s.word) === SILENCE).reduce((n, s) => n + loopOver(loop, s.sf, s.ef).speech, 0);
  if (speech > SPEECH_IN_SILENCE_FRAMES) return { confidence, accepted: false, why: `other words were said around it (${speech * 10} ms of speech)` };
  const loose = spokenWords(free);
  if (loose.length < Math.min(2, words.length) || !inOrder(loose, words)) {
    return { confidence, accepted: false, why: `a looser pass heard '${loose.join(' ')}' instead` };
  }
  return { confidence, accepted: true, why: null };
}
