/** `resolve`: a Kode prompt skill's body with $ARGUMENTS. */
import { JSON_OPTION, printJson, type Command } from '../command.js';

export const resolve: Command = {
  name: 'resolve',
  summary: "render a Kode prompt skill's body with $ARGUMENTS",
  positionals: [
    { name: 'skill', required: true, skill: true },
    { name: 'args', required: false, variadic: true },
  ],
  options: { ...JSON_OPTION },
  examples: [
    ['resolve commit-message', 'the prompt with no notes'],
    ['resolve commit-message "fixes #12, touches the parser"', 'with $ARGUMENTS filled in'],
  ],
  async run(ctx, args) {
    const [skill, ...rest] = args.positionals as [string, ...string[]];
    const prompt = (await ctx.core()).skills.resolvePrompt(skill, rest);
    if (args.options.json) printJson(ctx, { skill, arguments: rest, prompt });
    else ctx.io.out(prompt.endsWith('\n') ? prompt : `${prompt}\n`);
    return 0;
  },
};
