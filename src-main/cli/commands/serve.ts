/**
 * `skilltray serve` (the loopback API as the owner of runs, without the tray app), and the commands
 * that talk to whichever owner is running: approvals, approve, deny; and `token`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gatewayErrors } from '../../shared/error-messages/gateway.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { shutdownSignal } from '../../server/shutdown-signals.js';
import type { SkilltrayClient } from '../../shared/contract.js';
import type { VerdictKind } from '../../shared/runs.js';
import { JSON_OPTION, printJson, type CliContext, type Command } from '../command.js';
import { printNotices } from '../notices.js';
import { findRunningOwner } from '../owner-link.js';
import { describePending } from '../terminal-approval.js';

/** A client of the running owner speaking as the CLI (so answers are recorded as the CLI's), or E807 saying how to start one. */
async function owner(ctx: CliContext): Promise<SkilltrayClient> {
  const home = ctx.config().home;
  const owner = await findRunningOwner(home);
  if (owner === null) {
    throw gatewayErrors.noOwner(home);
  }
  return owner.client;
}

const serve: Command = {
  name: 'serve',
  summary: 'own runs for this home and serve the loopback HTTP API (and with --web the browser UI) until SIGINT, SIGTERM or SIGHUP',
  positionals: [],
  options: {
    port: { type: 'integer', value: '<n>', min: 0, description: 'port on 127.0.0.1 (default 0: any free port; server.json says which)' },
    web: { type: 'boolean', description: 'also serve the built UI (npm run build:web) and print its address' },
  },
  examples: [
    ['serve', 'own runs for this home until Ctrl-C; server.json says where'],
    ['serve --web --port 4173', 'also the browser UI, on a fixed port'],
  ],
  async run(ctx, args) {
    const webDir = join(dirname(ctx.bundledDir), 'dist', 'web');
    if (args.options.web && !existsSync(join(webDir, 'index.html'))) {
      throw skillcErrors.invalidOption(`--web needs the built UI in ${webDir}; run npm run build:web`);
    }
    const [{ SkilltrayCore }, { startHttpServer }, { tokenPath }] = await Promise.all([
      import('../../core/api.js'),
      import('../../server/http.js'),
      import('../../core/authority.js'),
    ]);
    const core = printNotices(new SkilltrayCore(ctx.config(), { autoBuild: true }), ctx.io);
    const { signalled, release } = shutdownSignal();
    let stopping: NodeJS.Signals | null = null;
    try {
      const starting = (async () => {
        await core.startWatching();
        if (stopping !== null) return null;
        return startHttpServer({
          core,
          owner: 'serve',
          version: ctx.version,
          ...(typeof args.options.port === 'number' ? { port: args.options.port } : {}),
          ...(args.options.web ? { webDir } : {}),
        });
      })();
      // A signal during start-up stops it there: closing the core ends the watcher's first scan.
      const server = await Promise.race([starting, signalled.then(() => null)]);
      if (server === null) {
        const signal = (stopping = await signalled);
        ctx.io.err(`${signal}: stopping during start-up\n`);
        await core.close(`${signal} to skilltray serve`);
        await (await starting.catch(() => null))?.close();
        return 0;
      }
      ctx.io.out(`Skilltray API on ${server.url} (token in ${tokenPath(core.config.home)})\n`);
      if (args.options.web) ctx.io.out(`Open ${server.url}/#token=${server.token()} in your browser\n`);
      const signal = await signalled;
      ctx.io.err(`${signal}: stopping (live runs are stopped and recorded as interrupted, pending approvals withdrawn)\n`);
      await server.close();
      await core.close(`${signal} to skilltray serve`);
    } finally {
      await core.close();
      release();
    }
    return 0;
  },
};

const approvals: Command = {
  name: 'approvals',
  summary: 'runs waiting for your approval in the running app (or serve)',
  positionals: [],
  options: { ...JSON_OPTION },
  examples: [
    ['approvals', 'what is waiting, every argument on its own line'],
    ['approvals --json', 'the same as data'],
  ],
  async run(ctx, args) {
    const pending = await (await owner(ctx)).approvals({});
    if (args.options.json) {
      printJson(ctx, pending);
      return 0;
    }
    if (pending.length === 0) {
      ctx.io.out('No runs are waiting for approval.\n');
      return 0;
    }
    for (const entry of pending) {
      ctx.io.out(
        `run ${entry.id} (asked over ${entry.surface}, expires ${new Date(entry.expiresAt).toISOString()})\n${describePending(entry, ctx.env.HOME)}\n`,
      );
    }
    ctx.io.out("Answer with 'skilltray approve <run-id> [--always [--session] [--anywhere]]' or 'skilltray deny <run-id>'.\n");
    return 0;
  },
};

