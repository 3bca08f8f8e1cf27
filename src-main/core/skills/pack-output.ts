/**
 * What a tool pack's `output` does to a run's result: `max_chars` caps the output returned (as gibb's
 * `process_output` does: the first max_chars characters and `...`; gibb counts bytes, and cuts a
 * character in two where one is wider than a byte, which Skilltray never does), and `speak: true`
 * adds `speech`, one short plain sentence a voice client can say.
 */
import type { RunResult, Tool } from '../../shared/model.js';

/** Longest sentence `speech` holds, in characters: what a voice says in a few seconds. */
export const MAX_SPEECH_CHARS = 200;

/** `text` cut to its first `maxChars` characters (code points) and `...` when it is longer. */
export function capOutput(text: string, maxChars: number): string {
  const chars = [...text];
  return chars.length > maxChars ? `${chars.slice(0, maxChars).join('')}...` : text;
}

/** Text a voice can say: no control characters, Markdown marks or runs of spaces. */
function plain(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/[`*_#>|[\]]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first sentence of `text`, at most MAX_SPEECH_CHARS characters, ending as a sentence does. */
function firstSentence(text: string): string {
  const sentence = /^(.+?[.!?])(?:\s|$)/u.exec(text)?.[1] ?? text;
  const chars = [...sentence];
  const cut = chars.length > MAX_SPEECH_CHARS ? `${chars.slice(0, MAX_SPEECH_CHARS - 1).join('').trimEnd()}…` : sentence;
  return /[.!?…]$/u.test(cut) ? cut : `${cut}.`;
}

/** The sentence a voice client says about a finished run of `tool`. */
export function speechFor(tool: Pick<Tool, 'name'>, result: RunResult): string {
  const name = tool.name.replace(/_/g, ' ');
  if (result.timedOut) return `${name} ran out of time.`;
  if (result.cancelled) return `${name} was stopped.`;
  if (result.exitCode !== 0) return `${name} failed${result.exitCode === null ? '' : ` with exit code ${result.exitCode}`}.`;
  const said = plain(result.stdout);
  return said === '' ? `${name} finished with nothing to say.` : firstSentence(said);
}

/** The result a run of `tool` returns: capped and spoken as its pack's `output` says; a SKILL.md tool's is unchanged. */
export function shapeOutput(tool: Pick<Tool, 'name' | 'output'> | undefined, result: RunResult): RunResult {
  const output = tool?.output;
  if (output === undefined) return result;
  const max = output.maxChars;
  const capped = max === null ? result : { ...result, stdout: capOutput(result.stdout, max), stderr: capOutput(result.stderr, max) };
  return output.speak ? { ...capped, speech: speechFor(tool as Tool, capped) } : capped;
}
