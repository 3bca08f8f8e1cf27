/**
 * `skilltray`: the command line over the core API. Errors print as RFC-0005 says
 * (`error[E020]: …` on stderr, exit 1); with `--json` the error also goes to stdout as data.
 * Only light modules load here: `--version`, `--help` and `roots` never load the core.
 */
import type { SkilltrayCore } from '../core/api.js';
import type { SkillLibrary } from '../core/library.js';
import { resolveConfig, type CoreConfig } from '../core/config.js';
import { toSkilltrayError, type SkilltrayError } from '../shared/skilltray-error.js';
import { skillcErrors } from '../shared/error-messages/skillc.js';
import { nearestNames, TreeChecks } from '../core/facade.js';
import { withDidYouMean } from '../shared/did-you-mean.js';
import { displayLines } from '../shared/display-text.js';
import { parseArgs } from './args.js';
import type { IndexingWork } from '../core/api.js';
import { indexingNote } from './search-text.js';
import { printNotices } from './notices.js';
import type { CliContext, CliIo, Command } from './command.js';
import { agentCommands } from './commands/agent.js';
import { connectCommands } from './commands/connect.js';
import { projectCommands } from './commands/projects.js';
import { gatewayCommands } from './commands/gateway.js';
import { mcpCommand } from './commands/mcp.js';
import { limitsCommand } from './commands/limits.js';
import { retentionCommand } from './commands/retention.js';
import { runCommands } from './commands/runs.js';
import { folderHint } from './commands/run.js';
import { serveCommands } from './commands/serve.js';
import { skillCommands } from './commands/skills.js';
import { newCommand } from './commands/new.js';
import { doctorCommand } from './commands/doctor.js';
import { completionCommand } from './commands/completion.js';
import { packCommands } from './commands/packs.js';
import { voiceCommand } from './commands/voice.js';
import { commandHelp, overview, usageLine } from './help.js';
import { formatSectionNotFound } from '../shared/section-text.js';

export const commands: Command[] = [
  ...skillCommands,
  newCommand,
  ...packCommands,
  ...runCommands,
  retentionCommand,
  limitsCommand,
  ...agentCommands,
  ...gatewayCommands,
  ...serveCommands,
  mcpCommand,
  ...connectCommands,
  ...projectCommands,
  voiceCommand,
  doctorCommand,
  completionCommand(() => commands),
];

function unknownCommand(name: string): SkilltrayError {
  return skillcErrors.usage(`unknown command '${name}'`, {
    command: name,
    did_you_mean: nearestNames(
      name,
      commands.map((c) => c.name),
    ).map((n) => ({ name: n })),
  });
}

/**
 * Prints an error as RFC-0005 says, with what helps: suggestions for E020 and for a name it does not know, the usage line for a command line that does not fit.
 */
async function printError(ctx: CliContext, error: SkilltrayError, command: Command | undefined, name: string): Promise<void> {
  // E020's suggestions are lines of their own; any other error is one line, whatever its message holds.
  const lines = error.code === 'E020' ? formatSectionNotFound(error).split('\n') : [withDidYouMean(error.format(), error.details)];
  ctx.io.err(displayLines(lines));
  // A bad environment variable is no fault of the command line: its usage would point at the wrong place.
  const ofCommandLine = error.details?.variable === undefined;
  if ((error.code === 'E100' || error.code === 'E101') && command && ofCommandLine)
    ctx.io.err(`usage: ${usageLine(command)}\nsee 'skilltray ${command.name} --help' for its options and examples\n`);
  else if (error.code === 'E101') ctx.io.err("see 'skilltray --help' for the commands\n");
  // At a terminal the person can approve the call themselves; only the CLI can say so.
  if (error.code === 'E601' && (name === 'run' || name === 'attach')) ctx.io.err('hint: approve this one call yourself with --yes\n');
  if (error.code === 'E511' && name === 'run') ctx.io.err(`${folderHint()}\n`);
}

