/** `new`: a first skill, written into the person's skills folder and checked. */
import { relative } from 'node:path';
import { displayLines } from '../../shared/display-text.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { diagnosticLine } from './skills.js';

export const newCommand: Command = {
  name: 'new',
  summary: 'write a new skill (frontmatter, one tool with Parameters, a Command and an Example) into your skills folder, and check it',
  positionals: [{ name: 'name', required: true }],
  options: {
    tool: { type: 'string', value: '<name>', description: "the tool's name (default: the skill's name, with _ for -)" },
    dir: { type: 'string', value: '<folder>', description: 'write it in this folder instead of your skills folder (<home>/skills)' },
    ...JSON_OPTION,
  },
  notes: ['The name is lower-case letters and digits with single hyphens (my-skill); an existing folder or a name a loaded skill has is refused.'],
  examples: [
    ['new hello', 'writes <home>/skills/hello/SKILL.md with a tool hello'],
    ['new release-notes --tool draft', 'a skill release-notes with a tool draft'],
    ['new my-pack-skill --dir ./packs', 'in a folder of your own (a pack you are writing)'],
  ],
  async run(ctx, args) {
    const name = args.positionals[0] as string;
    const made = (await ctx.core()).skills.newSkill(
      name,
      {
        ...(typeof args.options.tool === 'string' ? { tool: args.options.tool } : {}),
        ...(typeof args.options.dir === 'string' ? { dir: args.options.dir } : {}),
      },
      ctx.cwd,
    );
    if (args.options.json) {
      printJson(ctx, made);
      return made.check.errors > 0 ? 1 : 0;
    }
    const { check } = made;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const diagnostics = check.skills.flatMap((s) => s.diagnostics.map((d) => `  ${diagnosticLine(d, s.path)}`));
    const shown = relative(ctx.cwd, made.file).startsWith('..') ? made.file : relative(ctx.cwd, made.file) || made.file;
    const run = `skilltray run ${name} ${made.tool} --example 1`;
    const next: [string, string][] = made.loaded
      ? [
          [`${run} --dry-run`, 'what would run; nothing runs'],
          [run, 'run it (your own skills ask you first)'],
          [`skilltray check ${name} --watch`, 'checked again each time you save SKILL.md'],
        ]
      : [[`skilltray check ${made.path} --watch`, 'checked again each time you save SKILL.md']];
    const width = Math.max(...next.map(([line]) => line.length));
    const lines = [
      `wrote ${shown}`,
      ...diagnostics,
      `checked: ${plural(check.errors, 'error')}, ${plural(check.warnings, 'warning')}`,
      ...(made.loaded
        ? []
        : [
            `note: ${made.path} is not in a skill root, so Skilltray does not load it: add its folder to SKILLTRAY_SKILLS_PATH, or write it in your skills folder`,
          ]),
      'next:',
      ...next.map(([line, what]) => `  ${line.padEnd(width)}   # ${what}`),
    ];
    ctx.io.out(displayLines(lines));
    return check.errors > 0 ? 1 : 0;
  },
};
