/** `sync` (RFC-0007): a project's local access logs moved to the runtime store. */
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { formatSync, syncExitStatus } from '../format/sync.js';
import { pick, str } from './read-options.js';

export const sync: Command = {
  name: 'sync',
  summary: 'merge access logs written to a project fallback (<cwd>/.skillc/logs) into the primary logs',
  positionals: [{ name: 'skill', required: false, skill: true }],
  options: {
    project: { type: 'string', value: '<path>', description: 'sync from this project instead of the current directory' },
    'dry-run': { type: 'boolean', description: 'show what would be synced' },
    ...JSON_OPTION,
  },
  examples: [
    ['sync', "merge this project's fallback logs of every skill"],
    ['sync git --dry-run', 'what would be merged for git'],
  ],
  async run(ctx, args) {
    const result = (await ctx.library()).gateway.sync({
      project: str(args, 'project') ?? ctx.cwd,
      ...pick({ skill: args.positionals[0], dryRun: args.options['dry-run'] as boolean | undefined }),
    });
    if (args.options.json) printJson(ctx, result);
    else {
      const text = formatSync(result);
      if (text.stdout) ctx.io.out(`${text.stdout}\n`);
      if (text.stderr) ctx.io.err(`${text.stderr}\n`);
    }
    return syncExitStatus(result);
  },
};
