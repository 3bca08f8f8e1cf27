/** Search snippets mark matches as `[MATCH]…[/MATCH]`; they become text runs, never HTML. */

/** A run of snippet text, matched or not. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

const OPEN = '[MATCH]';
const CLOSE = '[/MATCH]';

/** Splits a snippet at its markers; an unclosed match runs to the end, a stray close marker is dropped. */
export function splitMatches(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const push = (text: string, match: boolean): void => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.match === match) last.text += text;
    else parts.push({ text, match });
  };
  let rest = snippet;
  while (rest !== '') {
    const open = rest.indexOf(OPEN);
    const close = rest.indexOf(CLOSE);
    if (close !== -1 && (open === -1 || close < open)) {
      push(rest.slice(0, close), false);
      rest = rest.slice(close + CLOSE.length);
      continue;
    }
    if (open === -1) {
      push(rest, false);
      break;
    }
    push(rest.slice(0, open), false);
    rest = rest.slice(open + OPEN.length);
    const end = rest.indexOf(CLOSE);
    push(end === -1 ? rest : rest.slice(0, end), true);
    rest = end === -1 ? '' : rest.slice(end + CLOSE.length);
  }
  return parts;
}
