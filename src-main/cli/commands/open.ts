/** `open` (RFC-0002): one file of a skill, as its bytes. */
import type { Command } from '../command.js';
import { formatOpen } from '../format/open.js';
import { FORMAT, MAX_LINES, finish, num, pick, wantsJson } from './read-options.js';

export const open: Command = {
  name: 'open',
  summary: 'print a file of a skill as it is (any file inside the skill root)',
  positionals: [
    { name: 'skill', required: true, skill: true },
    { name: 'path', required: true },
  ],
  options: { 'max-lines': MAX_LINES, ...FORMAT },
  examples: [
    ['open skill-authoring references/frontmatter.md', 'a file of the skill, as it is'],
    ['open git SKILL.md --max-lines 30', 'its first 30 lines'],
  ],
  async run(ctx, args) {
    const [skill, path] = args.positionals as [string, string];
    const result = (await ctx.library()).gateway.open(skill, path, pick({ maxLines: num(args, 'max-lines') }), ctx.cwd);
    if (wantsJson(args)) return finish(ctx, args, result, () => '');
    ctx.io.out(formatOpen(result));
    return 0;
  },
};
