/** `build` (RFC-0004): a skill's search index, built or checked. */
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { Command } from '../command.js';
import { FORMAT, finish } from './read-options.js';

export const build: Command = {
  name: 'build',
  summary: "build a skill's search index (or every skill's with --all); up-to-date indexes are kept",
  positionals: [{ name: 'skill', required: false, skill: true }],
  options: {
    all: { type: 'boolean', description: 'build every loaded skill' },
    verify: { type: 'boolean', description: 'check an index found up to date page by page, its full-text index included, and rebuild it if damaged' },
    ...FORMAT,
  },
  examples: [
    ['build git', "build (or keep) the git skill's search index"],
    ['build --all', 'every loaded skill; failures are listed, exit 1'],
    ['build git --verify', 'rebuild it if its file was damaged (reason corrupt)'],
  ],
  async run(ctx, args) {
    const library = await ctx.library();
    const skill = args.positionals[0];
    if ((skill === undefined) === !args.options.all) throw skillcErrors.usage('build takes <skill> or --all, one of them');
    const verify = args.options.verify === true ? { verify: true } : {};
    if (skill !== undefined) {
      const result = library.gateway.build(skill, ctx.cwd, verify);
      return finish(ctx, args, result, () =>
        result.status === 'up-to-date' ? `${result.skill}: up-to-date` : `${result.skill}: ${result.status} (${result.sections} sections, ${result.tokenizer})`,
      );
    }
    const result = library.gateway.buildAll(ctx.cwd, verify);
    await finish(ctx, args, result, () => result.built.map((b) => `${b.skill}: ${b.status}`).join('\n'));
    for (const failure of result.failed) ctx.io.err(`${failure.skill}: error[${failure.error.code}]: ${failure.error.message}\n`);
    return result.failed.length > 0 ? 1 : 0;
  },
};
