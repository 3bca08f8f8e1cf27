/**
 * An intent as the terms discover looks for: its words lower-cased, contractions and edge
 * punctuation off, each with the other ways it is written (core/text/word-forms.ts), long forms of
 * abbreviations taken as one term ("end to end"), compounds joined or split where the skills write
 * them so, stopwords out (all kept when the intent is nothing else), and a run of an unspaced
 * script cut into pairs of characters.
 */
import { queryTokens } from '../search/query.js';
import { hasUnspacedRun } from '../search/unspaced-text.js';
import { contentWords, isStopword } from '../text/stopwords.js';
import { compoundOf, compoundSplits, phraseAt, wordForms } from '../text/word-forms.js';

/** One thing the intent asks for. */
export interface Term {
  /** As the reason shows it. */
  word: string;
  /** Each way to write it (a word, or words in a row); a skill holding any of them holds the term. */
  forms: string[];
  /** A pair of characters of an unspaced run, matched in the pair index. */
  unspaced: boolean;
}

/** Whether the skills hold a form somewhere; compounds are offered only as the skills write them. */
export type Knows = (form: string) => boolean;

const UNSPACED_RUN =
  /(?:(?=[\p{L}\p{M}\p{N}])[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}])+/gu;

/** The intent's words: split on spaces and on slashes between words (`js/ts`, not a path), contractions and edge punctuation off; unspaced runs apart. */
function wordsOf(intent: string): string[] {
  return queryTokens(intent.toLowerCase().replace(/[’]/g, "'"))
    .flatMap((token) => (/^[\p{L}\p{N}]+(?:\/[\p{L}\p{N}]+)+$/u.test(token) ? token.split('/') : [token]))
    .flatMap((token) => (hasUnspacedRun(token) ? token.replace(UNSPACED_RUN, ' $& ').split(' ') : [token]))
    .map((w) => w.replace(/'(?:s|re|ll|t|ve|d|m)$/u, '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w !== '');
}

/** Pairs of characters of an unspaced run (one character alone is too common to mean anything). */
function unspacedTerms(run: string): Term[] {
  const chars = [...run];
  return chars.slice(0, -1).map((c, i) => {
    const pair = c + (chars[i + 1] as string);
    return { word: pair, forms: [pair], unspaced: true };
  });
}

/** A word with the other ways it is written, and the compounds it makes with its neighbours or splits into. */
function wordTerm(words: readonly string[], at: number, knows: Knows): Term {
  const word = words[at] as string;
  const forms = wordForms(word);
  for (const neighbour of [words[at - 1], words[at + 1]]) {
    if (neighbour === undefined) continue;
    const compound = neighbour === words[at - 1] ? compoundOf(neighbour, word) : compoundOf(word, neighbour);
    if (compound !== null && knows(compound)) forms.push(compound);
  }
  if (!isStopword(word)) for (const [first, second] of compoundSplits(word)) if (knows(`${first} ${second}`)) forms.push(`${first} ${second}`);
  return { word, forms: [...new Set(forms)], unspaced: false };
}

/** The terms of an intent, in order, each once. */
export function intentTerms(intent: string, knows: Knows): Term[] {
  const words = wordsOf(intent);
  const terms: Term[] = [];
  for (let at = 0; at < words.length;) {
    const word = words[at] as string;
    if (hasUnspacedRun(word)) {
      terms.push(...unspacedTerms(word));
      at++;
      continue;
    }
    const phrase = phraseAt(words, at);
    if (phrase !== null) {
      terms.push({ word: phrase.phrase, forms: [phrase.phrase, ...phrase.short], unspaced: false });
      at += phrase.length;
      continue;
    }
    terms.push(wordTerm(words, at, knows));
    at++;
  }
  const kept = new Set(contentWords(terms.map((t) => t.word)));
  const seen = new Set<string>();
  return terms.filter((t) => kept.has(t.word) && !seen.has(t.word) && seen.add(t.word));
}
