/**
 * Whether what the grammar heard was said. A grammar always finds its closest answer ("hello there
 * how are you doing today" comes out as a run with some code), so three checks must agree before an
 * answer counts:
 * - the answer's words must fit the sound about as well as a free phone loop over the same frames
 *   does: their per-frame log-likelihood ratio against the loop, on average, gives the confidence,
 *   and no word (nor the silence around them) may fit far worse;
 * - the silence the grammar put around the answer must not hold speech (words around the answer);
 * - a second pass over a free loop of the same words must hear the answer's words, in order (at
 *   least two of a code answer's; a one-word answer's, or only silence).
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
 * How well the answer's words must fit, on average, per frame (confidence 0.65), and how badly any
 * one word or the silence around them may fit (confidence 0.3). Measured over all 80 codes in two
 * espeak-ng voices and 100 sentences that are not answers (test/integration/voice/false-accepts.test.ts).
 */
export const MIN_MEAN_SCORE = -35;
export const MIN_SEGMENT_SCORE = -70;

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
  const spoken = scores.filter((_, i) => baseWord((segments[i] as Segment).word) !== SILENCE);
  const confidence = confidenceOf(spoken.reduce((sum, score) => sum + score, 0) / spoken.length);
  if (confidence < confidenceOf(MIN_MEAN_SCORE)) {
    return {
      confidence,
      accepted: false,
      why: `it did not sound enough like '${words.join(' ')}' (confidence ${confidence.toFixed(2)}, needs ${confidenceOf(MIN_MEAN_SCORE)})`,
    };
  }
  const worst = Math.min(...scores);
  if (worst < MIN_SEGMENT_SCORE) {
    const weakest = segments[scores.indexOf(worst)] as Segment;
    const which = baseWord(weakest.word) === SILENCE ? 'the sound around the answer' : `'${baseWord(weakest.word)}'`;
    return { confidence, accepted: false, why: `${which} did not sound like it (${confidenceOf(worst).toFixed(2)}, needs ${confidenceOf(MIN_SEGMENT_SCORE)})` };
  }
  const speech = segments.filter((s) => baseWord(s.word) === SILENCE).reduce((n, s) => n + loopOver(loop, s.sf, s.ef).speech, 0);
  if (speech > SPEECH_IN_SILENCE_FRAMES) return { confidence, accepted: false, why: `other words were said around it (${speech * 10} ms of speech)` };
  const loose = spokenWords(free);
  // A one-word answer the looser pass took for silence still counts; any word it heard must be the answer's.
  const agrees = words.length === 1 ? loose.length === 0 || (loose.length === 1 && loose[0] === words[0]) : loose.length >= 2 && inOrder(loose, words);
  if (!agrees) {
    return { confidence, accepted: false, why: `a looser pass heard '${loose.join(' ')}' instead` };
  }
  return { confidence, accepted: true, why: null };
}
