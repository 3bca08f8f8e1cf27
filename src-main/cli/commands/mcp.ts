/**
 * `skilltray mcp`: the MCP server an assistant starts over stdio. stdout carries the protocol and
 * nothing else; diagnostics go to stderr. It runs until the client closes stdin or a signal stops it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { shutdownSignal } from '../../server/shutdown-signals.js';
import type { Command } from '../command.js';
import { printNotices } from '../notices.js';

/** Resolves with why the session ends: the client went away (stdin ends, the transport closes) or a shutdown signal arrived. */
function untilDisconnected(server: McpServer, signalled: Promise<NodeJS.Signals>): Promise<string> {
  return new Promise((resolve) => {
    const ended = (): void => {
      process.stdin.off('end', ended);
      process.stdout.off('error', ended);
      resolve('the MCP client went away');
    };
    process.stdin.once('end', ended);
    // A client that exits leaves stdout broken (EPIPE): nobody is listening any more.
    process.stdout.once('error', ended);
    server.server.onclose = ended;
    void signalled.then((signal) => resolve(`${signal} to skilltray mcp`));
  });
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the skills to an assistant over MCP (stdio): tools list, discover, run, attach, … and skill resources',
  positionals: [],
  options: {},
  examples: [['mcp', "what an assistant starts: e.g. Claude Code's `claude mcp add skilltray -- skilltray mcp`"]],
  async run(ctx) {
    // Loaded here rather than with the command list: the MCP SDK would add its load time to every other command.
    const [{ BoundedStdioTransport }, { createMcpServer }, { localExecutor, routedExecutor }, { SkilltrayCore }] = await Promise.all([
      import('../../server/mcp-stdio.js'),
      import('../../server/mcp.js'),
      import('../../server/mcp-executor.js'),
      import('../../core/api.js'),
    ]);
    // A long-running reader like `serve`: indexes are built on demand and the roots are watched,
    // so a session that lasts all day sees skills added or edited meanwhile.
    const core = printNotices(new SkilltrayCore(ctx.config(), { autoBuild: true }), ctx.io);
    const { signalled, release } = shutdownSignal();
    try {
      core.preferences.startMaintenance();
      const server = createMcpServer({
        version: ctx.version,
        call: routedExecutor({
          home: core.config.home,
          local: localExecutor(core, { cwd: ctx.cwd, version: ctx.version, onWarning: (warning) => ctx.io.err(`${warning}\n`) }),
          onRoute: (owner) =>
            ctx.io.err(
              owner === null
                ? 'no Skilltray app or serve is running: calls run here, and a run that needs approval fails (E601)\n'
                : `forwarding calls to ${owner.owner === 'app' ? 'the Skilltray app' : 'skilltray serve'} at ${owner.url}\n`,
            ),
        }),
      });
      core.on('event', (event) => {
        if (event.type === 'skills.changed') {
          server.sendResourceListChanged();
          server.sendPromptListChanged();
        }
      });
      // stdin is read from the start, so a client that goes away (or a signal) ends even the start-up;
      // what the client sends meanwhile is answered once the roots are watched.
      const transport = new BoundedStdioTransport();
      transport.listen();
      const disconnected = untilDisconnected(server, signalled);
      const watched = core.projects.apply().then(() => core.registry.watch());
      const ready = await Promise.race([watched.then(() => true), disconnected.then(() => false)]);
      if (ready) {
        await server.connect(transport);
        ctx.io.err(`skilltray mcp ${ctx.version}: serving ${core.config.home} on stdio\n`);
      }
      const why = await disconnected;
      // The core first: its live runs stop as interrupted (the owner is going), not as cancelled by the client.
      await core.close(why);
      await server.close();
    } finally {
      await core.close();
      release();
    }
    return 0;
  },
};
