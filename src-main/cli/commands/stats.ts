/** `stats` (RFC-0003): what the access log says of a skill. */
import { STATS_QUERY_TYPES } from '../../shared/gateway.js';
import type { Command } from '../command.js';
import { formatStats } from '../format/stats.js';
import { FORMAT, finish, pick, str } from './read-options.js';

export const stats: Command = {
  name: 'stats',
  summary: 'how often a skill was read and searched, from its access logs',
  positionals: [{ name: 'skill', required: true, skill: true }],
  options: {
    'group-by': { type: 'string', value: '<type>', description: `${STATS_QUERY_TYPES.join('|')} (default summary)` },
    since: { type: 'string', value: '<datetime>', description: 'accesses on or after (2026-01-31, or a time such as 2026-01-31T09:00:00Z)' },
    until: { type: 'string', value: '<datetime>', description: 'accesses on or before' },
    project: { type: 'list', value: '<path>', description: 'accesses from this directory or below (repeatable)' },
    ...FORMAT,
  },
  examples: [
    ['stats git', 'how often the git skill was read, and where'],
    ['stats git --group-by sections --since 2026-01-01', 'its most read sections this year'],
  ],
  async run(ctx, args) {
    const options = pick({
      groupBy: str(args, 'group-by'),
      since: str(args, 'since'),
      until: str(args, 'until'),
      projects: args.options.project as string[] | undefined,
    });
    const result = (await ctx.library()).gateway.stats(args.positionals[0] as string, options, ctx.cwd);
    return finish(ctx, args, result, () => formatStats(result));
  },
};
