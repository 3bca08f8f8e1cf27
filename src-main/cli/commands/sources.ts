/**
 * `sources` (RFC-0002): a skill's files as a tree. Without a skill, or with `add-mcp`, `remove-mcp`,
 * `refresh-mcp` or `approve-mcp`, the MCP servers Skilltray takes skills from (mcp-sources.ts).
 */
import type { Command } from '../command.js';
import { formatSources } from '../format/sources.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { runMcpSources } from './mcp-sources.js';
import { FORMAT, finish, num, pick, str } from './read-options.js';

/** The MCP forms of `sources`, words of their own in the skill's place. */
const MCP_FORMS: ReadonlySet<string> = new Set(['add-mcp', 'remove-mcp', 'refresh-mcp', 'approve-mcp']);

/** The options only the MCP forms take. */
const MCP_OPTIONS = ['url', 'header', 'env', 'grants', 'yes'] as const;

export const sources: Command = {
  name: 'sources',
  summary: "list a skill's files as a tree; without a skill, the MCP servers you take skills from",
  synopsis:
    'sources <skill> [options]  |  sources [add-mcp <name> (--url <url> | -- <command…>) | remove-mcp <name> | refresh-mcp [name] | approve-mcp <source>.<skill>]',
  positionals: [
    { name: 'skill', required: false, skill: true },
    { name: 'argument', required: false, variadic: true },
  ],
  options: {
    depth: { type: 'integer', value: '<n>', description: 'expand directories n levels deep' },
    dir: { type: 'string', value: '<path>', description: 'list this subdirectory' },
    limit: { type: 'integer', value: '<n>', description: 'at most n entries (default 100)' },
    pattern: { type: 'string', value: '<glob>', description: 'only files matching the glob, e.g. *.md' },
    url: { type: 'string', value: '<url>', description: 'add-mcp: the Streamable HTTP URL of the server (https://, or http:// on this computer)' },
    header: { type: 'list', value: "'<name>: <value>'", description: 'add-mcp --url: a header sent with every request (repeat for more)' },
    env: { type: 'list', value: '<name>=<value>', description: 'add-mcp with a command: a variable the server is started with (repeat for more)' },
    grants: { type: 'boolean', description: 'approve-mcp: also honour what the skill declares (reads, writes, limits, network, allowed-tools)' },
    yes: { type: 'boolean', description: 'approve-mcp: approve the skill shown without asking' },
    ...FORMAT,
  },
  notes: [
    'add-mcp, remove-mcp, refresh-mcp and approve-mcp are words of their own here: a skill with one of those names is listed with `skilltray open <skill> SKILL.md` instead.',
    'A skill an MCP source serves is named <source>.<skill>, waits for your approval, and is asked for again when any of its files changes (docs/connect.md).',
  ],
  examples: [
    ['sources skill-authoring', "the skill's files as a tree"],
    ['sources skill-authoring --dir references --pattern "*.md"', 'only the Markdown files under references/'],
    ['sources', 'the MCP sources and the skills each serves'],
    ['sources add-mcp team -- npx -y @acme/skills-server', 'take skills from a server Skilltray starts'],
    ["sources add-mcp hub --url https://skills.example.com/mcp --header 'Authorization: Bearer …'", 'or from one at a URL'],
    ['sources approve-mcp team.refunds', 'see a served skill, and approve it as shown'],
    ['sources refresh-mcp', 'fetch again; a skill that changed waits for you again'],
  ],
  async run(ctx, args) {
    const [skill] = args.positionals;
    if (skill === undefined || MCP_FORMS.has(skill)) return runMcpSources(ctx, args);
    if (args.positionals.length > 1) throw skillcErrors.usage(`unexpected argument '${args.positionals[1] as string}'`);
    const mcpOnly = MCP_OPTIONS.find((option) => args.options[option] !== undefined);
    if (mcpOnly !== undefined) throw skillcErrors.invalidOption(`--${mcpOnly} goes with the MCP forms of sources (add-mcp, approve-mcp), not with a skill`);
    const options = pick({ depth: num(args, 'depth'), dir: str(args, 'dir'), limit: num(args, 'limit'), pattern: str(args, 'pattern') });
    const result = (await ctx.library()).gateway.sources(skill, options, ctx.cwd);
    return finish(ctx, args, result, () => formatSources(result));
  },
};
