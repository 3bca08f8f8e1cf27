/** The errors of templates and arguments (E5xx, docs/errors.md): each names the tool and the argument it is about. */
import { SkilltrayError } from '../skilltray-error.js';

const named = (names: readonly string[]): string => names.join(', ');

export const templateErrors = {
  missingArgument: (tool: string, param: string) =>
    new SkilltrayError('E501', `missing required argument '${param}' for tool '${tool}'`, { details: { param, tool } }),
  unknownArgument: (tool: string, param: string, accepted: readonly string[]) =>
    new SkilltrayError(
      'E502',
      `unknown argument '${param}' for tool '${tool}'; ${accepted.length === 0 ? 'it takes no arguments' : `it takes ${named(accepted)}`}`,
      {
        details: { param, tool, accepted },
      },
    ),
  /** `got` is the value as the message shows it (shortened). */
  invalidArgumentType: (tool: string, param: string, type: string, expected: string, got: string) =>
    new SkilltrayError('E503', `argument '${param}' of tool '${tool}' must be ${expected}, got ${got}`, { details: { param, tool, expected: type } }),
  /** A leading `-` (or `/` on Windows) would start an option where the parameter does not allow one. */
  looksLikeOption: (tool: string, param: string, prefix: string) =>
    new SkilltrayError(
      'E504',
      `argument '${param}' of tool '${tool}' begins with '${prefix}' and would start an argument, where it could act as an option${prefix === '-' ? '' : ' on Windows'}; ` +
        `the parameter does not allow a leading ${prefix === '-' ? 'dash' : 'slash'}`,
      { details: { param, tool } },
    ),
  invalidEnumValue: (tool: string, param: string, allowed: readonly string[], got: string) =>
    new SkilltrayError('E505', `argument '${param}' of tool '${tool}' must be one of ${named(allowed)}; got ${got}`, {
      details: { param, tool, allowed: [...allowed] },
    }),
  toolNotFound: (skill: string, tool: string, available: readonly string[], didYouMean: readonly string[]) =>
    new SkilltrayError('E506', `tool '${tool}' not found in skill '${skill}'; ${available.length === 0 ? 'it has no tools' : `it has ${named(available)}`}`, {
      details: { skill, tool, available, did_you_mean: didYouMean.map((name) => ({ name })) },
    }),
  /** `first` is the first error's own message, which names what to fix (a declared path, a line). */
  skillHasErrors: (skill: string, tool: string, diagnostics: readonly string[], first?: string) =>
    new SkilltrayError(
      'E507',
      `skill '${skill}' has errors (${diagnostics.join(', ') || 'see its diagnostics'}) and cannot run until they are fixed${first === undefined ? '' : `: ${first}`}`,
      {
        details: { skill, tool, diagnostics },
      },
    ),
  argumentsNotAnObject: (tool: string, got: string) =>
    new SkilltrayError('E508', `arguments for tool '${tool}' must be a JSON object, got ${got}`, { details: { tool } }),
  argumentRepeated: (tool: string, param: string) =>
    new SkilltrayError('E508', `argument '${param}' for tool '${tool}' is given more than once`, { details: { param, tool } }),
  /** The CLI's `--args`, which must hold a JSON object. */
  argsNotJson: (why: string) => new SkilltrayError('E508', `--args is not valid JSON: ${why}`),
  argsNotAnObject: () => new SkilltrayError('E508', '--args must be a JSON object'),
  argumentInArgsAndArg: (param: string) => new SkilltrayError('E508', `argument '${param}' is given both in --args and --arg`, { details: { param } }),
  /** A Command that does not parse, at `offset` in its text. */
  commandUnparsable: (message: string, offset: number) => new SkilltrayError('E509', message, { details: { offset } }),
  /** A Command that parses but cannot be rendered for this tool. */
  toolTemplate: (tool: string, message: string) => new SkilltrayError('E509', `tool '${tool}': ${message}`, { details: { tool } }),
  invalidCwd: (cwd: string) => new SkilltrayError('E510', `cwd '${cwd}' is not an existing absolute directory`, { details: { cwd } }),
  /** `run --example N` where the tool's Examples section has no call N; `examples` lists those it has, one line each. */
  exampleNotFound: (tool: string, n: number, examples: readonly string[]) =>
    new SkilltrayError(
      'E520',
      examples.length === 0
        ? `tool '${tool}' has no example calls (an Examples section with Call: lines)`
        : `tool '${tool}' has no example ${n}; its examples: ${examples.join('; ')}`,
      { details: { tool, example: n, examples } },
    ),
  /** Example N exists but cannot be run as written. */
  exampleInvalid: (tool: string, n: number, why: string) =>
    new SkilltrayError('E521', `example ${n} of tool '${tool}' cannot be run: ${why}`, { details: { tool, example: n } }),
  /** `why` says what the folder is; `instead` what to pass. */
  workspaceRefused: (cwd: string, why: string, instead: string) =>
    new SkilltrayError('E511', `a tool cannot run in '${cwd}': it is ${why}; ${instead}`, { details: { cwd, why } }),
  /** A declared read or a program bind would show what no box shows; `real` is where it leads. */
  bindRefused: (kind: 'read' | 'program', declared: string, real: string, why: string) =>
    new SkilltrayError(
      'E512',
      `${kind === 'read' ? `the declared read '${declared}'` : `the program '${declared}'`}${real === declared ? '' : ` leads to '${real}', which`} is ${why}: no sandbox shows it; a skill that truly needs it must be taken out of the sandbox by the person`,
      { details: { kind, declared, real, why } },
    ),
  /** A writing run's folder cannot be held whole: every hidden entry must be seen to be kept read-only. */
  workspaceTooBig: (cwd: string, why: string) =>
    new SkilltrayError(
      'E513',
      `a tool that writes cannot run in '${cwd}': ${why}, so Skilltray cannot keep every hidden file and folder in it read-only; pass a smaller folder (the project itself, not a folder of projects)`,
      { details: { cwd, why } },
    ),
  /** Where no descriptor can be bound (Seatbelt, no sandbox): the folder's path no longer leads to the folder the decision was made on. */
  /** The sandbox a contained run was decided with cannot be built when it starts (bwrap or the relay removed or changed meanwhile). */
  sandboxGone: (why: string) =>
    new SkilltrayError('E515', `the sandbox this run was decided to run in cannot be built now, so nothing started: ${why}`, { details: { why } }),
  workspaceMoved: (cwd: string) =>
    new SkilltrayError('E514', `the run's folder '${cwd}' was moved or replaced after the decision to run in it, so nothing started; ask again`, {
      details: { cwd },
    }),
};
