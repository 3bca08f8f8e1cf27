/**
 * Search snippets for people: the `[MATCH]…[/MATCH]` markers RFC-0004 puts in the JSON become bold
 * underline on a terminal, and nothing at all when the output is piped or NO_COLOR is set.
 */
import type { CliContext } from './command.js';

const MARKED = /\[MATCH\]([\s\S]*?)\[\/MATCH\]/g;

/** Whether text on stdout may carry ANSI emphasis (a TTY, and NO_COLOR unset or empty: no-color.org). */
export function emphasisOn(ctx: Pick<CliContext, 'io' | 'env'>): boolean {
  return ctx.io.stdoutIsTty && !ctx.env.NO_COLOR;
}

/** A snippet with its matches emphasised (bold and underlined) or plain. */
export function emphasize(snippet: string, on: boolean): string {
  return snippet.replace(MARKED, (_, text: string) => (on ? `\u001b[1;4m${text}\u001b[22;24m` : text));
}
