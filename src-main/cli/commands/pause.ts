/** `pause` and `resume`: every run held, then let go. */
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { atOwnerOrHere } from '../here-or-there.js';

export function pauseCommand(name: 'pause' | 'resume'): Command {
  return {
    name,
    summary: name === 'pause' ? 'pause every run until resumed' : 'resume runs after a pause',
    positionals: [],
    options: { ...JSON_OPTION },
    examples: name === 'pause' ? [['pause', 'refuse every run until resume']] : [['resume', 'let runs start again']],
    async run(ctx, args) {
      const paused = name === 'pause';
      const settings = await atOwnerOrHere(ctx, {
        operation: 'setPaused',
        there: (owner) => owner.setPaused({ paused }),
        here: (core) => core.preferences.setPaused(paused),
      });
      if (args.options.json) printJson(ctx, settings);
      else ctx.io.out(settings.paused ? 'Runs are paused.\n' : 'Runs are resumed.\n');
      return 0;
    },
  };
}
