/**
 * A tool's Command as the argv lists it can render to, before anyone calls it: literal words as
 * written, and slots where a caller's value goes. A boolean flag placeholder is its flag or nothing,
 * an enum each of its values, an optional argument there or dropped; a caller's value never begins
 * with `-` unless its parameter allows a dash (the template's argument-injection guard), and that
 * is what a slot records. Options are then read against an allow-list of the ones vetted.
 */
import type { PlaceholderSyntax, ToolParam } from '../../shared/model.js';
import { parseCommand, type CommandToken } from '../template/parse-command.js';

/** One argv element: literal text, or text holding a caller's value (`text` shows the placeholder as written). */
export interface Arg {
  text: string;
  /** A caller's value is part of it. */
  slot: boolean;
  /** It may begin with `-`: a caller's value starts it and its parameter allows a dash. */
  dash: boolean;
}

/** Most argv lists a Command is expanded to; past it, enums stand as slots instead. */
const MAX_VARIANTS = 256;

const OPTION_NAME = /^--?[A-Za-z][A-Za-z0-9_.-]*$/;

/** What one placeholder can render to: text, a caller's value, or nothing (its whole argument dropped). */
type Choice = { kind: 'text'; text: string } | { kind: 'value'; dash: boolean } | { kind: 'drop' } | { kind: 'option'; option: string; dash: boolean };

function choicesOf(raw: { fallback: string | null }, param: ToolParam | undefined, whole: boolean, enums: boolean): Choice[] {
  const { fallback } = raw;
  const dash = param?.allowDash ?? false;
  if (param?.type === 'boolean' && fallback?.startsWith('-') === true) return [{ kind: 'text', text: fallback }, { kind: 'drop' }];
  if (whole && fallback !== null && fallback.startsWith('-') && OPTION_NAME.test(fallback))
    return [{ kind: 'option', option: fallback, dash }, { kind: 'drop' }];
  const given: Choice[] =
    param?.type === 'enum'
      ? enums
        ? param.enumValues.map((text) => ({ kind: 'text', text }))
        : [{ kind: 'value', dash: param.enumValues.some((v) => v.startsWith('-')) }]
      : param?.type === 'boolean'
        ? [
            { kind: 'text', text: 'true' },
            { kind: 'text', text: 'false' },
          ]
        : [{ kind: 'value', dash }];
  const missing: Choice[] = fallback !== null ? [{ kind: 'text', text: fallback }] : param?.required === true ? [] : [{ kind: 'drop' }];
  return [...given, ...missing];
}

/** The argument lists one token renders to (each zero, one or two args). */
function tokenForms(token: CommandToken, params: ReadonlyMap<string, ToolParam>, enums: boolean): Arg[][] {
  const whole = token.parts.length === 1;
  let forms: { args: Arg[] | null; text: string; slot: boolean; dash: boolean; option: string | null }[] = [
    { args: null, text: '', slot: false, dash: false, option: null },
  ];
  for (const part of token.parts) {
    const next: typeof forms = [];
    for (const form of forms) {
      if (part.kind === 'text') {
        next.push({ ...form, text: form.text + part.value });
        continue;
      }
      const placeholder = part.placeholder;
      for (const choice of choicesOf(placeholder, params.get(placeholder.key), whole, enums)) {
        if (choice.kind === 'drop') next.push({ ...form, args: [] });
        else if (choice.kind === 'text') next.push({ ...form, text: form.text + choice.text });
        else if (choice.kind === 'option') next.push({ ...form, option: choice.option, text: placeholder.raw, slot: true, dash: choice.dash });
        else next.push({ ...form, text: form.text + placeholder.raw, slot: true, dash: form.dash || (form.text === '' && choice.dash) });
      }
    }
    forms = next;
  }
  return forms.map((form) => {
    if (form.args !== null) return form.args;
    const arg = { text: form.text, slot: form.slot, dash: form.dash };
    return form.option === null ? [arg] : [{ text: form.option, slot: false, dash: false }, arg];
  });
}

