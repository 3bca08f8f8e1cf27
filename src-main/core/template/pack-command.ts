/**
 * A gibb.eri.sh tool pack's command rendered as gibb renders it (its `ToolPackTool::build_command`):
 * each argument of the JSON `args` is a template of its own, every `{{key}}` or `{{key:default}}` in
 * it replaced (the value; else the inline default; else the parameter's `default`; else nothing),
 * and an argument that comes out empty is dropped. Two things differ, on purpose (docs/templates.md):
 * a value the caller gave never starts an argument with `-` (on Windows `/`) unless its parameter
 * allows it (E504, the same guard as `<<…>>`), and `{{flag:--x}}` standing alone on a boolean is
 * the flag (`--x` when true, nothing otherwise), as gibb's SKILL.md interpolation reads it, where
 * its tool-pack path would pass the word `true`, or `--x` when no value was given.
 * Pure: no I/O; arguments are checked by validateArguments first.
 */
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
import type { Tool, ToolParam } from '../../shared/model.js';
import type { ArgumentValue, Arguments } from './argument-values.js';

/**
 * gibb's placeholder, `\{\{(\w+)(?::([^}]*))?\}\}` in Rust's regex crate, whose `\w` is Unicode's
 * word characters: letters, marks, decimal digits, connector punctuation and the joiners.
 */
export const PACK_PLACEHOLDER = /\{\{([\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]+)(?::([^}]*))?\}\}/gu;

/** One `{{…}}` of an argument template. */
export interface PackPlaceholder {
  key: string;
  /** The inline default after `:` (may be empty), or null without one. */
  fallback: string | null;
  start: number;
  end: number;
}

/** The placeholders of one argument template, in order. */
export function packPlaceholders(template: string): PackPlaceholder[] {
  const found: PackPlaceholder[] = [];
  for (const match of template.matchAll(PACK_PLACEHOLDER)) {
    const start = match.index;
    found.push({ key: match[1] as string, fallback: match[2] ?? null, start, end: start + match[0].length });
  }
  return found;
}

/** Whether an argument template is the flag form: one placeholder alone, of a boolean, whose fallback begins with `-`. */
export function isFlagForm(template: string, params: ReadonlyMap<string, ToolParam>): PackPlaceholder | null {
  const found = packPlaceholders(template);
  const only = found[0];
  if (found.length !== 1 || only === undefined || only.start !== 0 || only.end !== template.length) return null;
  return params.get(only.key)?.type === 'boolean' && only.fallback?.startsWith('-') === true ? only : null;
}

/** A value as gibb writes it into an argument: a string as it is, a number or boolean as its text. */
function valueText(value: ArgumentValue): string {
  return typeof value === 'string' ? value : String(value);
}

/** Refuses a value that would start an argument with an option prefix its parameter does not allow. */
function guard(tool: Tool, param: ToolParam | undefined, text: string, prefixes: readonly string[]): SkilltrayError | null {
  if (param === undefined || param.allowDash || param.type === 'enum') return null;
  const prefix = prefixes.find((p) => text.startsWith(p));
  return prefix === undefined ? null : templateErrors.looksLikeOption(tool.name, param.name, prefix);
}

/** One rendered argument (null: dropped), and whether a value the caller gave went into it. */
function renderArg(
  tool: Tool,
  template: string,
  params: ReadonlyMap<string, ToolParam>,
  values: Arguments,
  prefixes: readonly string[],
): { text: string; supplied: boolean } | null {
  const flag = isFlagForm(template, params);
  if (flag !== null) {
    const given = Object.hasOwn(values, flag.key) ? values[flag.key] : undefined;
    const value = given ?? params.get(flag.key)?.default ?? undefined;
    return value === true || value === 'true' ? { text: flag.fallback as string, supplied: false } : null;
  }
  let out = '';
  let supplied = false;
  let at = 0;
  for (const placeholder of packPlaceholders(template)) {
    out += template.slice(at, placeholder.start);
    at = placeholder.end;
    const param = params.get(placeholder.key);
    const given = Object.hasOwn(values, placeholder.key) ? values[placeholder.key] : undefined;
    if (given !== undefined) {
      const text = valueText(given);
      if (out === '') {
        const refused = guard(tool, param, text, prefixes);
        if (refused !== null) throw refused;
      }
      out += text;
      supplied ||= text !== '';
    } else {
      out += placeholder.fallback ?? param?.default ?? '';
    }
  }
  out += template.slice(at);
  return out === '' ? null : { text: out, supplied };
}

/** Renders a tool pack's arguments with checked `values`; `prefixes` begin an option where the program runs. */
export function renderPackArgs(
  tool: Tool,
  pack: { args: readonly string[] },
  values: Arguments,
  prefixes: readonly string[],
): { args: string[]; supplied: number[] } {
  const params = new Map(tool.params.map((param) => [param.name, param]));
  const args: string[] = [];
  const supplied: number[] = [];
  for (const template of pack.args) {
    const rendered = renderArg(tool, template, params, values, prefixes);
    if (rendered === null) continue;
    if (rendered.supplied) supplied.push(args.length);
    args.push(rendered.text);
  }
  return { args, supplied };
}
