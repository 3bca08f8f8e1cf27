/** `search --strict` as the CLI prints it. */
import type { IndexHit } from '../../shared/gateway.js';

/** Score as the text form shows it. */
export function formatScore(score: number): string {
  return score.toFixed(2);
}

/** RFC-0004's informative text form (`search --strict`): `<file>#<section> (score: <score>)` then the snippet on one indented line. */
export function formatSearch(result: { results: readonly IndexHit[] }): string {
  return result.results.map((hit) => `${hit.file}#${hit.section} (score: ${formatScore(hit.score)})\n  ${hit.snippet.replace(/\s*\n\s*/g, ' ')}`).join('\n');
}
