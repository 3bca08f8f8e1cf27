/**
 * Words that carry no intent ("how full is my disk" is about `full` and `disk`): left out of a
 * query people type, so that a section need not hold "is" and "my" to match, and a skill cannot
 * match every intent through them. Discover and the search over skills share the list.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  'a about after all also am an and any are as at be been being both but by can could did do does each for from get give had has have having he her here him his how i in into is it its just let me more most my no not now of on only or other our out over please same she show so some such tell than that the their them then there these they this those through to too up us very want was we were what when where which while who why will with would you your'.split(
    ' ',
  ),
);

/**
 * Modal verbs. The common ones ("can", "will") are stopwords ("how can I deploy" is about
 * deploying), but a query made of them is about them: "MUST gates SHOULD gates" asks for the text
 * on requirement levels, so there every modal word counts (see queryWords).
 */
const MODAL_WORDS: ReadonlySet<string> = new Set('can could may might must shall should will would'.split(' '));

/** Whether a token is a stopword (compared lower-cased). */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token.toLowerCase());
}

const isModal = (token: string): boolean => MODAL_WORDS.has(token.toLowerCase());

/** Whether the query is about its modal words: it holds two or more, or writes one in capitals as a requirement (RFC 2119's MUST, SHOULD). */
function asksAboutModals(tokens: readonly string[]): boolean {
  const modals = tokens.filter(isModal);
  return modals.length >= 2 || modals.some((token) => token.length > 1 && token === token.toUpperCase());
}

/**
 * A query's tokens as the words that say something (`content`) and the common words around them
 * (`common`): modal words are content when the query is about them, and every token is content
 * when all are common words (`allCommon`).
 */
export function queryWords(tokens: readonly string[]): { content: string[]; common: string[]; allCommon: boolean } {
  const modal = asksAboutModals(tokens);
  const says = (token: string): boolean => !isStopword(token) || (modal && isModal(token));
  const content = tokens.filter(says);
  if (content.length === 0) return { content: [...tokens], common: [], allCommon: true };
  return { content, common: tokens.filter((token) => !says(token)), allCommon: false };
}

/** The tokens that are not stopwords, or all of them when nothing else is left (modal words kept when the query is about them). */
export function contentTokens(tokens: readonly string[]): string[] {
  return queryWords(tokens).content;
}
