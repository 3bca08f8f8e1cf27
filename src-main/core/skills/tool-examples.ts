/**
 * The calls a tool's `#### Examples` section shows, read as data so one can be run (`run --example
 * N`). Two forms are read: Skilltray's `Call: <tool> <JSON arguments>` (docs/bundled-skills.md), and
 * gibb.eri.sh's FunctionGemma form `call:<tool>{key:<escape>text<escape>,n:3}` (with or without
 * `<start_function_call>` around it). Each call is one example, with the `User:` line before it.
 */
import type { Tool } from '../../shared/model.js';
import { templateErrors } from '../../shared/error-messages/templates.js';

/** One example call, numbered from 1 in the order written. */
export interface ToolExample {
  n: number;
  /** What the person said, when a `User:` line comes before the call. */
  user: string | null;
  /** The tool the call names. */
  tool: string;
  /** The arguments, or null when they cannot be read (`problem` says why). */
  args: Record<string, unknown> | null;
  problem: string | null;
  /** The call as written. */
  text: string;
}

const SKILLTRAY_CALL = /^\s*Call:\s*([A-Za-z0-9_-]+)\s*(.*?)\s*$/;
const GIBB_CALL = /call:([A-Za-z0-9_-]+)\{(.*)\}/;
const USER = /^\s*User:\s*(.*?)\s*$/;

/** Arguments read, or why not. */
type Read = { args: Record<string, unknown>; problem: null } | { args: null; problem: string };

const fail = (problem: string): Read => ({ args: null, problem });

/** Skilltray's JSON arguments: an object, or nothing for none. */
function jsonArgs(text: string): Read {
  if (text === '') return { args: {}, problem: null };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { args: value as Record<string, unknown>, problem: null };
    return fail('the arguments are not a JSON object');
  } catch (error) {
    return fail(`the arguments are not JSON (${(error as Error).message})`);
  }
}

/** A bare FunctionGemma value: a number or a boolean as such, anything else as text. */
function bareValue(text: string): unknown {
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

/** FunctionGemma's `key:<escape>text<escape>,key:value` arguments. */
function gibbArgs(text: string): Read {
  const args: Record<string, unknown> = {};
  let rest = text.trim();
  while (rest !== '') {
    const key = /^([A-Za-z_][A-Za-z0-9_]*):/.exec(rest);
    if (key === null) return fail(`cannot read the arguments at '${rest.slice(0, 20)}'`);
    rest = rest.slice(key[0].length);
    let value: unknown;
    if (rest.startsWith('<escape>')) {
      const end = rest.indexOf('<escape>', '<escape>'.length);
      if (end === -1) return fail(`the value of '${key[1]}' has no closing <escape>`);
      value = rest.slice('<escape>'.length, end);
      rest = rest.slice(end + '<escape>'.length);
    } else {
      const comma = rest.indexOf(',');
      value = bareValue((comma === -1 ? rest : rest.slice(0, comma)).trim());
      rest = comma === -1 ? '' : rest.slice(comma);
    }
    args[key[1] as string] = value;
    rest = rest.replace(/^\s*,\s*/, '');
  }
  return { args, problem: null };
}

/** Every example call in a tool's Examples section (raw Markdown), in order. */
export function toolExamples(examples: string | null): ToolExample[] {
  if (examples === null) return [];
  const found: ToolExample[] = [];
  let user: string | null = null;
  for (const line of examples.split('\n')) {
    const said = USER.exec(line);
    if (said !== null) {
      user = said[1] ?? '';
      continue;
    }
    const ours = SKILLTRAY_CALL.exec(line);
    const gibb = ours === null ? GIBB_CALL.exec(line) : null;
    const call = ours ?? gibb;
    if (call === null) continue;
    found.push({
      n: found.length + 1,
      user,
      tool: call[1] as string,
      ...(ours !== null ? jsonArgs(call[2] ?? '') : gibbArgs(call[2] ?? '')),
      text: line.trim(),
    });
    user = null;
  }
  return found;
}

/** One example as a line of a list: `2. {"count":5} (User: what changed lately?)`. */
export function exampleLine(example: ToolExample): string {
  const args = example.args === null ? example.text : JSON.stringify(example.args);
  return `${example.n}. ${args}${example.user === null ? '' : ` (User: ${example.user})`}`;
}

/** The arguments of example `n` of `tool`: E520 when it has no such example (listing those it has), E521 when that one cannot be run. */
export function exampleArguments(tool: Pick<Tool, 'name' | 'examples'>, n: number): Record<string, unknown> {
  const examples = toolExamples(tool.examples);
  const example = examples.find((e) => e.n === n);
  if (example === undefined) throw templateErrors.exampleNotFound(tool.name, n, examples.map(exampleLine));
  if (example.args === null) throw templateErrors.exampleInvalid(tool.name, n, example.problem ?? 'its arguments cannot be read');
  if (example.tool !== tool.name) throw templateErrors.exampleInvalid(tool.name, n, `it calls the tool '${example.tool}'`);
  return example.args;
}
