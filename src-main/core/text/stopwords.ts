/**
 * Words that say nothing about which skill is meant: the function words of English (articles,
 * pronouns, prepositions, auxiliaries, "than", "still", "up") and the requests around an intent
 * ("please show me", "help me", "I want"). Modal words (must, should, may, …) are among them, but
 * an intent made only of stopwords keeps its modal ones ("MUST gates SHOULD gates" is about them):
 * see `contentWords`.
 */
const FUNCTION_WORDS =
  'a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during each either else even ever every few for from further had has have having he her here hers herself him himself his how however i if in into is it its itself just may me might more most much must my myself neither no nor not now of off on once one only onto or other ought our ours ourselves out over own per quite rather same shall she should since so some still such than that the their theirs them themselves then there these they this those though through thus to too under until up upon us very via was we were what whatever when whenever where whether which while who whom whose why will with within without would yet you your yours yourself yourselves';
const REQUEST_WORDS =
  'anything everything get give go got help hey i’d i’m i’ve id im ive kindly let lets like need needs please show something tell thing things want wants way';

const MODAL_WORDS: ReadonlySet<string> = new Set('can could may might must need ought shall should will would'.split(' '));
const STOPWORDS: ReadonlySet<string> = new Set(`${FUNCTION_WORDS} ${REQUEST_WORDS}`.split(' '));

/** Whether a lower-cased word says nothing about the skill meant. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** The words that are not stopwords; when there are none, the modal ones ("what must and should I do" asks about those). */
export function contentWords(words: readonly string[]): string[] {
  const content = words.filter((word) => !isStopword(word));
  return content.length > 0 ? content : words.filter((word) => MODAL_WORDS.has(word));
}
