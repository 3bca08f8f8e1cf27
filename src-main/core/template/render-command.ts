/**
 * Turning a tool call into program + argv: the arguments are checked against the tool's declared
 * parameters, then each Command token is rendered on its own, so a value is always exactly one
 * argument (or part of one) and never an option unless its parameter allows a leading dash (on
 * Windows, where many programs read `/x` as a switch, a leading slash too).
 * Pure: no I/O, no process, no clock; the platform is an option that defaults to this one.
 */
import { nearestNames } from '../did-you-mean.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
import type { RenderedCommand, Skill, Tool, ToolParam } from '../../shared/model.js';
import { parseCommand, type CommandToken, type Placeholder } from './parse-command.js';
import { effectivePolicy } from '../../shared/tool-policy.js';
import { renderPackArgs } from './pack-command.js';
import type { ArgumentValue, Arguments } from './argument-values.js';

/** A short, safe rendering of a value for an error message. */
function preview(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** null, undefined and "" all mean "not given", so an assistant cannot smuggle an empty argument in. */
function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function paramsByName(tool: Tool): Map<string, ToolParam> {
  return new Map(tool.params.map((param) => [param.name, param]));
}

function unknownArgument(tool: Tool, key: string): SkilltrayError {
  return templateErrors.unknownArgument(
    tool.name,
    key,
    tool.params.map((param) => param.name),
  );
}

function wrongType(tool: Tool, param: ToolParam, expected: string, value: unknown): SkilltrayError {
  return templateErrors.invalidArgumentType(tool.name, param.name, param.type, expected, preview(value));
}

/** A numeral as text (`"3"`, `"-2.5"`): many assistants send numbers that way. */
const INTEGER_NUMERAL = /^-?\d+$/;
const NUMBER_NUMERAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A whole number, from a number or its numeral; E503 in plain words otherwise. */
function wholeNumber(tool: Tool, param: ToolParam, value: unknown): number {
  const n = typeof value === 'string' && INTEGER_NUMERAL.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw wrongType(tool, param, 'a whole number', value);
  if (!Number.isSafeInteger(n)) throw wrongType(tool, param, `a whole number of at most ${Number.MAX_SAFE_INTEGER} either way`, value);
  return n;
}

/** A number, from a number or its numeral; E503 in plain words otherwise. */
function finiteNumber(tool: Tool, param: ToolParam, value: unknown): number {
  const n = typeof value === 'string' && NUMBER_NUMERAL.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw wrongType(tool, param, 'a number', value);
  return n;
}

function checkValue(tool: Tool, param: ToolParam, value: unknown): ArgumentValue {
  switch (param.type) {
    case 'string':
      if (typeof value !== 'string') throw wrongType(tool, param, 'text', value);
      if (value.includes('\0')) throw wrongType(tool, param, 'text without NUL bytes', value);
      return value;
    case 'integer':
      return wholeNumber(tool, param, value);
    case 'number':
      return finiteNumber(tool, param, value);
    case 'boolean':
      if (typeof value !== 'boolean') throw wrongType(tool, param, 'true or false', value);
      return value;
    case 'enum': {
      // A number or boolean names a value by its text (`enum: 1, 2, 3` accepts 3 as well as "3").
      const text = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
      if (typeof text !== 'string' || !param.enumValues.includes(text)) {
        throw templateErrors.invalidEnumValue(tool.name, param.name, param.enumValues, preview(value));
      }
      return text;
    }
  }
}

/** Checks JSON arguments against the tool's parameters (E508, E502, E503/E505, E501, in that order) and returns them typed. */
export function validateArguments(tool: Tool, args: unknown): Arguments {
  if (!isPlainObject(args)) {
    throw templateErrors.argumentsNotAnObject(tool.name, preview(args));
  }
  const params = paramsByName(tool);
  for (const key of Object.keys(args)) if (!params.has(key)) throw unknownArgument(tool, key);
  const checked: [string, ArgumentValue][] = [];
  for (const param of tool.params) {
    const value = Object.hasOwn(args, param.name) ? args[param.name] : undefined;
    if (!isMissing(value)) checked.push([param.name, checkValue(tool, param, value)]);
  }
  const given = new Set(checked.map(([name]) => name));
  for (const param of tool.params) {
    if (param.required && !given.has(param.name)) {
      throw templateErrors.missingArgument(tool.name, param.name);
    }
  }
  // fromEntries defines own properties, so a parameter named __proto__ stays data.
  return Object.fromEntries(checked);
}

function fromString(tool: Tool, param: ToolParam, raw: string): ArgumentValue {
  // "" stays "" so validateArguments treats it as missing, whatever the type.
  if (raw === '') return raw;
  switch (param.type) {
    case 'integer':
      return wholeNumber(tool, param, raw);
    case 'number':
      return finiteNumber(tool, param, raw);
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw wrongType(tool, param, 'true or false', raw);
    case 'string':
    case 'enum':
      return raw;
  }
}

/** Converts CLI `--arg key=value` pairs using the declared types, then checks them like JSON arguments. */
export function argumentsFromStrings(tool: Tool, pairs: readonly (readonly [string, string])[]): Arguments {
  const params = paramsByName(tool);
  const converted: [string, ArgumentValue][] = [];
  for (const [key, raw] of pairs) {
    const param = params.get(key);
    if (param === undefined) throw unknownArgument(tool, key);
    if (converted.some(([name]) => name === key)) {
      throw templateErrors.argumentRepeated(tool.name, key);
    }
    converted.push([key, fromString(tool, param, raw)]);
  }
  return validateArguments(tool, Object.fromEntries(converted));
}

/** An option name as a fallback: `-a`, `-onlyin`, `--staged` (a letter after one or two dashes, so `-1` stays a number). */
const OPTION_NAME = /^--?[A-Za-z][A-Za-z0-9_.-]*$/;

/**
 * What a placeholder means, from its fallback and its parameter's type (docs/templates.md):
 * - `flag`: `<<key:--flag>>` on a boolean: the flag when true, nothing otherwise;
 * - `option`: `<<key:-opt>>` on any other type, standing as a whole argument: the option and the
 *   value as two arguments when given, nothing when not (gibb.eri.sh's `{{folder:-onlyin}}`);
 * - `value`: the value, else the fallback as a default, else nothing.
 */
export type PlaceholderForm = { kind: 'flag'; flag: string } | { kind: 'option'; option: string } | { kind: 'value' };

/** The form of `placeholder` for `param`; `whole` says whether it is its argument's only part. */
export function placeholderForm(placeholder: Placeholder, param: ToolParam, whole: boolean): PlaceholderForm {
  const { fallback } = placeholder;
  if (fallback === null || !fallback.startsWith('-')) return { kind: 'value' };
  if (param.type === 'boolean') return { kind: 'flag', flag: fallback };
  return whole && OPTION_NAME.test(fallback) ? { kind: 'option', option: fallback } : { kind: 'value' };
}

function templateError(tool: Tool, message: string): SkilltrayError {
  return templateErrors.toolTemplate(tool.name, message);
}

/** What begins an option where the program runs: `-` everywhere, and `/` on Windows (`dir /s`, `find /v`). */
function optionPrefixes(platform: NodeJS.Platform): readonly string[] {
  return platform === 'win32' ? ['-', '/'] : ['-'];
}

/** Refuses a value that would begin an argv element with an option prefix, where it could become an option. */
function guardValue(tool: Tool, param: ToolParam, text: string, prefixes: readonly string[]): SkilltrayError | null {
  if (param.allowDash || param.type === 'enum') return null;
  const prefix = prefixes.find((p) => text.startsWith(p));
  if (prefix === undefined) return null;
  return templateErrors.looksLikeOption(tool.name, param.name, prefix);
}

/** One rendered argv element, and whether a value the caller gave went into it (a flag chosen by a boolean is the template's text). */
interface RenderedArg {
  text: string;
  supplied: boolean;
}

/** Renders one argument token into no argv element (dropped), one, or two (an option and its value). */
function renderToken(tool: Tool, params: Map<string, ToolParam>, token: CommandToken, values: Arguments, prefixes: readonly string[]): RenderedArg[] {
  let out = '';
  let supplied = false;
  let dropped = false;
  let guard: SkilltrayError | null = null;
  const whole = token.parts.length === 1;
  for (const part of token.parts) {
    if (part.kind === 'text') {
      out += part.value;
      continue;
    }
    const { placeholder } = part;
    const param = params.get(placeholder.key);
    if (param === undefined) throw templateError(tool, `placeholder '${placeholder.raw}' names no parameter of the tool`);
    const value = Object.hasOwn(values, param.name) ? values[param.name] : undefined;
    const form = placeholderForm(placeholder, param, whole);
    if (form.kind === 'flag') {
      if (value === true) out += form.flag;
      else dropped = true;
    } else if (form.kind === 'option') {
      if (value === undefined) return [];
      const text = String(value);
      const refused = guardValue(tool, param, text, prefixes);
      if (refused !== null) throw refused;
      return [
        { text: form.option, supplied: false },
        { text, supplied: true },
      ];
    } else if (value !== undefined) {
      const text = String(value);
      if (out === '') guard ??= guardValue(tool, param, text, prefixes);
      out += text;
      supplied = true;
    } else if (placeholder.fallback !== null) {
      out += placeholder.fallback;
    } else {
      dropped = true;
    }
  }
  if (dropped) return [];
  if (guard !== null) throw guard;
  return [{ text: out, supplied }];
}

/** The program: the first token, which must be literal text. */
function programOf(tool: Tool, token: CommandToken | undefined): string {
  if (token === undefined) throw templateError(tool, 'the command is empty');
  let program = '';
  for (const part of token.parts) {
    if (part.kind === 'placeholder') throw templateError(tool, `the program must be literal, not the placeholder '${part.placeholder.raw}'`);
    program += part.value;
  }
  if (program === '') throw templateError(tool, 'the program is an empty string');
  return program;
}

/** A SKILL.md Command rendered token by token. */
function renderTemplate(tool: Tool, skill: Skill, values: Arguments, prefixes: readonly string[]): { program: string; args: string[]; supplied: number[] } {
  const [first, ...rest] = parseCommand(tool.command, skill.syntax).tokens;
  const program = programOf(tool, first);
  const params = paramsByName(tool);
  const rendered = rest.flatMap((token) => renderToken(tool, params, token, values, prefixes));
  return { program, args: rendered.map((arg) => arg.text), supplied: rendered.flatMap((arg, i) => (arg.supplied ? [i] : [])) };
}

/** Where a command is rendered: its working directory, and the platform whose option syntax the guard knows (default: this one). */
export interface RenderOptions {
  cwd: string;
  platform?: NodeJS.Platform;
}

/** Renders a tool call of `skill` into program + argv, with the skill's timeout, env names and hash. */
export function renderCommand(skill: Skill, toolName: string, args: unknown, options: RenderOptions): RenderedCommand {
  const tool = skill.tools.find((candidate) => candidate.name === toolName);
  if (tool === undefined) {
    const available = skill.tools.map((candidate) => candidate.name);
    throw templateErrors.toolNotFound(skill.name, toolName, available, nearestNames(toolName, available));
  }
  if (skill.state === 'error') {
    const errors = skill.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    throw templateErrors.skillHasErrors(
      skill.name,
      tool.name,
      errors.map((diagnostic) => diagnostic.code),
      errors[0]?.message,
    );
  }
  const values = validateArguments(tool, args);
  const prefixes = optionPrefixes(options.platform ?? process.platform);
  const {
    program,
    args: argv,
    supplied,
  } = tool.pack === undefined
    ? renderTemplate(tool, skill, values, prefixes)
    : { program: tool.pack.program, ...renderPackArgs(tool, tool.pack, values, prefixes) };
  return {
    program,
    args: argv,
    supplied,
    cwd: options.cwd,
    timeoutMs: effectivePolicy(skill, tool).timeoutSec * 1000,
    env: [...skill.requires.env],
    skill: skill.name,
    tool: tool.name,
    skillHash: skill.hash,
  };
}

/** Kode prompt skills: the body with every `$ARGUMENTS` replaced by the arguments joined with spaces. */
export function resolvePrompt(skill: Skill, args: readonly string[]): string {
  // split/join, not replace: a `$&` in an argument must stay literal.
  return skill.body.split('$ARGUMENTS').join(args.join(' '));
}
