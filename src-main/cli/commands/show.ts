/** `show` (RFC-0002): one section of a skill. */
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { Command } from '../command.js';
import { formatShow } from '../format/show.js';
import { FORMAT, MAX_LINES, STRICT, finish, num, pick, str, strictRead } from './read-options.js';

export const show: Command = {
  name: 'show',
  summary: 'print one section of a skill, found by its heading (case-insensitive)',
  synopsis: 'show <skill> <section> [options]',
  positionals: [
    { name: 'skill', required: true, skill: true },
    { name: 'section', required: false, variadic: true },
  ],
  options: {
    section: { type: 'string', value: '<heading>', description: 'the heading, as an option (the same as the second argument)' },
    file: { type: 'string', value: '<path>', description: 'only look in this file' },
    'max-lines': MAX_LINES,
    strict: STRICT,
    ...FORMAT,
  },
  examples: [
    ['show git git_status', 'the section under the heading "git_status"'],
    ['show skill-authoring "Add tools"', 'a heading of several words, quoted (or not: the words after the skill are the heading)'],
    ['show skill-authoring Frontmatter --file references/frontmatter.md', 'only in that file'],
    ['show git Tools --max-lines 20', 'the first 20 lines of it'],
  ],
  async run(ctx, args) {
    const [skill, ...words] = args.positionals as [string, ...string[]];
    const option = str(args, 'section');
    if (words.length > 0 && option !== undefined) throw skillcErrors.usage('give the section once: as the second argument or with --section');
    const section = words.length > 0 ? words.join(' ') : option;
    if (section === undefined) throw skillcErrors.usage('show needs <section>, the heading to show');
    const result = (await ctx.library({ strict: strictRead(ctx, args) })).gateway.show(
      skill,
      { section, ...pick({ file: str(args, 'file'), maxLines: num(args, 'max-lines') }) },
      ctx.cwd,
    );
    if (result.warning) ctx.io.err(`${result.warning}\n`);
    return finish(ctx, args, result, () => formatShow(result));
  },
};
