/** `outline` (RFC-0002): the headings of a skill's Markdown files, streamed file by file. */
import type { Command } from '../command.js';
import { formatOutlineFile } from '../format/outline.js';
import { FORMAT, chunkedOut, num, pick, wantsJson } from './read-options.js';

export const outline: Command = {
  name: 'outline',
  summary: "list the headings of a skill's .md files",
  positionals: [{ name: 'skill', required: true, skill: true }],
  options: { level: { type: 'integer', value: '<n>', description: 'only headings of level 1–n' }, ...FORMAT },
  examples: [
    ['outline git', "every heading of the git skill's Markdown files"],
    ['outline skill-authoring --level 2', 'only the top two levels'],
  ],
  async run(ctx, args) {
    const library = await ctx.library();
    // Streamed file by file, in exactly the form printJson / formatOutlineFile give the whole result;
    // nothing is printed before the skill resolves, so an error is the only output.
    const json = wantsJson(args);
    const out = chunkedOut(ctx.io);
    let count = 0;
    try {
      library.gateway.outlineEach(args.positionals[0] as string, pick({ level: num(args, 'level') }), ctx.cwd, (headings) => {
        if (!json) out.write(`${formatOutlineFile(headings)}\n`);
        else
          for (const heading of headings)
            out.write(`${count++ === 0 ? '{\n  "headings": [' : ','}\n${JSON.stringify(heading, null, 2).replace(/^/gm, '    ')}`);
      });
      if (json) out.write(count === 0 ? '{\n  "headings": []\n}\n' : '\n  ]\n}\n');
    } finally {
      out.flush();
    }
    for (const warning of library.gateway.warnings) ctx.io.err(`${warning}\n`);
    return 0;
  },
};
