/** `rules`: the allow and deny rules, and which skills run without a sandbox. */
import type { Rule } from '../../shared/runs.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { describePin } from '../../shared/identity-text.js';
import { displayLines } from '../../shared/display-text.js';
import { atOwnerOrHere } from '../here-or-there.js';

/** The skills an allow rule covers, one line each, as they were when it was made. */
async function pinLines(rule: Rule): Promise<string> {
  if (rule.effect === 'deny') return '';
  if (rule.pins === null || rule.pins.length === 0) return '       covers no skill: add it again to cover the skills it names now\n';
  // Loaded only by `rules`: the other commands never describe a profile.
  const { describeProfile } = await import('../../core/runs-facade.js');
  return displayLines(rule.pins.map((pin) => `       for ${pin.skill}: ${describePin(pin)}, up to ${describeProfile(pin.profile)}`));
}

export const rules: Command = {
  name: 'rules',
  summary:
    'list, add (allow|deny <pattern>) or remove (<id>) permission rules: skill:<glob>, skill:*, tool:<skill>/<tool>; ' +
    'unsandbox <skill> runs a skill without a sandbox (its runs then ask), sandbox <skill> puts it back',
  positionals: [
    { name: 'list|add|remove|sandbox|unsandbox', required: false },
    // sandbox/unsandbox take a skill here, whose name may start with '-'.
    { name: 'args', required: false, variadic: true, skill: true },
  ],
  options: { ...JSON_OPTION },
  examples: [
    ['rules', 'the rules, by id'],
    ['rules add allow tool:git/git_status', 'let one tool run without asking'],
    ['rules add deny "skill:*"', 'refuse every tool a narrower allow does not cover'],
    ['rules remove 3', 'remove rule #3'],
  ],
  async run(ctx, args) {
    const [action = 'list', ...rest] = args.positionals;
    if (action === 'add') {
      const [effect, pattern] = rest;
      if (effect === undefined || pattern === undefined || rest.length > 2) throw skillcErrors.usage('rules add expects <allow|deny> <pattern>');
      const { parseRuleEffect } = await import('../../core/runs-facade.js');
      const checked = parseRuleEffect(effect);
      const rule = await atOwnerOrHere(ctx, {
        operation: 'addRule',
        there: (owner) => owner.addRule({ pattern, effect: checked }),
        here: (core) => core.policy.addRule(pattern, checked),
      });
      if (args.options.json) printJson(ctx, rule);
      else ctx.io.out(`rule #${rule.id}: ${rule.effect} ${rule.pattern}\n${await pinLines(rule)}`);
      return 0;
    }
    if (action === 'remove') {
      const id = Number(rest[0]);
      if (rest.length !== 1 || !Number.isInteger(id)) throw skillcErrors.usage('rules remove expects <id>');
      await atOwnerOrHere(ctx, {
        operation: 'removeRule',
        there: async (owner) => {
          await owner.removeRule({ id });
        },
        here: (core) => core.policy.removeRule(id),
      });
      if (args.options.json) printJson(ctx, { removed: id });
      else ctx.io.out(`rule #${id} removed\n`);
      return 0;
    }
    if (action === 'sandbox' || action === 'unsandbox') {
      const [skill] = rest;
      if (skill === undefined || rest.length !== 1) throw skillcErrors.usage(`rules ${action} takes one <skill>`);
      const sandboxed = action === 'sandbox';
      const status = await atOwnerOrHere(ctx, {
        operation: 'setSkillSandbox',
        there: (owner) => owner.setSkillSandbox({ skill, sandboxed }),
        here: (core) => core.policy.setSkillSandboxed(skill, sandboxed),
      });
      if (args.options.json) printJson(ctx, status);
      else
        ctx.io.out(
          sandboxed
            ? `${skill} runs in the sandbox again\n`
            : `${skill} now runs without a sandbox: every run of it asks first (unless an allow rule says otherwise)\n`,
        );
      return 0;
    }
    if (action !== 'list' || rest.length > 0)
      throw skillcErrors.usage(
        `rules takes list, add <allow|deny> <pattern>, remove <id>, sandbox <skill> or unsandbox <skill>, not '${[action, ...rest].join(' ')}'`,
      );
    const [list, sandbox] = await atOwnerOrHere(ctx, {
      operation: 'rules',
      there: async (owner) => [await owner.rules({}), await owner.sandbox({})] as const,
      here: (core) => [core.policy.rules(), core.policy.sandboxStatus()] as const,
    });
    if (args.options.json) printJson(ctx, list);
    else {
      const lines = await Promise.all(list.map(async (r) => `#${r.id}  ${r.effect.padEnd(5)}  ${r.pattern}\n${await pinLines(r)}`));
      const machine = sandbox.available ? `runs are contained by ${sandbox.mechanism ?? 'a sandbox'}` : `runs are not contained: ${sandbox.why ?? ''}`;
      const off = sandbox.unsandboxed.length === 0 ? '' : `without a sandbox (you chose): ${sandbox.unsandboxed.join(', ')}\n`;
      ctx.io.out(`${list.length === 0 ? 'No rules.\n' : lines.join('')}${machine}\n${off}`);
    }
    return 0;
  },
};
