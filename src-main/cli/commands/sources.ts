/** `sources` (RFC-0002): a skill's files as a tree. */
import type { Command } from '../command.js';
import { formatSources } from '../format/sources.js';
import { FORMAT, finish, num, pick, str } from './read-options.js';

export const sources: Command = {
  name: 'sources',
  summary: "list a skill's files as a tree, directories first",
  positionals: [{ name: 'skill', required: true, skill: true }],
  options: {
    depth: { type: 'integer', value: '<n>', description: 'expand directories n levels deep' },
    dir: { type: 'string', value: '<path>', description: 'list this subdirectory' },
    limit: { type: 'integer', value: '<n>', description: 'at most n entries (default 100)' },
    pattern: { type: 'string', value: '<glob>', description: 'only files matching the glob, e.g. *.md' },
    ...FORMAT,
  },
  examples: [
    ['sources skill-authoring', "the skill's files as a tree"],
    ['sources skill-authoring --dir references --pattern "*.md"', 'only the Markdown files under references/'],
  ],
  async run(ctx, args) {
    const options = pick({ depth: num(args, 'depth'), dir: str(args, 'dir'), limit: num(args, 'limit'), pattern: str(args, 'pattern') });
    const result = (await ctx.library()).gateway.sources(args.positionals[0] as string, options, ctx.cwd);
    return finish(ctx, args, result, () => formatSources(result));
  },
};
