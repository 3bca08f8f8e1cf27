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
/** How rare a term is among the skills, ln(1 + skills / skills holding it); 0 when none holds it. */
export type Rarity = (term: Term) => number;

/**
 * The most terms an intent is looked up by. A longer one (a pasted page) keeps its most telling
 * terms, as a "more like this" query does: the most often repeated times the rarest, words no skill
 * holds last. Each term costs a look-up in every field, so a page of text stays as fast as a line.
 */
export const MAX_TERMS = 24;

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

/** A term before its compounds are looked up: a word's place in the intent, or the term itself. */
type Pending = { word: string; at: number } | Term;

/**
 * The terms of an intent, in order, each once; at most MAX_TERMS, the most telling (see there),
 * which `rarity` decides only when there are more.
 */
export function intentTerms(intent: string, knows: Knows, rarity: Rarity = () => 1): Term[] {
  const words = wordsOf(intent);
  const pending: Pending[] = [];
  for (let at = 0; at < words.length;) {
    const word = words[at] as string;
    if (hasUnspacedRun(word)) {
      pending.push(...unspacedTerms(word));
      at++;
      continue;
    }
    const phrase = phraseAt(words, at);
    if (phrase !== null) {
      pending.push({ word: phrase.phrase, forms: [phrase.phrase, ...phrase.short], unspaced: false });
      at += phrase.length;
      continue;
    }
    pending.push({ word, at });
    at++;
  }
  const kept = new Set(contentWords(pending.map((t) => t.word)));
  const count = new Map<string, number>();
  let unique: Pending[] = [];
  for (const t of pending) {
    if (!kept.has(t.word)) continue;
    const times = count.get(t.word) ?? 0;
    if (times === 0) unique.push(t);
    count.set(t.word, times + 1);
  }
  if (unique.length > MAX_TERMS) {
    const telling = new Map(unique.map((t) => [t.word, (count.get(t.word) as number) * rarity(asTerm(t, words, () => false))]));
    const best = new Set(
      [...unique]
        .sort((a, b) => (telling.get(b.word) as number) - (telling.get(a.word) as number))
        .slice(0, MAX_TERMS)
        .map((t) => t.word),
    );
    unique = unique.filter((t) => best.has(t.word));
  }
  return unique.map((t) => asTerm(t, words, knows));
}

/** A pending term made whole: a word gets its other forms and compounds. */
function asTerm(t: Pending, words: readonly string[], knows: Knows): Term {
  return 'at' in t ? wordTerm(words, t.at, knows) : t;
}