/** Every argv a Command can render to (program first), or null when it does not parse (the loader says why). */
export function argvForms(command: string, syntax: PlaceholderSyntax, params: readonly ToolParam[]): Arg[][] | null {
  let tokens: CommandToken[];
  try {
    tokens = parseCommand(command, syntax).tokens;
  } catch {
    return null;
  }
  const byName = new Map(params.map((p) => [p.name, p]));
  for (const enums of [true, false]) {
    let lists: Arg[][] = [[]];
    for (const token of tokens) {
      const forms = tokenForms(token, byName, enums);
      lists = lists.flatMap((list) => forms.map((form) => [...list, ...form]));
      if (lists.length > MAX_VARIANTS) break;
    }
    if (lists.length <= MAX_VARIANTS) return lists;
  }
  // Even with enums as slots there are too many (dozens of optional flags): one list, each token with a placeholder standing as any word.
  return [
    tokens.map((t) => {
      const text = t.parts.map((p) => (p.kind === 'text' ? p.value : p.placeholder.raw)).join('');
      const slot = t.parts.some((p) => p.kind === 'placeholder');
      return { text, slot, dash: slot };
    }),
  ];
}

/** The options a program accepts in a vetted shape: those taking no value, and those taking one (with what that value may be). */
export interface OptionSpec {
  flags: readonly string[];
  values: readonly string[];
  /** Whether a value of this option may come from a caller (default yes); `code` options never. */
  literalOnly?: readonly string[];
  /** Single-dash long names (`-maxdepth`, `-name`) rather than clusters of letters. */
  longSingleDash?: boolean;
}

/** Options read from an argv against a spec: what each was given, in order, and the operands. */
export interface ReadOptions {
  seen: { name: string; value: Arg | null }[];
  operands: Arg[];
}

/** Why `args` are not within `spec` (an option not vetted, a slot that could be any option, a caller's value in a code position), or what they hold. */
export function readOptions(args: readonly Arg[], spec: OptionSpec): ReadOptions | string {
  const out: ReadOptions = { seen: [], operands: [] };
  const valueOf = (name: string, value: Arg | undefined): string | null => {
    // A value left out (an optional argument dropped) makes the program refuse its arguments: nothing runs.
    if (value === undefined) return null;
    if (value.slot && spec.literalOnly?.includes(name)) return `${name} ${value.text} takes its value from the caller`;
    out.seen.push({ name, value });
    return null;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    if (arg.dash) return `${arg.text} may be any option (its parameter allows a leading dash)`;
    if (!arg.text.startsWith('-') || arg.text === '-') {
      out.operands.push(arg);
      continue;
    }
    if (arg.text === '--') {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    const eq = arg.text.indexOf('=');
    const name = eq === -1 ? arg.text : arg.text.slice(0, eq);
    if (arg.text.startsWith('--') || spec.longSingleDash === true || spec.flags.includes(arg.text) || spec.values.includes(name)) {
      if (spec.flags.includes(arg.text)) out.seen.push({ name: arg.text, value: null });
      else if (spec.values.includes(name)) {
        const why = valueOf(name, eq === -1 ? args[++i] : { ...arg, text: arg.text.slice(eq + 1) });
        if (why !== null) return why;
      } else return `${arg.text} is no option vetted here`;
      continue;
    }
    // A cluster of short letters: `-xzf archive`, `-n5`.
    for (let k = 1; k < arg.text.length; k++) {
      const letter = `-${arg.text[k]}`;
      if (spec.flags.includes(letter)) out.seen.push({ name: letter, value: null });
      else if (spec.values.includes(letter)) {
        const rest = arg.text.slice(k + 1);
        const why = valueOf(letter, rest === '' ? args[++i] : { ...arg, text: rest });
        if (why !== null) return why;
        break;
      } else return `${letter} (in ${arg.text}) is no option vetted here`;
    }
  }
  return out;
}