/** Runs one command line and returns its exit status. */
export async function runCli(argv: readonly string[], base: Omit<CliContext, 'core' | 'library' | 'config'> & { config?: () => CoreConfig }): Promise<number> {
  let config: CoreConfig | undefined;
  let core: SkilltrayCore | undefined;
  let library: SkillLibrary | undefined;
  // A read that has to index a lot first says so, so a long pause has a reason.
  const onIndexing = (work: IndexingWork): void => {
    const note = indexingNote(work);
    if (note !== null) base.io.err(`${note}\n`);
  };
  const ctx: CliContext = {
    ...base,
    config: () => {
      config ??=
        base.config?.() ??
        resolveConfig({ env: base.env, bundledDir: base.bundledDir, ...(base.bundledManifest === undefined ? {} : { bundledManifest: base.bundledManifest }) });
      return config;
    },
    core: async () => {
      if (core === undefined) {
        const { SkilltrayCore } = await import('../core/api.js');
        // A one-shot command skips the page-by-page check at open; a damaged page still shows as SQLITE_CORRUPT.
        core ??= printNotices(new SkilltrayCore(ctx.config(), { checkStateDb: false, onIndexing }), base.io);
      }
      return core;
    },
    library: async (options = {}) => {
      if (core !== undefined) return core.library;
      if (library === undefined) {
        // Started first: its helper thread takes ~20 ms to start, which then pass while the library loads.
        const treeChecks = options.about === undefined ? undefined : TreeChecks.forSkill(ctx.config().home, options.about, ctx.config().threads);
        const { SkillLibrary } = await import('../core/library.js');
        library ??= new SkillLibrary(ctx.config(), { strict: options.strict ?? false, onIndexing, ...(treeChecks === undefined ? {} : { treeChecks }) });
      }
      return library;
    },
  };
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    ctx.io.out(`skilltray ${ctx.version}\n`);
    return 0;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const command = commands.find((c) => c.name === rest[0]);
    ctx.io.out(name === 'help' && command ? commandHelp(command) : overview(commands));
    return name === undefined ? 1 : 0;
  }
  const command = commands.find((c) => c.name === name);
  const formatAt = rest.indexOf('--format');
  const wantsJson = rest.includes('--json') || rest.includes('--format=json') || (formatAt !== -1 && rest[formatAt + 1] === 'json');
  try {
    if (!command) throw unknownCommand(name);
    const dashDash = rest.indexOf('--');
    if (['--help', '-h'].some((flag) => rest.slice(0, dashDash === -1 ? undefined : dashDash).includes(flag))) {
      ctx.io.out(commandHelp(command));
      return 0;
    }
    return await command.run(ctx, parseArgs(rest, command));
  } catch (thrown) {
    // A damaged state.db is recovered here and reported as E901 (the notice itself is printed above).
    const error = core === undefined ? toSkilltrayError(thrown) : core.failure(thrown);
    await printError(ctx, error, command, name);
    if (wantsJson) ctx.io.out(`${JSON.stringify({ error: error.toJSON() }, null, 2)}\n`);
    return 1;
  } finally {
    await core?.close();
    await library?.close();
  }
}

/**
 * Writes to a standard stream until its reader goes away (`skilltray list | head -1`): from then on
 * output is dropped instead of failing with EPIPE, so the command ends as if it had been read.
 */
function closableWriter(stream: () => NodeJS.WriteStream): (text: string | Uint8Array) => void {
  let closed = false;
  let opened: NodeJS.WriteStream | null = null;
  return (text) => {
    if (opened === null) {
      // Opened on first write: making process.stderr a stream (a socket when it is a pipe) cost 2 ms of every command that never wrote to it.
      opened = stream();
      opened.on('error', () => {
        closed = true;
      });
    }
    if (!closed && !opened.destroyed) opened.write(text);
  };
}

/** The terminal's streams as CLI I/O. */
export function processIo(): CliIo {
  return {
    out: closableWriter(() => process.stdout),
    err: closableWriter(() => process.stderr),
    // Asked when a command would prompt: touching process.stdin opens it as a stream, 3–4 ms of every command that never reads it.
    get interactive() {
      return Boolean(process.stdin.isTTY && process.stdout.isTTY);
    },
    stdoutIsTty: Boolean(process.stdout.isTTY),
    // Asked of the descriptor (what the stream's isTTY says) so that asking does not open stderr.
    get stderrIsTty() {
      return process.getBuiltinModule('node:tty').isatty(2);
    },
    ask: async (question) => {
      // Taken when asked, not imported: a chunk holding a dynamic import keeps no code cache (code-cache.ts).
      const { createInterface } = process.getBuiltinModule('node:readline/promises');
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}
