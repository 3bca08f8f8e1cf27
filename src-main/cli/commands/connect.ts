/** `skilltray connect [CLIENT]` and `disconnect CLIENT`: hooking MCP clients up to Skilltray, through the core's connect API. */
import { homedir } from 'node:os';
import {
  ASSISTANT_IDS,
  BRIDGE_TRANSPORTS,
  LAUNCH_FORMS,
  type AssistantChange,
  type AssistantStatus,
  type BridgeTransport,
  type LaunchForm,
} from '../../shared/connect.js';
import { JSON_OPTION, printJson, type CliContext, type Command } from '../command.js';
import { findRunningOwner } from '../owner-link.js';
import { table } from '../table.js';

/** A path with the home folder written as `~`, as people read it. */
function short(path: string | null, env: NodeJS.ProcessEnv): string {
  if (path === null) return '-';
  const home = env.HOME || homedir();
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

const STATE_WORDS: Record<NonNullable<AssistantStatus['state']>, string> = {
  connected: 'connected',
  outdated: 'outdated (connect again)',
  not_connected: 'not connected',
};

function worksWord(status: AssistantStatus): string {
  if (status.works === null) return '-';
  return status.works ? 'yes' : 'no';
}

function statusTable(ctx: CliContext, statuses: AssistantStatus[]): string {
  const found = statuses.filter((s) => s.foundBy !== null);
  const rows = [['CLIENT', 'NAME', 'CONFIG', 'STATE', 'WORKS']];
  for (const s of found) {
    rows.push([
      s.id,
      s.name,
      short(s.configPath, ctx.env),
      s.error
        ? `unreadable: ${s.error.code}`
        : STATE_WORDS[s.state ?? 'not_connected'] + (s.personToken ? ' (holds your token)' : '') + (s.transport === 'http' ? ' (url)' : ''),
      worksWord(s),
    ]);
  }
  let text = found.length > 0 ? `${table(rows)}\n` : 'No MCP client Skilltray connects was found on this machine.\n';
  for (const s of found) {
    if (s.error) text += `error[${s.error.code}]: ${s.error.message}\n`;
    if (s.works === false) text += `note: ${s.name}'s bridge does not answer: ${s.worksError ?? ''}\n`;
    if (s.personToken)
      text +=
        `warning: ${s.name}'s entry holds your own token, so it can act as you (answer approvals, change rules): ` +
        `'skilltray connect ${s.id}' replaces it with a token of its own; then 'skilltray token --rotate', since ${s.name} has held yours\n`;
  }
  const missing = statuses.filter((s) => s.foundBy === null).map((s) => s.name);
  if (missing.length > 0) text += `not found here: ${missing.join(', ')}\n`;
  if (found.some((s) => s.state !== 'connected')) text += "Connect one with 'skilltray connect <client>' (add --dry-run to see the change first).\n";
  return text;
}

function changeText(ctx: CliContext, change: AssistantChange): string {
  const where = short(change.path, ctx.env);
  if (!change.changed) {
    return change.action === 'connect'
      ? `${change.name} is already connected (${where}); nothing changed\n`
      : `${change.name} does not name Skilltray (${where}); nothing changed\n`;
  }
  let text = change.diff.endsWith('\n') ? change.diff : `${change.diff}\n`;
  if (change.dryRun) return `${text}(dry run: ${where} was not changed)\n`;
  text +=
    change.action === 'connect' ? `connected ${change.name} in ${where}; the bridge answered an MCP handshake\n` : `disconnected ${change.name} in ${where}\n`;
  if (change.backup !== null) text += `backup of the file as it was: ${short(change.backup, ctx.env)}\n`;
  if (change.action === 'connect') text += `restart ${change.name} (or reload its MCP servers) to use Skilltray\n`;
  return text;
}

/** The running owner's /mcp URL, or undefined (a URL entry then matches nothing, and `--transport http` is E855). */
async function ownerMcpUrl(ctx: CliContext): Promise<string | undefined> {
  const owner = await findRunningOwner(ctx.config().home);
  return owner === null ? undefined : `${owner.link.url}/mcp`;
}

const DRY_RUN = { 'dry-run': { type: 'boolean' as const, description: 'show the change as a diff and write nothing' } };

const connect: Command = {
  name: 'connect',
  summary: 'list the MCP clients found here (connected or not, working or not), or add Skilltray to one: ' + ASSISTANT_IDS.join(', '),
  synopsis: 'connect [client] [--dry-run] [--transport stdio|http] [--via app|path|node] [--json]',
  positionals: [{ name: 'client', required: false }],
  options: {
    ...DRY_RUN,
    transport: {
      type: 'string',
      value: '<transport>',
      choices: BRIDGE_TRANSPORTS,
      description: "stdio (the client starts the bridge; the default) or http (it calls the running app's /mcp URL)",
    },
    via: {
      type: 'string',
      value: '<form>',
      choices: LAUNCH_FORMS,
      description: 'what starts the bridge: app (the packaged app as Node), path (skilltray on PATH) or node (Node and this bin/skilltray.js)',
    },
    ...JSON_OPTION,
  },
  examples: [
    ['connect', 'the clients found here: config file, connected or not, and whether the bridge answers'],
    ['connect cursor --dry-run', 'the change to ~/.cursor/mcp.json, as a diff; nothing written'],
    ['connect claude-code', "add Skilltray to Claude Code's user config (checked with an MCP handshake first)"],
    ['connect codex --transport http', "point Codex at the running app's /mcp URL instead"],
  ],
  async run(ctx, args) {
    const core = await ctx.core();
    const client = args.positionals[0];
    if (client === undefined) {
      // This process does not own runs: a URL entry is current only against the owner's address.
      const mcpUrl = await ownerMcpUrl(ctx);
      const statuses = await (await core.connections()).list({ test: true, ...(mcpUrl === undefined ? {} : { mcpUrl }) });
      if (args.options.json) printJson(ctx, statuses);
      else ctx.io.out(statusTable(ctx, statuses));
      return 0;
    }
    const transport = args.options.transport as BridgeTransport | undefined;
    const mcpUrl = transport === 'http' ? await ownerMcpUrl(ctx) : undefined;
    const change = await (
      await core.connections()
    ).connect(client, {
      dryRun: Boolean(args.options['dry-run']),
      ...(transport === undefined ? {} : { transport }),
      ...(args.options.via === undefined ? {} : { via: args.options.via as LaunchForm }),
      ...(mcpUrl === undefined ? {} : { mcpUrl }),
    });
    if (args.options.json) printJson(ctx, change);
    else ctx.io.out(changeText(ctx, change));
    return 0;
  },
};

const disconnect: Command = {
  name: 'disconnect',
  summary: "remove exactly Skilltray's entry from an MCP client's config (a backup is kept beside it)",
  positionals: [{ name: 'client', required: true }],
  options: { ...DRY_RUN, ...JSON_OPTION },
  examples: [
    ['disconnect cursor --dry-run', 'the change, as a diff'],
    ['disconnect codex', 'take Skilltray out of ~/.codex/config.toml'],
  ],
  async run(ctx, args) {
    const change = await (await (await ctx.core()).connections()).disconnect(args.positionals[0] as string, { dryRun: Boolean(args.options['dry-run']) });
    if (args.options.json) printJson(ctx, change);
    else ctx.io.out(changeText(ctx, change));
    return 0;
  },
};

export const connectCommands: Command[] = [connect, disconnect];
