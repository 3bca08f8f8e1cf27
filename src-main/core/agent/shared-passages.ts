/**
 * Passages that the bodies of many skills repeat word for word: an owner's template ("Run a step
 * only when a command fails", "## When to Use"), even where each copy names its own skill in the
 * middle of a sentence. They say nothing about what any one skill does, so discover indexes bodies
 * without them: their words then neither match every skill of the template nor look common among
 * the skills when they are not. A passage is found as runs of SHINGLE words in a row (shingles, as
 * near-duplicate detection has them): a word inside a run that many bodies hold is left out.
 */

/** A run of words counts as shared when at least this share of the skills' bodies hold it… */
const SHARED_SHARE = 0.01;
/** …and at least this many: in a small set, a few related skills may say the same thing on purpose. */
const SHARED_LEAST = 5;
/** Words in a run: long enough that unrelated skills do not share one by chance of phrasing. */
const SHINGLE = 6;
/** How much of a body is looked at: a template sits in ordinary skills, and a huge body costs no more than this. */
const MAX_CHARS = 64 * 1024;

/** A character of a word: a letter or a digit (a table for ASCII, the Unicode classes beyond). */
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, c) => (/[A-Za-z0-9]/.test(String.fromCharCode(c)) ? 1 : 0));
const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

interface Shingles {
  /** How many words the body has (up to MAX_CHARS), and where each starts and ends. */
  words: number;
  starts: Int32Array;
  ends: Int32Array;
  /** The key of each run of SHINGLE words, by the run's first word. */
  keys: Uint32Array;
}

/** Room for the words of the longest body looked at (a word takes a character and one after it), used body after body. */
const scratch = { starts: new Int32Array((MAX_CHARS >>> 1) + 1), ends: new Int32Array((MAX_CHARS >>> 1) + 1), hashes: new Uint32Array((MAX_CHARS >>> 1) + 1) };

/**
 * A body's words up to MAX_CHARS and the key of each run of SHINGLE words, in one pass over the
 * characters: each word hashed lower-cased (32-bit FNV-1a), a run's key hashed from its words'. Two
 * runs may share a key by chance (about one in four billion): a few words lost, no more.
 */
function shinglesOf(body: string): Shingles {
  const length = Math.min(body.length, MAX_CHARS);
  const { starts, ends, hashes } = scratch;
  let words = 0;
  let hash = 0;
  let start = -1;
  for (let i = 0; i <= length; i++) {
    let c = i < length ? body.charCodeAt(i) : 32;
    const inWord = c < 128 ? ASCII_WORD[c] === 1 : LETTER_OR_DIGIT.test(body[i] as string);
    if (inWord) {
      if (start === -1) {
        start = i;
        hash = 0x811c9dc5;
      }
      if (c >= 65 && c <= 90) c += 32;
      else if (c >= 128) c = (body[i] as string).toLowerCase().charCodeAt(0);
      hash = Math.imul(hash ^ c, 0x01000193);
    } else if (start !== -1) {
      starts[words] = start;
      ends[words] = i;
      hashes[words] = hash;
      words++;
      start = -1;
    }
  }
  const keys = new Uint32Array(Math.max(0, words - SHINGLE + 1));
  for (let at = 0; at < keys.length; at++) {
    let key = 0x811c9dc5;
    for (let k = at; k < at + SHINGLE; k++) key = Math.imul(key ^ (hashes[k] as number), 0x01000193);
    keys[at] = key;
  }
  return { words, starts: starts.slice(0, words), ends: ends.slice(0, words), keys };
}

/** A table of open addressing from keys to counts, sized for `most` keys: a Map of millions of keys costs far more. */
class KeyTable {
  private readonly bits: number;
  private readonly mask: number;
  private readonly keys: Uint32Array;
  readonly counts: Uint32Array;
  /** The body that last counted each slot's key: a body counts a key once. */
  readonly lastBody: Int32Array;

  constructor(most: number) {
    this.bits = Math.max(8, Math.ceil(Math.log2(most * 1.5 + 1)));
    this.mask = (1 << this.bits) - 1;
    this.keys = new Uint32Array(this.mask + 1);
    this.counts = new Uint32Array(this.mask + 1);
    this.lastBody = new Int32Array(this.mask + 1).fill(-1);
  }

  /** The key's slot: where it is, or the free one it goes to. */
  slot(key: number): number {
    let at = Math.imul(key, 0x9e3779b1) >>> (32 - this.bits);
    while (this.counts[at] !== 0 && this.keys[at] !== key) at = (at + 1) & this.mask;
    this.keys[at] = key;
    return at;
  }
}

/** The most counters of the sketch (4 MiB): small enough to stay near the cache however many keys there are. */
const SKETCH_MOST_BITS = 22;

/**
 * Whether at least `least` bodies hold a key. A sketch of saturating counters (each the sum of the
 * keys falling in it, so never below any one key's count) passes the few keys that may be shared,
 * and only those are counted exactly, each body once: most runs of words are a body's own, and a
 * table of them all is slow to fill.
 */
function sharedIn(shingles: readonly Shingles[], least: number): (key: number) => boolean {
  let total = 0;
  for (const { keys } of shingles) total += keys.length;
  const bits = Math.min(SKETCH_MOST_BITS, Math.max(8, Math.ceil(Math.log2(total + 1)) + 1));
  const sketch = new Uint8Array(1 << bits);
  const cell = (key: number): number => Math.imul(key ^ (key >>> 16), 0x85ebca6b) >>> (32 - bits);
  // A counter stops at 255: past that, a key may be shared however many bodies are needed.
  const passes = Math.min(least, 255);
  for (const { keys } of shingles) {
    for (let k = 0; k < keys.length; k++) {
      const at = cell(keys[k] as number);
      if ((sketch[at] as number) < 255) (sketch[at] as number)++;
    }
  }
  let passing = 0;
  for (const { keys } of shingles) for (let k = 0; k < keys.length; k++) if ((sketch[cell(keys[k] as number)] as number) >= passes) passing++;
  const table = new KeyTable(passing);
  for (const [body, { keys }] of shingles.entries()) {
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as number;
      if ((sketch[cell(key)] as number) < passes) continue;
      const at = table.slot(key);
      if (table.lastBody[at] === body) continue;
      table.lastBody[at] = body;
      (table.counts[at] as number)++;
    }
  }
  return (key) => (sketch[cell(key)] as number) >= passes && (table.counts[table.slot(key)] as number) >= least;
}

/** The bodies with the words of runs shared by many of them taken out; a body holding none is returned as it was. */
export function withoutSharedPassages(bodies: readonly string[]): string[] {
  const least = Math.max(SHARED_LEAST, Math.ceil(SHARED_SHARE * bodies.length));
  if (bodies.length < least) return [...bodies];
  const shingles = bodies.map(shinglesOf);
  const shared = sharedIn(shingles, least);
  return bodies.map((body, i) => {
    const { words, starts, ends, keys } = shingles[i] as Shingles;
    const out = new Uint8Array(words);
    let any = false;
    for (let at = 0; at < keys.length; at++) {
      if (!shared(keys[at] as number)) continue;
      out.fill(1, at, at + SHINGLE);
      any = true;
    }
    if (!any) return body;
    // Only the words go: the lines, headings' marks and fences around them stay where they were.
    const kept: string[] = [];
    let from = 0;
    for (let w = 0; w < words; w++) {
      if (out[w] === 0) continue;
      kept.push(body.slice(from, starts[w]));
      from = ends[w] as number;
    }
    kept.push(body.slice(from));
    return kept.join('');
  });
}
