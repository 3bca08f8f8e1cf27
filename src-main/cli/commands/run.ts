/** `run`: a tool run from the terminal, and what `run` and `attach` share (arguments, folder, report). */
import { resolve as resolvePath } from 'node:path';
import type { RunReport } from '../../shared/runs.js';
import type { SkilltrayCore } from '../../core/api.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { ParsedArgs } from '../args.js';
import { JSON_OPTION, printJson, type CliContext, type Command } from '../command.js';
import { refusedConnection } from './history.js';
import { displayText } from '../../shared/display-text.js';
import { boxLines, containment, LIMIT_HIT } from '../../shared/approval-text.js';
import { networkWords } from '../../shared/network-reach.js';
import { runHereOrThere } from '../here-or-there.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
import { argumentsFromStrings, exampleArguments } from '../../core/facade.js';

/** The named arguments from `--args JSON` and `--arg k=v`, typed by the tool's Parameters table. */
export function collectArguments(core: SkilltrayCore, skillName: string, toolName: string, args: ParsedArgs): Record<string, unknown> {
  let fromJson: Record<string, unknown> = {};
  if (typeof args.options.args === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args.options.args);
    } catch (error) {
      throw templateErrors.argsNotJson((error as Error).message);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw templateErrors.argsNotAnObject();
    fromJson = parsed as Record<string, unknown>;
  }
  const pairs = ((args.options.arg as string[] | undefined) ?? []).map((pair) => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw skillcErrors.invalidOption(`--arg expects key=value, got '${pair}'`);
    return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
  });
  if (pairs.length === 0) return fromJson;
  const tool = core.library.getSkill(skillName).tools.find((t) => t.name === toolName);
  if (!tool) return fromJson;
  const fromPairs = argumentsFromStrings(tool, pairs);
  for (const key of Object.keys(fromPairs)) {
    if (Object.hasOwn(fromJson, key)) throw templateErrors.argumentInArgsAndArg(key);
  }
  return { ...fromJson, ...fromPairs };
}

/** Where a run starts: `--cwd` resolved against the current directory, or the current directory itself. */
export function runCwd(ctx: CliContext, args: ParsedArgs): string {
  return resolvePath(ctx.cwd, typeof args.options.cwd === 'string' ? args.options.cwd : '.');
}

export function printReport(ctx: CliContext, report: RunReport): void {
  const { result } = report;
  if (result.stdout) ctx.io.out(result.stdout.endsWith('\n') ? result.stdout : `${result.stdout}\n`);
  if (result.stderr) ctx.io.err(result.stderr.endsWith('\n') ? result.stderr : `${result.stderr}\n`);
  const status = result.timedOut
    ? `timed out after ${report.command.timeoutMs / 1000} s`
    : result.cancelled
      ? 'cancelled'
      : result.signal
        ? `killed by ${result.signal}`
        : `exit ${result.exitCode}`;
  const dropped = result.droppedBytes.stdout + result.droppedBytes.stderr;
  const limit = result.limitHit === undefined || result.limitHit === null ? '' : ` · stopped at ${LIMIT_HIT[result.limitHit]}`;
  ctx.io.err(`${status}${limit} · ${Math.round(result.durationMs)} ms${dropped > 0 ? ` · ${dropped} bytes of output dropped` : ''} · run ${report.id}\n`);
  for (const denial of report.networkDenied) ctx.io.err(`network refused ${refusedConnection(denial)}\n`);
  for (const path of report.swept) ctx.io.err(`removed ${displayText(path)}: a hidden path the run made without declaring it\n`);
}

/** What to pass when a run may not start in the folder it was given (E511): another folder, or none at all. */
export function folderHint(): string {
  return 'hint: run it from the folder of the project or files it should work on, or pass --cwd <that folder>; a tool that needs no files runs in an empty folder of its own with --no-cwd';
}

/** The call's arguments: `--example N`'s, or those given with --args and --arg (never both). */
function runArguments(core: SkilltrayCore, skill: string, tool: string, args: ParsedArgs): Record<string, unknown> {
  if (typeof args.options.example !== 'number') return collectArguments(core, skill, tool, args);
  if (args.options.args !== undefined || args.options.arg !== undefined)
    throw skillcErrors.invalidOption('--example gives the arguments itself: leave out --args and --arg');
  const found = core.library.getSkill(skill).tools.find((t) => t.name === tool);
  // An unknown tool is the run's own error (E506, with did-you-mean); it needs no example.
  return found === undefined ? {} : exampleArguments(found, args.options.example);
}

