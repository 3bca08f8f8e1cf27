import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intentTerms } from '../../../src-main/core/agent/intent-terms.js';
import { isStopword } from '../../../src-main/core/text/stopwords.js';

/** A vocabulary that holds every compound: the terms offer every join and split the text allows. */
const knowsAll = (): boolean => true;
const knowsNone = (): boolean => false;
const words = (intent: string, knows = knowsNone) => intentTerms(intent, knows).map((t) => t.word);

describe('intent terms', () => {
  it('lower-cases, drops contractions, edge punctuation and stopwords', () => {
    expect(words("What's eating my CPU?")).toEqual(['eating', 'cpu']);
    expect(words('please show me the git status, one more time')).toEqual(['git', 'status', 'time']);
  });

  it('reads a long form as one term with its abbreviation', () => {
    const [e2e, test] = intentTerms('write an end to end test', knowsNone).slice(1);
    expect(e2e).toMatchObject({ word: 'end to end', forms: ['end to end', 'e2e'] });
    expect(test?.word).toBe('test');
  });

  it('splits words joined by a slash, not a path', () => {
    expect(words('set up js/ts linting')).toEqual(['set', 'js', 'ts', 'linting']);
    expect(words('list everything in /var/log')).toEqual(['list', 'var/log']);
  });

  it('offers compounds only as the skills write them', () => {
    const [sign] = intentTerms('the sign up page', (form) => form === 'signup');
    expect(sign?.forms).toEqual(['sign', 'signup']);
    const [frontend] = intentTerms('frontend tests', (form) => form === 'front end');
    expect(frontend?.forms).toEqual(['frontend', 'front end']);
    expect(intentTerms('frontend tests', knowsNone)[0]?.forms).toEqual(['frontend']);
  });

  it('cuts a run of an unspaced script into pairs, so a word inside the run is found', () => {
    const terms = intentTerms('在滴答清单里新建一个任务', knowsNone);
    expect(terms.every((t) => t.unspaced)).toBe(true);
    expect(terms.map((t) => t.word)).toEqual(expect.arrayContaining(['滴答', '答清', '清单']));
    expect(words('git 提交')).toEqual(['git', '提交']);
  });

  it('never throws; every term has forms, none a stopword unless all were (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.boolean(), (intent, all) => {
        const terms = intentTerms(intent, all ? knowsAll : knowsNone);
        const seen = new Set<string>();
        for (const term of terms) {
          expect(term.forms.length).toBeGreaterThan(0);
          expect(term.forms[0]).toBe(term.word);
          expect(seen.has(term.word)).toBe(false);
          seen.add(term.word);
        }
        if (terms.some((t) => !isStopword(t.word))) expect(terms.every((t) => !isStopword(t.word))).toBe(true);
      }),
    );
  });
});
