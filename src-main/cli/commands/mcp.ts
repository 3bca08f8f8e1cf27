/**
 * `skilltray mcp`: the MCP server an assistant starts over stdio. stdout carries the protocol and
 * nothing else; diagnostics go to stderr. It runs until the client closes stdin or a signal stops it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Command } from '../command.js';

/** Resolves when the client goes away (stdin ends, the transport closes) or SIGINT/SIGTERM arrives. */
function untilDisconnected(server: McpServer): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.stdin.off('end', done);
      process.stdout.off('error', done);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.stdin.once('end', done);
    // A client that exits leaves stdout broken (EPIPE): nobody is listening any more.
    process.stdout.once('error', done);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    server.server.onclose = done;
  });
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the skills to an assistant over MCP (stdio): tools list, discover, run, attach, … and skill resources',
  positionals: [],
  options: {},
  examples: [
    ['mcp', "what an assistant starts: e.g. Claude Code's `claude mcp add skilltray -- skilltray mcp`"],
  ],
  async run(ctx) {
    // Loaded here rather than with the command list: the MCP SDK would add its load time to every other command.
    const [{ StdioServerTransport }, { createMcpServer }, { localExecutor, routedExecutor }, { SkilltrayCore }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../../server/mcp.js'),
      import('../../server/mcp-executor.js'),
      import('../../core/api.js'),
    ]);
    // A long-running reader like `serve`: indexes are built on demand and the roots are watched,
    // so a session that lasts all day sees skills added or edited meanwhile.
    const core = new SkilltrayCore(ctx.config(), { autoBuild: true });
    try {
      await core.registry.watch();
      const server = createMcpServer({
        version: ctx.version,
        call: routedExecutor({
          home: core.config.home,
          local: localExecutor(core, { cwd: ctx.cwd, version: ctx.version, onWarning: (warning) => ctx.io.err(`${warning}\n`) }),
          onRoute: (owner) =>
            ctx.io.err(owner === null ? 'no Skilltray app or serve is running: calls run here, and a run that needs approval fails (E601)\n' : `forwarding calls to ${owner.owner === 'app' ? 'the Skilltray app' : 'skilltray serve'} at ${owner.url}\n`),
        }),
      });
      core.on('event', (event) => {
        if (event.type === 'skills.changed') {
          server.sendResourceListChanged();
          server.sendPromptListChanged();
        }
      });
      const disconnected = untilDisconnected(server);
      await server.connect(new StdioServerTransport());
      ctx.io.err(`skilltray mcp ${ctx.version}: serving ${core.config.home} on stdio\n`);
      await disconnected;
      await server.close();
    } finally {
      await core.close();
    }
    return 0;
  },
};