export const run: Command = {
  name: 'run',
  summary: 'run a tool: render, decide, ask when needed (in the running app, a TTY prompt, or --yes), run bounded, record',
  positionals: [
    { name: 'skill', required: true, skill: true },
    { name: 'tool', required: true },
  ],
  options: {
    args: { type: 'string', value: '<json>', description: 'arguments as a JSON object' },
    arg: { type: 'list', value: '<key=value>', description: 'one argument, typed by the Parameters table (repeatable)' },
    example: { type: 'integer', value: '<n>', min: 1, description: "the arguments of the tool's own example n (its Examples section's Call lines, from 1)" },
    cwd: { type: 'string', value: '<dir>', description: 'working directory (default: the current directory)' },
    'no-cwd': {
      type: 'boolean',
      description: "run in an empty folder of its own, as an assistant's request without a folder does: for a tool that needs no files",
    },
    'dry-run': { type: 'boolean', description: 'print the rendered request and the policy decision; run nothing' },
    yes: {
      type: 'boolean',
      description:
        'approve this one call yourself when policy asks (never overrides a deny); with the app or serve running, it answers the question the owner asks, and the owner runs it',
    },
    ...JSON_OPTION,
  },
  examples: [
    ['run system disk_usage', 'run a tool; bundled read-only tools run without asking'],
    ['run git git_log --arg count=5', 'with an argument, typed by its Parameters table'],
    ['run files find_files --args \'{"pattern": "*.pdf"}\'', 'arguments as a JSON object'],
    ['run git git_status --dry-run', 'the program, argv and decision, nothing run'],
    ['run git git_log --example 1 --dry-run', "the tool's first example call, shown and not run"],
    ['run hello greet --arg name=Ada --no-cwd', 'a tool that needs no files, from any folder (your home included)'],
    ['run network ping_host --arg host=1.1.1.1 --yes', 'approve this one call yourself'],
  ],
  async run(ctx, args) {
    const [skill, tool] = args.positionals as [string, string];
    if (args.options['no-cwd'] && args.options.cwd !== undefined) throw skillcErrors.invalidOption('--cwd and --no-cwd cannot be given together');
    const cwd = args.options['no-cwd'] ? undefined : runCwd(ctx, args);
    const core = await ctx.core();
    const input = { skill, tool, args: runArguments(core, skill, tool, args), surface: 'cli' as const, ...(cwd === undefined ? {} : { cwd }) };
    if (args.options['dry-run']) {
      const dry = core.runs.dryRun(input);
      if (args.options.json) printJson(ctx, dry);
      else {
        const argv = dry.command.args.map((a, i) => `  arg ${String(i + 1).padEnd(5)} ${JSON.stringify(a)}\n`).join('');
        const sandbox = `${containment(dry.sandbox)}${dry.sandbox.contained ? ` (${dry.sandbox.mechanism ?? ''})` : `: ${dry.sandbox.why ?? ''}`}`;
        const network = dry.sandbox.network && dry.sandbox.contained ? `network   ${networkWords(dry.sandbox)}\n` : '';
        const box = boxLines(dry.sandbox, ctx.env.HOME)
          .map((line) => `          ${line}\n`)
          .join('');
        ctx.io.out(
          `program   ${dry.programPath ?? `${dry.command.program} (not found)`}\n${argv}cwd       ${dry.command.cwd}\ntimeout   ${dry.command.timeoutMs / 1000} s\nsandbox   ${sandbox}\n${network}${box}decision  ${dry.decision}${dry.error === null ? '' : ` (${dry.error.code})`}: ${dry.reason}\n`,
        );
        if (dry.error?.code === 'E511') ctx.io.out(`${folderHint()}\n`);
      }
      return 0;
    }
    const report = await runHereOrThere(ctx, args, {
      operation: 'run',
      there: (client, traceId) => client.run({ skill, tool, args: input.args, cwd, trace_id: traceId }),
      here: (approval) => core.runs.run(input, { approval }),
    });
    if (args.options.json) printJson(ctx, report);
    else printReport(ctx, report);
    return report.result.exitCode === 0 ? 0 : 1;
  },
};