function answerCommand(name: 'approve' | 'deny'): Command {
  return {
    name,
    summary:
      name === 'approve'
        ? 'approve a waiting run once, or --always for this tool in its folder (--anywhere: any folder, read-only tools; --session: only while the app runs)'
        : 'deny a waiting run',
    positionals: [{ name: 'run-id', required: true }],
    options: {
      ...(name === 'approve'
        ? {
            always: {
              type: 'boolean' as const,
              description: 'always allow this tool in this folder (until revoked, or until the skill, program or sandbox profile changes)',
            },
            session: { type: 'boolean' as const, description: 'with --always: only until the app (or serve) stops' },
            anywhere: { type: 'boolean' as const, description: "with --always: in any folder, not only the run's (read-only tools only)" },
          }
        : {}),
      ...JSON_OPTION,
    },
    examples:
      name === 'approve'
        ? [
            ['approve 0197a3c2-5d1e-7c4b-9f1a-2b3c4d5e6f70', 'run it once'],
            ['approve 0197a3c2-5d1e-7c4b-9f1a-2b3c4d5e6f70 --always', 'and let this tool run unasked in this folder from now on'],
          ]
        : [['deny 0197a3c2-5d1e-7c4b-9f1a-2b3c4d5e6f70', 'refuse it; the assistant hears E603']],
    async run(ctx, args) {
      const id = args.positionals[0] as string;
      const verdict: VerdictKind = name === 'deny' ? 'deny' : args.options.always ? 'always' : 'once';
      if (args.options.session && verdict !== 'always') throw skillcErrors.invalidOption('--session goes with --always');
      if (args.options.anywhere && verdict !== 'always') throw skillcErrors.invalidOption('--anywhere goes with --always');
      const expires = args.options.session ? 'session' : 'revoke';
      const scope = args.options.anywhere ? 'anywhere' : 'folder';
      await (await owner(ctx)).answerApproval(verdict === 'always' ? { id, verdict, expires, scope } : { id, verdict });
      if (args.options.json) printJson(ctx, verdict === 'always' ? { id, verdict, expires, scope } : { id, verdict });
      else {
        const always = `always for this tool ${scope === 'anywhere' ? 'in any folder' : 'in its folder'}, ${expires === 'session' ? 'for this session' : 'until revoked'}`;
        ctx.io.out(verdict === 'deny' ? `run ${id} denied\n` : `run ${id} approved${verdict === 'always' ? ` (${always})` : ' once'}\n`);
      }
      return 0;
    },
  };
}

const token: Command = {
  name: 'token',
  summary:
    'where your own token for the HTTP API is kept (created if missing), and which assistants hold a token of their own; --rotate replaces yours at once',
  positionals: [],
  options: {
    rotate: { type: 'boolean', description: 'replace your token; the running server refuses the old one immediately (assistant tokens stay)' },
    show: { type: 'boolean', description: 'also print your token itself' },
    ...JSON_OPTION,
  },
  examples: [
    ['token', "your token file's path, and the assistants holding tokens of their own"],
    ['token --rotate', 'a new token; the old one stops working at once'],
  ],
  async run(ctx, args) {
    const { assistantsIssued, ensureToken, rotateToken, tokenPath } = await import('../../core/authority.js');
    const home = ctx.config().home;
    const value = args.options.rotate ? rotateToken(home) : ensureToken(home);
    const path = tokenPath(home);
    const assistants = assistantsIssued(home);
    if (args.options.json) printJson(ctx, { path, rotated: Boolean(args.options.rotate), ...(args.options.show ? { token: value } : {}), assistants });
    else {
      ctx.io.out(`${path}\n`);
      if (args.options.show) ctx.io.out(`${value}\n`);
      if (assistants.length > 0)
        ctx.io.out(`assistants with a token of their own: ${assistants.map((a) => a.name).join(', ')} ('skilltray disconnect <client>' withdraws one)\n`);
      if (args.options.rotate) ctx.io.err('token rotated: clients holding the old one must read it again\n');
    }
    return 0;
  },
};

export const serveCommands: Command[] = [serve, approvals, answerCommand('approve'), answerCommand('deny'), token];
