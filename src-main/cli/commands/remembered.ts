/** `remembered`: the tools the person chose to always allow, and revoking one. */
import type { Remembered } from '../../shared/runs.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { folderText } from '../../shared/identity-text.js';
import { displayLines } from '../../shared/display-text.js';
import { networkWords } from '../../shared/network-reach.js';
import { atOwnerOrHere } from '../here-or-there.js';

export const remembered: Command = {
  name: 'remembered',
  summary: 'list the tools you chose to always allow, or revoke one (<id>) so it asks again',
  positionals: [
    { name: 'list|revoke', required: false },
    { name: 'id', required: false },
  ],
  options: { ...JSON_OPTION },
  examples: [
    ['remembered', 'the tools you chose to always allow'],
    ['remembered revoke 2', 'make #2 ask again'],
  ],
  async run(ctx, args) {
    const [action = 'list', idText] = args.positionals;
    if (action === 'revoke') {
      const id = Number(idText);
      if (!Number.isInteger(id)) throw skillcErrors.usage('remembered revoke expects <id>');
      await atOwnerOrHere(ctx, {
        operation: 'revokeRemembered',
        there: async (owner) => {
          await owner.revokeRemembered({ id });
        },
        here: (core) => core.policy.revokeRemembered(id),
      });
      if (args.options.json) printJson(ctx, { revoked: id });
      else ctx.io.out(`approval #${id} revoked\n`);
      return 0;
    }
    if (action !== 'list' || idText !== undefined)
      throw skillcErrors.usage(`remembered takes list or revoke <id>, not '${[action, idText].filter(Boolean).join(' ')}'`);
    const list = await atOwnerOrHere(ctx, { operation: 'remembered', there: (owner) => owner.remembered({}), here: (core) => core.policy.remembered() });
    if (args.options.json) printJson(ctx, list);
    else {
      const line = (r: Remembered): string =>
        `#${r.id}  ${r.skill}/${r.tool}  ${folderText(r.folder)}  ${r.programPath}  ${r.profile.name}, ${networkWords(r.profile)}  ${r.expires === 'session' ? 'this session' : 'until revoked'}  skill ${r.skillHash.slice(0, 12)}`;
      ctx.io.out(list.length === 0 ? 'No remembered approvals.\n' : displayLines(list.map(line)));
    }
    return 0;
  },
};
