/**
 * The other ways a word is written: common abbreviations and their long forms (`k8s` and
 * "kubernetes", `e2e` and "end to end", `postgres` and "postgresql"), British and American spellings
 * ("optimise", "optimize"), and compounds written as one word or two ("frontend", "front end").
 * A stemmer (FTS5's porter) folds "tests" into "test" on both sides; what it cannot fold is here.
 * Forms may be phrases of several words; each is matched as written, words in order.
 */

/**
 * An abbreviation and the words it stands for; either one finds the other (the long forms do not find each other).
 * A Map, not an object: a word is any text, and "constructor" must not find Object's.
 */
const ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    '2fa': ['two factor'],
    a11y: ['accessibility'],
    admin: ['administrator', 'administration'],
    ai: ['artificial intelligence'],
    app: ['application'],
    async: ['asynchronous'],
    auth: ['authentication', 'authorization'],
    authn: ['authentication'],
    authz: ['authorization'],
    aws: ['amazon web services'],
    ci: ['continuous integration'],
    cli: ['command line'],
    config: ['configuration'],
    cv: ['resume'],
    db: ['database'],
    dep: ['dependency'],
    deps: ['dependencies'],
    dev: ['development', 'developer'],
    diff: ['difference', 'different'],
    dir: ['directory'],
    doc: ['document', 'documentation'],
    docs: ['documents', 'documentation'],
    e2e: ['end to end'],
    env: ['environment'],
    eval: ['evaluation'],
    gcp: ['google cloud'],
    i18n: ['internationalization'],
    iac: ['infrastructure as code'],
    img: ['image'],
    impl: ['implementation'],
    info: ['information'],
    jpg: ['jpeg'],
    js: ['javascript'],
    k8s: ['kubernetes'],
    l10n: ['localization'],
    lib: ['library'],
    llm: ['large language model'],
    md: ['markdown'],
    mfa: ['multi factor'],
    ml: ['machine learning'],
    msg: ['message'],
    o11y: ['observability'],
    os: ['operating system'],
    otp: ['one time password'],
    pcap: ['packet capture'],
    perf: ['performance'],
    pg: ['postgresql'],
    pic: ['picture'],
    pkg: ['package'],
    postgres: ['postgresql'],
    pr: ['pull request'],
    prod: ['production'],
    py: ['python'],
    regex: ['regular expression'],
    repo: ['repository'],
    repos: ['repositories'],
    sec: ['security'],
    spec: ['specification'],
    sqli: ['sql injection'],
    src: ['source'],
    sso: ['single sign on'],
    stats: ['statistics'],
    tdd: ['test driven development'],
    ts: ['typescript'],
    ui: ['user interface'],
    ux: ['user experience'],
    vm: ['virtual machine'],
    vuln: ['vulnerability'],
    vulns: ['vulnerabilities'],
    xss: ['cross site scripting'],
    yml: ['yaml'],
  }),
);

/** Long form → its abbreviations, the other direction of the table. */
const SHORT_FORMS: ReadonlyMap<string, readonly string[]> = (() => {
  const short = new Map<string, string[]>();
  for (const [abbreviation, longForms] of ABBREVIATIONS) {
    for (const long of longForms) short.set(long, [...(short.get(long) ?? []), abbreviation]);
  }
  return short;
})();

/** The longest long form, in words: how far ahead `phrasesAt` looks. */
const LONGEST_PHRASE = Math.max(...[...SHORT_FORMS.keys()].map((long) => long.split(' ').length));

/** The other side's spelling where the stemmer keeps British and American apart: -ise/-ize and -yse/-yze (optimise, analyse). */
function otherSpelling(word: string): string | null {
  const ending = /^(.{3,})(is|iz)(e|es|ed|ing|ation|ations|er|ers)$/u.exec(word) ?? /^(.{2,})(ys|yz)(e|es|ed|ing)$/u.exec(word);
  if (ending === null) return null;
  const swapped = { is: 'iz', iz: 'is', ys: 'yz', yz: 'ys' }[ending[2] as 'is' | 'iz' | 'ys' | 'yz'];
  return `${ending[1]}${swapped}${ending[3]}`;
}

/** Every way to write `word` (one lower-cased word), itself first: abbreviation, long form, spelling. */
export function wordForms(word: string): string[] {
  const forms = [word, ...(ABBREVIATIONS.get(word) ?? []), ...(SHORT_FORMS.get(word) ?? [])];
  const other = otherSpelling(word);
  if (other !== null) forms.push(other);
  return [...new Set(forms)];
}

/**
 * A long form that starts at `words[at]` ("end to end", "pull request"): its length in words and
 * its abbreviations, the longest first; null when none starts there.
 */
export function phraseAt(words: readonly string[], at: number): { length: number; phrase: string; short: readonly string[] } | null {
  for (let length = Math.min(LONGEST_PHRASE, words.length - at); length >= 2; length--) {
    const phrase = words.slice(at, at + length).join(' ');
    const short = SHORT_FORMS.get(phrase);
    if (short !== undefined) return { length, phrase, short };
  }
  return null;
}

/** The shortest part a compound is split into: shorter ones ("a", "in", "on") make false compounds. */
const PART = 3;
/** The longest word tried as a compound of two: longer ones are not, and each cut costs a look-up. */
const LONGEST_COMPOUND = 24;

/** The ways to cut one word into two words of at least three letters ("frontend" → "front end", "fro ntend", …). */
export function compoundSplits(word: string): [string, string][] {
  if (word.length > LONGEST_COMPOUND || !/^\p{L}+$/u.test(word)) return [];
  const splits: [string, string][] = [];
  for (let cut = PART; cut <= word.length - PART; cut++) splits.push([word.slice(0, cut), word.slice(cut)]);
  return splits;
}

/** Two neighbouring words written as one ("sign", "up" → "signup"), when both are letters only. */
export function compoundOf(first: string, second: string): string | null {
  return /^\p{L}+$/u.test(first) && /^\p{L}+$/u.test(second) ? first + second : null;
}
