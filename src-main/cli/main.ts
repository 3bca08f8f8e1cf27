/**
 * `skilltray`: the command line over the core API. Errors print as RFC-0005 says
 * (`error[E020]: …` on stderr, exit 1); with `--json` the error also goes to stdout as data.
 */
import { createInterface } from 'node:readline/promises';
import { SkilltrayCore } from '../core/api.js';
import { resolveConfig, type CoreConfig } from '../core/config.js';
import { skillcErrors, toSkilltrayError } from '../core/errors.js';
import { formatSectionNotFound } from '../core/gateway/show.js';
import { parseArgs } from './args.js';
import { printNotices } from './notices.js';
import type { CliContext, CliIo, Command } from './command.js';
import { agentCommands } from './commands/agent.js';
import { gatewayCommands } from './commands/gateway.js';
import { mcpCommand } from './commands/mcp.js';
import { retentionCommand } from './commands/retention.js';
import { runCommands } from './commands/runs.js';
import { serveCommands } from './commands/serve.js';
import { skillCommands } from './commands/skills.js';

export const commands: Command[] = [...skillCommands, ...runCommands, retentionCommand, ...agentCommands, ...gatewayCommands, ...serveCommands, mcpCommand];

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `Usage: skilltray <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'skilltray <command> --help' for a command's options.\n`;
}

function commandHelp(command: Command): string {
  const positionals = command.positionals.map((p) => (p.required ? `<${p.name}>` : `[${p.name}${p.variadic ? '…' : ''}]`));
  const options = Object.entries(command.options).map(([name, o]) => {
    const flag = `--${name}${o.type === 'boolean' ? '' : ` ${o.value ?? '<value>'}`}`;
    return `  ${flag.padEnd(24)} ${o.description}`;
  });
  return `Usage: skilltray ${[command.name, ...positionals, '[options]'].join(' ')}\n\n${command.summary}\n${options.length ? `\nOptions:\n${options.join('\n')}\n` : ''}`;
}

/** Runs one command line and returns its exit status. */
export async function runCli(
  argv: readonly string[],
  base: Omit<CliContext, 'core' | 'config'> & { config?: () => CoreConfig },
): Promise<number> {
  let config: CoreConfig | undefined;
  let core: SkilltrayCore | undefined;
  const ctx: CliContext = {
    ...base,
    config: () => {
      config ??= base.config?.() ?? resolveConfig({ env: base.env, bundledDir: base.bundledDir });
      return config;
    },
    core: () => {
      // A one-shot command skips the page-by-page check at open; a damaged page still shows as SQLITE_CORRUPT.
      core ??= printNotices(new SkilltrayCore(ctx.config(), { checkStateDb: false }), base.io);
      return core;
    },
  };
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    ctx.io.out(`skilltray ${ctx.version}\n`);
    return 0;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    ctx.io.out(usage());
    return name === undefined ? 1 : 0;
  }
  const command = commands.find((c) => c.name === name);
  const formatAt = rest.indexOf('--format');
  const wantsJson = rest.includes('--json') || rest.includes('--format=json') || (formatAt !== -1 && rest[formatAt + 1] === 'json');
  try {
    if (!command) throw skillcErrors.invalidOption(`unknown command ${name}; run skilltray help`);
    if (rest.includes('--help') || rest.includes('-h')) {
      ctx.io.out(commandHelp(command));
      return 0;
    }
    return await command.run(ctx, parseArgs(rest, command.options, command.positionals));
  } catch (thrown) {
    // A damaged state.db is recovered here and reported as E901 (the notice itself is printed above).
    const error = core === undefined ? toSkilltrayError(thrown) : core.failure(thrown);
    ctx.io.err(`${error.code === 'E020' ? formatSectionNotFound(error) : error.format()}\n`);
    // At a terminal the person can approve the call themselves; only the CLI can say so.
    if (error.code === 'E601' && (name === 'run' || name === 'attach')) ctx.io.err('hint: approve this one call yourself with --yes\n');
    if (wantsJson) ctx.io.out(`${JSON.stringify({ error: error.toJSON() }, null, 2)}\n`);
    return 1;
  } finally {
    await core?.close();
  }
}

/** The terminal's streams as CLI I/O. */
export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    ask: async (question) => {
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}
