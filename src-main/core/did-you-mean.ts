/**
 * The one answer to "which name did they mean" for every unknown name a caller types: a command,
 * a skill, a tool. The same word with other capitals comes first, then a typo or two away (a
 * swap of two neighbours is one), then names the typed word begins, as `gh` and `cargo` suggest.
 */

/** Most suggestions one error carries: more reads as a list, not a guess. */
const MAX_SUGGESTIONS = 3;

/** Edit distance with adjacent swaps counted once (`gti` → `git` is 1), up to `limit` (more is limit + 1). */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (before[j - 2] as number) + 1);
      row[j] = best;
    }
    before = previous;
    previous = row;
  }
  return Math.min(previous[b.length] as number, limit + 1);
}

/** How many edits still read as a typo of a word this long: one in a short word, two from five letters, three from twelve. */
export function typoLimit(length: number): number {
  return length < 5 ? 1 : length < 12 ? 2 : 3;
}

/**
 * The candidates `wanted` most likely meant, best first, at most three: itself, equal but for
 * case, then by edit distance (case ignored), then those it is the start of (three letters at least).
 */
export function nearestNames(wanted: string, candidates: Iterable<string>): string[] {
  const typed = wanted.toLowerCase();
  const limit = typoLimit([...typed].length);
  const scored: { name: string; score: number }[] = [];
  for (const name of new Set(candidates)) {
    const lower = name.toLowerCase();
    const distance = editDistance(typed, lower, limit);
    if (name === wanted) scored.push({ name, score: -1 });
    else if (distance <= limit) scored.push({ name, score: distance });
    else if (typed.length >= 3 && lower.startsWith(typed)) scored.push({ name, score: limit + 1 });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.name);
}
