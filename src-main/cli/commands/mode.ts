/** `mode`: the mode (Global, Dev, Meeting) shown or set. */
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { atOwnerOrHere } from '../here-or-there.js';

export const mode: Command = {
  name: 'mode',
  summary: 'show or set the mode (Global, Dev, Meeting): tools outside it are not offered and cannot run',
  positionals: [{ name: 'name', required: false }],
  options: { ...JSON_OPTION },
  examples: [
    ['mode', 'the current mode'],
    ['mode Meeting', 'offer only the tools meant for meetings'],
  ],
  async run(ctx, args) {
    const name = args.positionals[0];
    const current = await atOwnerOrHere(ctx, {
      operation: name === undefined ? 'settings' : 'setMode',
      there: async (owner) => (name === undefined ? await owner.settings({}) : await owner.setMode({ mode: name })).mode,
      here: (core) => (name === undefined ? core.preferences.settings().mode : core.preferences.setMode(name)),
    });
    if (args.options.json) printJson(ctx, { mode: current });
    else ctx.io.out(`${current}\n`);
    return 0;
  },
};
