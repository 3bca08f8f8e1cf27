import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentWords, isStopword } from '../../../src-main/core/text/stopwords.js';
import { compoundOf, compoundSplits, phraseAt, wordForms } from '../../../src-main/core/text/word-forms.js';

describe('word forms', () => {
  it('an abbreviation finds its long forms and a long form its abbreviation', () => {
    expect(wordForms('k8s')).toEqual(['k8s', 'kubernetes']);
    expect(wordForms('kubernetes')).toEqual(['kubernetes', 'k8s']);
    expect(wordForms('postgres')).toEqual(['postgres', 'postgresql']);
    expect(wordForms('postgresql')).toEqual(['postgresql', 'pg', 'postgres']);
    expect(wordForms('auth')).toEqual(['auth', 'authentication', 'authorization']);
    expect(wordForms('e2e')).toEqual(['e2e', 'end to end']);
    for (const [short, long] of [
      ['db', 'database'],
      ['env', 'environment'],
      ['repo', 'repository'],
      ['config', 'configuration'],
      ['js', 'javascript'],
      ['ts', 'typescript'],
      ['jpg', 'jpeg'],
      ['yml', 'yaml'],
    ]) {
      expect(wordForms(short as string)).toContain(long);
      expect(wordForms(long as string)).toContain(short);
    }
  });

  it('long forms of one abbreviation do not find each other', () => {
    expect(wordForms('authentication')).not.toContain('authorization');
  });

  it('British and American spellings find each other', () => {
    expect(wordForms('optimise')).toContain('optimize');
    expect(wordForms('randomize')).toContain('randomise');
    expect(wordForms('analysing')).toContain('analyzing');
    expect(wordForms('summarization')).toContain('summarisation');
    expect(wordForms('analysis')).toEqual(['analysis']);
  });

  it('a long form of several words is read as one term, the longest first', () => {
    expect(phraseAt(['write', 'an', 'end', 'to', 'end', 'test'], 2)).toEqual({ length: 3, phrase: 'end to end', short: ['e2e'] });
    expect(phraseAt(['open', 'a', 'pull', 'request'], 2)).toMatchObject({ phrase: 'pull request', short: ['pr'] });
    expect(phraseAt(['end', 'of', 'it'], 0)).toBeNull();
  });

  it('compounds join two words of letters and split one into parts of three letters or more', () => {
    expect(compoundOf('sign', 'up')).toBe('signup');
    expect(compoundOf('next', '2')).toBeNull();
    expect(compoundSplits('frontend')).toContainEqual(['front', 'end']);
    expect(compoundSplits('frontend').every(([a, b]) => a.length >= 3 && b.length >= 3)).toBe(true);
    expect(compoundSplits('k8s')).toEqual([]);
  });

  it('every form of any word is lower-case text with the word itself first (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]{1,20}$/), (word) => {
        const forms = wordForms(word);
        expect(forms[0]).toBe(word);
        expect(new Set(forms).size).toBe(forms.length);
        for (const form of forms) expect(form).toMatch(/^[a-z0-9 ]+$/);
      }),
    );
  });
});

describe('stopwords', () => {
  it('drops function words and requests, keeps what names a job', () => {
    expect(contentWords(['please', 'show', 'me', 'the', 'git', 'status', 'up', 'than', 'still', 'one'])).toEqual(['git', 'status']);
    expect(isStopword('deploy')).toBe(false);
  });

  it('an intent of only stopwords keeps its modal words, and nothing else', () => {
    expect(contentWords(['what', 'must', 'and', 'should', 'i', 'do'])).toEqual(['must', 'should']);
    expect(contentWords(['the', 'of', 'and'])).toEqual([]);
  });
});
