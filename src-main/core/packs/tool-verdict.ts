/**
 * What a tool can do, by allow-list: its program is classified (program-kinds.ts) and, if it can
 * run code it is handed, every argv its Command can render to must match a vetted shape
 * (vetted-shapes.ts, git-shapes.ts) or the tool is flagged high. Inline code handed to an
 * interpreter (`bash -c`, `python3 -c`) is S314; any other code-running shape S317; a program the
 * scan does not know at all is S318 (medium): said, not passed in silence. A script of the pack
 * as the program is read by the scan itself, line by line, so it is judged there.
 */
import type { FindingSeverity } from '../../shared/packs.js';
import type { PlaceholderSyntax, ToolParam } from '../../shared/model.js';
import { commandOf, inlineCodeOf } from './command-words.js';
import { KIND_DOES, kindOf, programName, type ProgramKind } from './program-kinds.js';
import { argvForms, type Arg } from './tool-argv.js';
import { exactlyVetted, shapeOf } from './vetted-shapes.js';

/** A tool's finding, before it is placed in a file and line. */
export interface ToolVerdict {
  code: 'S314' | 'S317' | 'S318';
  severity?: FindingSeverity;
  message: string;
}

/** Environment variables a wrapper may set before a vetted program: locale, time zone, colour and width. */
const SAFE_ENV = /^(?:LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|CLICOLOR|CLICOLOR_FORCE|FORCE_COLOR|COLUMNS|LINES|TERM|TMPDIR|POSIXLY_CORRECT)=/;

/** Where anything may write: a script there is no file the scan can vouch for. */
const WRITABLE = /^\/(?:tmp|var\/tmp|dev\/shm)\//;

const RANK = { S318: 1, S317: 2, S314: 3 } as const;

/**
 * Options of the wrappers that add nothing of their own, and how many operands (timeout's duration) come before the
 * program. A Map: a program is the pack's text.
 */
const PLAIN_WRAPPERS: ReadonlyMap<string, { flags: string[]; values: string[]; before: number }> = new Map(
  Object.entries({
    timeout: { flags: ['--preserve-status', '--foreground', '-v', '--verbose'], values: ['-k', '-s', '--kill-after', '--signal'], before: 1 },
    nice: { flags: [], values: ['-n', '--adjustment'], before: 0 },
    ionice: { flags: ['-t'], values: ['-c', '-n', '--class', '--classdata'], before: 0 },
    stdbuf: { flags: [], values: ['-i', '-o', '-e', '--input', '--output', '--error'], before: 0 },
    nohup: { flags: [], values: [], before: 0 },
    time: { flags: [], values: [], before: 0 },
  }),
);

/** `env`'s own words: `-i` and vetted variables; the argv it runs, null when it runs nothing, or why it is not vetted. */
function unwrapEnv(args: readonly Arg[]): readonly Arg[] | string | null {
  let at = 0;
  for (; at < args.length; at++) {
    const arg = args[at] as Arg;
    if (arg.text === '-i' || arg.text === '--ignore-environment') continue;
    if (arg.text.startsWith('-') || arg.dash) return `env ${arg.text} is no option vetted here`;
    if (!arg.text.includes('=')) break;
    if (!SAFE_ENV.test(arg.text) || (arg.slot && arg.text.startsWith('TERM=')))
      return `env sets ${arg.text}, which is no variable vetted here (it can change what runs)`;
  }
  return at < args.length ? args.slice(at) : null;
}

/**
 * What a wrapper that adds nothing of its own runs (its options read first), null when it is no
 * such wrapper, or why its words are not vetted. Every other wrapper is judged as running anything.
 */
function unwrap(name: string, args: readonly Arg[]): readonly Arg[] | string | null {
  if (name === 'env') return unwrapEnv(args);
  const own = PLAIN_WRAPPERS.get(name);
  if (own === undefined) return null;
  let at = 0;
  while (at < args.length) {
    const arg = args[at] as Arg;
    if (arg.dash) return `${arg.text} may be any option (its parameter allows a leading dash)`;
    if (arg.text === '--') {
      at++;
      break;
    }
    if (!arg.text.startsWith('-')) break;
    // Their own options take numbers, signals and buffer modes: a caller's value there runs nothing.
    const value = own.values.find((v) => arg.text === v || arg.text.startsWith(v.startsWith('--') ? `${v}=` : v));
    if (own.flags.includes(arg.text)) at++;
    else if (value === undefined) return `${name} ${arg.text} is no option vetted here`;
    else at += arg.text === value ? 2 : 1;
  }
  const before = args.slice(at, at + own.before);
  if (before.some((a) => a.slot)) return `${name} takes ${before.find((a) => a.slot)?.text} from the caller, where the program may go`;
  return at + own.before < args.length ? args.slice(at + own.before) : `${name} names no program`;
}

