/**
 * Command-line parsing with skillc's error contract (RFC-0005): a flag the command lacks is
 * `error[E100]: invalid option: '--flag'`, a bad value E100 with a sentence naming the option, and
 * arguments that do not fit the command E101; all exit 1.
 */
import { skillcErrors } from '../shared/error-messages/skillc.js';

export type OptionType = 'string' | 'integer' | 'boolean' | 'list';

export interface OptionSpec {
  type: OptionType;
  description: string;
  /** Shown in help, e.g. `<n>`. */
  value?: string;
  short?: string;
  /** Accepted values for a string option. */
  choices?: readonly string[];
  /** Smallest accepted integer. */
  min?: number;
  /** More to say when a value is not one of the choices (e.g. which option takes it), starting with `; `. */
  hint?: (value: string) => string | undefined;
}

export interface PositionalSpec {
  name: string;
  required: boolean;
  /** Takes every remaining positional. */
  variadic?: boolean;
  /**
   * A skill's name, which may start with `-` (generated collections have folders such as
   * `-21risk-automation`): in this place, an argument that is no option of the command is the name.
   */
  skill?: boolean;
}

export type OptionValue = string | number | boolean | string[];

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, OptionValue | undefined>;
}

function setOption(out: ParsedArgs, name: string, spec: OptionSpec, raw: string): void {
  if (spec.type === 'integer') {
    if (!/^-?\d+$/.test(raw)) throw skillcErrors.invalidOption(`--${name} expects an integer, got '${raw}'`);
    const n = Number(raw);
    if (spec.min !== undefined && n < spec.min) throw skillcErrors.invalidOption(`--${name} must be at least ${spec.min}, got ${raw}`);
    out.options[name] = n;
  } else if (spec.type === 'list') {
    const list = (out.options[name] as string[] | undefined) ?? [];
    list.push(raw);
    out.options[name] = list;
  } else {
    if (spec.choices && !spec.choices.includes(raw)) {
      throw skillcErrors.invalidOption(`--${name} must be one of ${spec.choices.join(', ')}, got '${raw}'${spec.hint?.(raw) ?? ''}`);
    }
    out.options[name] = raw;
  }
}

/** What parseArgs checks a command line against. */
export interface ArgsSpec {
  name: string;
  options: Record<string, OptionSpec>;
  positionals: readonly PositionalSpec[];
}

/** Parses `argv` against a command's options and positionals. */
export function parseArgs(argv: readonly string[], { name: command, options, positionals }: ArgsSpec): ParsedArgs {
  const out: ParsedArgs = { positionals: [], options: {} };
  const byShort = new Map(Object.entries(options).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])));
  let onlyPositionals = false;
  // `-x` is a skill's name where one is expected and the command has no option `-x`; `--x` is always an option.
  const isSkillName = (arg: string): boolean =>
    positionals[out.positionals.length]?.skill === true && !arg.startsWith('--') && !(arg.length === 2 && byShort.has(arg.slice(1)));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (onlyPositionals || arg === '-' || !arg.startsWith('-') || isSkillName(arg)) {
      out.positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
    } else if (arg.length === 2) {
      name = byShort.get(arg.slice(1));
    }
    const spec = name === undefined || !Object.hasOwn(options, name) ? undefined : options[name];
    if (name === undefined || spec === undefined) throw skillcErrors.unknownOption(inline === undefined ? arg : arg.slice(0, arg.indexOf('=')));
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw skillcErrors.invalidOption(`--${name} takes no value`);
      out.options[name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      if (i + 1 >= argv.length) throw skillcErrors.invalidOption(`--${name} needs a value: --${name} ${spec.value ?? '<value>'}`);
      value = argv[++i] as string;
    }
    setOption(out, name, spec, value);
  }
  const max = positionals.some((p) => p.variadic) ? Infinity : positionals.length;
  if (out.positionals.length > max) throw skillcErrors.usage(`unexpected argument '${out.positionals[max]}'`);
  positionals.forEach((p, index) => {
    if (p.required && out.positionals[index] === undefined) throw skillcErrors.usage(`${command} needs <${p.name}>`);
  });
  return out;
}
