/**
 * Words that carry no intent ("how full is my disk" is about `full` and `disk`): left out of a
 * query people type, so that a section need not hold "is" and "my" to match, and a skill cannot
 * match every intent through them. Discover and the search over skills share the list.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  'a am an and are as at be by can could did do does for from get give has have how i in into is it its let me my of on or our please show some tell that the their them this to us want was we were what when where which who why will with would you your'.split(
    ' ',
  ),
);

/** Whether a token is a stopword (compared lower-cased). */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token.toLowerCase());
}

/** The tokens that are not stopwords, or all of them when nothing else is left. */
export function contentTokens(tokens: readonly string[]): string[] {
  const content = tokens.filter((token) => !isStopword(token));
  return content.length > 0 ? content : [...tokens];
}
