/**
 * Text an approval shows exactly as the program gets it: every invisible character spelled out as a
 * marked escape, an argv numbered as the program sees it, the command's words with the caller's values marked.
 */
import { visibleParts } from '../../src-main/shared/display-text.js';
import type { CommandWord } from './command-words.js';

/** The characters of a value with its invisible ones spelled out as marked escapes. */
export function Visible({ value }: { value: string }) {
  return (
    <>
      {visibleParts(value).map((part, i) =>
        part.kind === 'text' ? (
          <span key={i}>{part.text}</span>
        ) : (
          <span key={i} className="escape" title={`invisible character U+${part.codePoint.toString(16).toUpperCase().padStart(4, '0')}`}>
            {part.text}
          </span>
        ),
      )}
    </>
  );
}

/** A value in quotes with its invisible characters spelled out as marked escapes. */
export function VisibleText({ value }: { value: string }) {
  return (
    <code className="visible-text">
      <span className="quote" aria-hidden="true">
        &quot;
      </span>
      <Visible value={value} />
      <span className="quote" aria-hidden="true">
        &quot;
      </span>
    </code>
  );
}

/** The argv the program will receive, one argument per line, numbered as the program sees them; the caller's values marked. */
export function ArgumentList({ argv, supplied = [] }: { argv: string[]; supplied?: readonly number[] }) {
  if (argv.length === 0) return <p className="muted">No arguments.</p>;
  return (
    <ol className="argv" aria-label={`${argv.length} ${argv.length === 1 ? 'argument' : 'arguments'}`}>
      {argv.map((arg, i) => (
        <li key={i} className={supplied.includes(i) ? 'argv-supplied' : undefined}>
          <span className="argv-index" aria-hidden="true">
            {i + 1}
          </span>
          <VisibleText value={arg} />
          {supplied.includes(i) ? <span className="argv-origin">from the caller</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** Command words as code: the caller's values marked, an argument holding a space set apart so it reads as one word. */
export function Words({ words, cut = false }: { words: CommandWord[]; cut?: boolean }) {
  return (
    <>
      {words.map((word, i) => (
        <span key={word.index}>
          {i > 0 ? ' ' : null}
          <span className={`${word.index === -1 ? 'command-program' : 'command-arg'}${word.spaced ? ' command-arg-spaced' : ''}`}>
            {word.parts.map((part, j) =>
              part.supplied ? (
                <mark key={j} className="supplied" title="chosen by the caller">
                  <Visible value={part.text} />
                </mark>
              ) : (
                <Visible key={j} value={part.text} />
              ),
            )}
          </span>
        </span>
      ))}
      {cut ? ' …' : null}
    </>
  );
}
