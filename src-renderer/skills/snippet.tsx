/** A search snippet with its matches in <mark>: React escapes the text, so a snippet can never inject markup. */
import { splitMatches } from './highlight.js';

export function Snippet({ text }: { text: string }) {
  return (
    <>
      {splitMatches(text).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </>
  );
}