/** The verdict on one argv (program first, literal), or null when it matches a vetted shape or runs nothing it is handed. */
export function judgeArgv(argv: readonly Arg[]): ToolVerdict | null {
  const [program, ...args] = argv;
  if (program === undefined) return null;
  if (program.slot) return { code: 'S317', message: `the caller names the program (${program.text}): anything may run` };
  const name = programName(program.text);
  const words = argv.map((a) => a.text);
  const inline = inlineCodeOf(words);
  const inner = commandOf(words)?.name ?? name;
  // python's -m names a module, not code: judged below with the other shapes (-I -m json.tool).
  if (inline !== null && !(/^(?:python|pypy|py)/.test(inner) && inline.flag.endsWith('m'))) {
    const from = argv.slice((commandOf(words)?.at ?? 0) + 1).find((a) => a.slot);
    return from === undefined
      ? { code: 'S314', message: `runs ${inner} ${inline.flag} with inline code: read it, it is the program` }
      : { code: 'S314', message: `runs ${inner} ${inline.flag} with code the caller passes (${from.text}): whatever an assistant sends is run` };
  }
  if (name === 'busybox' || name === 'toybox') return args.length === 0 ? null : judgeArgv(args);
  const kind = kindOf(name);
  if (kind === 'safe') return null;
  if (kind === 'unknown')
    return { code: 'S318', message: `runs ${name}, a program the scan does not know: check what it does with its arguments (${program.text})` };
  if (kind === 'shaped') {
    const why = shapeOf(name)?.(args) ?? null;
    return why === null ? null : { code: 'S317', message: `runs ${name}, which can run code it is handed, and matches no vetted shape: ${why}` };
  }
  if (kind === 'wrapper') {
    const inner = unwrap(name, args);
    if (typeof inner === 'string') return { code: 'S317', message: `runs ${name}, which ${KIND_DOES.wrapper}: ${inner}` };
    if (inner !== null) return inner.length === 0 ? null : judgeArgv(inner);
  }
  if (exactlyVetted(name, args)) return null;
  const script = args[0];
  if (kind === 'interpreter' && script !== undefined && !script.slot && script.text.startsWith('/') && !WRITABLE.test(script.text))
    return { code: 'S317', severity: 'medium', message: `runs ${name} on ${script.text}, a script outside the pack: the scan cannot read it` };
  return {
    code: 'S317',
    message: `runs ${name}, which ${KIND_DOES[kind as keyof typeof KIND_DOES]}, and matches no vetted shape: ${handedWhat(name, kind, args)}`,
  };
}

/** What the arguments of a code-running program hand it, in words. */
function handedWhat(name: string, kind: ProgramKind, args: readonly Arg[]): string {
  const first = args[0];
  if (/^python/.test(name) && args.some((a) => a.text === '-m') && !args.some((a) => a.text === '-I'))
    return 'without -I, python -m finds its module in the working folder first';
  if (kind === 'interpreter' && first !== undefined && !first.slot && !first.text.startsWith('-'))
    return `${first.text} is the working folder's file, not the pack's (as the program itself, scripts/x runs the pack's own)`;
  const slot = args.find((a) => a.slot);
  if (slot !== undefined) return `${slot.text} comes from the caller`;
  return first === undefined ? 'it reads its program from stdin or its own files' : `its arguments (${args.map((a) => a.text).join(' ')}) are no vetted shape`;
}

/** The verdict on a tool: the worst over every argv its Command can render to; null when every one is vetted, or the program is the pack's own script. */
export function judgeTool(command: string, syntax: PlaceholderSyntax, params: readonly ToolParam[]): ToolVerdict | null {
  const forms = argvForms(command, syntax, params);
  if (forms === null) return null;
  let worst: ToolVerdict | null = null;
  for (const argv of forms) {
    const program = argv[0];
    // A script of the pack (`scripts/x.sh`): the scan reads it as it reads every file of the pack.
    if (program !== undefined && !program.slot && /[/\\]/.test(program.text) && !/^[/\\]|^[A-Za-z]:/.test(program.text)) return null;
    const verdict = judgeArgv(argv);
    if (verdict !== null && (worst === null || RANK[verdict.code] > RANK[worst.code] || (verdict.code === worst.code && worst.severity === 'medium')))
      worst = verdict;
  }
  return worst;
}
