import { describe, expect, it } from 'vitest';
import { judge, type Segment } from '../../../src-main/core/voice/judge.js';

/** A segmentation: each word with its frames and its score per frame. */
function segments(...words: [word: string, frames: number, perFrame: number][]): Segment[] {
  let at = 0;
  return words.map(([word, frames, perFrame]) => {
    const segment = { word, sf: at, ef: at + frames - 1, ascr: perFrame * frames };
    at += frames;
    return segment;
  });
}

/** The phone loop over the same frames: silence where the answer has silence (or `speech` says otherwise), a phone of score 0 per frame elsewhere. */
function loop(of: Segment[], speechInSilence = false): Segment[] {
  return of.map((s) => ({ word: s.word === 'sil' && !speechInSilence ? 'SIL' : 'AH', sf: s.sf, ef: s.ef, ascr: 0 }));
}

const answer = segments(['sil', 20, -5], ['run', 20, -10], ['four', 25, -20], ['one', 20, -30], ['three', 25, -25], ['sil', 30, -3]);
const words = ['run', 'four', 'one', 'three'];

describe('judging what the grammar heard', () => {
  it('accepts words that fit about as well as free speech, with silence around them and a looser pass that agrees', () => {
    const verdict = judge(answer, loop(answer), ['sil', ...words]);
    expect(verdict).toMatchObject({ accepted: true, why: null });
    // The mean of the words' ratios (-10, -20, -30, -25), silence left out.
    expect(verdict.confidence).toBeCloseTo(0.7875, 6);
  });

  it('turns down words that fit worse than free speech on average (below 0.65)', () => {
    const poor = segments(['run', 20, -30], ['four', 25, -40], ['one', 20, -45], ['three', 25, -40]);
    expect(judge(poor, loop(poor), words)).toMatchObject({ accepted: false, why: expect.stringContaining('did not sound enough like') });
  });

  it('turns down an answer with one word, or the silence around it, far off (below 0.3)', () => {
    const oneOff = segments(['run', 20, -5], ['four', 25, -5], ['one', 20, -75], ['three', 25, -5]);
    expect(judge(oneOff, loop(oneOff), words)).toMatchObject({ accepted: false, why: expect.stringContaining("'one' did not sound like it") });
    const loudSilence = segments(['sil', 40, -80], ['deny', 30, -10]);
    expect(judge(loudSilence, loop(loudSilence), ['deny'])).toMatchObject({ accepted: false, why: expect.stringContaining('the sound around the answer') });
  });

  it('turns down an answer with other words said around it, however well the answer itself fits', () => {
    const wrapped = segments(['sil', 80, -10], ['deny', 30, -5], ['sil', 5, -2]);
    expect(judge(wrapped, loop(wrapped, true), ['deny'])).toMatchObject({ accepted: false, why: expect.stringContaining('other words were said around it') });
  });

  it('turns down an answer a looser pass did not hear in the same order', () => {
    expect(judge(answer, loop(answer), ['cancel', 'four'])).toMatchObject({ accepted: false, why: "a looser pass heard 'cancel four' instead" });
    expect(judge(answer, loop(answer), ['four'])).toMatchObject({ accepted: false });
    expect(judge(answer, loop(answer), ['one', 'four'])).toMatchObject({ accepted: false });
    const deny = segments(['sil', 20, -2], ['deny', 30, -10], ['sil', 20, -2]);
    expect(judge(deny, loop(deny), ['sil'])).toMatchObject({ accepted: true });
    expect(judge(deny, loop(deny), ['deny'])).toMatchObject({ accepted: true });
    expect(judge(deny, loop(deny), ['cancel'])).toMatchObject({ accepted: false });
    expect(judge(deny, loop(deny), ['deny', 'four'])).toMatchObject({ accepted: false });
  });

  it('hears nothing in a grammar that found no path', () => {
    expect(judge([], [], [])).toEqual({ confidence: 0, accepted: false, why: 'nothing in it sounded like an answer' });
  });
});
