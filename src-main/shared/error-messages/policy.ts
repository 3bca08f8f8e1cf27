/**
 * The errors of policy and approval (E6xx, docs/errors.md): each a sentence an assistant can relay
 * to the person, naming the call as `'skill/tool'`; nothing has run.
 */
import type { RememberScope } from '../runs.js';
import { SkilltrayError } from '../skilltray-error.js';

const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many);
const call = (skill: string, tool: string): string => `'${skill}/${tool}'`;

export const policyErrors = {
  approvalRequired: (skill: string, tool: string, reason: string) =>
    new SkilltrayError(
      'E601',
      `${call(skill, tool)} needs approval from the person at the desktop (${reason}), and nobody can be asked here: ` +
        `start the Skilltray app (or 'skilltray serve') so it can ask`,
      { details: { skill, tool, reason } },
    ),
  deniedByRule: (skill: string, tool: string, ruleId: number, pattern: string) =>
    new SkilltrayError('E602', `${call(skill, tool)} is denied by rule #${ruleId} (${pattern})`, { details: { skill, tool, ruleId, pattern } }),
  deniedByUser: (skill: string, tool: string, actor: string) =>
    new SkilltrayError('E603', `the person at the desktop denied ${call(skill, tool)}`, { details: { skill, tool, actor } }),
  approvalTimedOut: (skill: string, tool: string, id: string, timeoutMs: number) =>
    new SkilltrayError(
      'E604',
      `nobody answered the approval for ${call(skill, tool)} within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}, so it did not run`,
      {
        details: { id, timeoutMs },
      },
    ),
  notOfferedInMode: (skill: string, tool: string, mode: string, modes: readonly string[]) =>
    new SkilltrayError(
      'E605',
      `${call(skill, tool)} is not offered in ${mode} mode; skill '${skill}' runs in ${modes.length === 0 ? 'no mode' : modes.join(', ')} mode`,
      {
        details: { skill, tool, mode, modes },
      },
    ),
  /** The mode changed to one the skill is not offered in while its run waited for approval. */
  modeChangedWhileWaiting: (skill: string, tool: string, mode: string) =>
    new SkilltrayError('E605', `${call(skill, tool)} is not offered in ${mode} mode, chosen while it waited for approval`, { details: { skill, tool, mode } }),
  missingBinary: (skill: string, tool: string, missing: readonly string[]) =>
    new SkilltrayError(
      'E606',
      `skill '${skill}' needs ${plural(missing.length, 'the program', 'the programs')} ${missing.map((n) => `'${n}'`).join(', ')}, ` +
        `not found on PATH; install ${plural(missing.length, 'it', 'them')} or fix PATH, then try again`,
      { details: { skill, tool, missing } },
    ),
  missingEnvironment: (skill: string, tool: string, missing: readonly string[]) =>
    new SkilltrayError(
      'E607',
      `skill '${skill}' needs the environment ${plural(missing.length, 'variable', 'variables')} ${missing.join(', ')}, ` +
        `which ${plural(missing.length, 'is', 'are')} not set where Skilltray runs`,
      { details: { skill, tool, missing } },
    ),
  runsPaused: (skill: string, tool: string) =>
    new SkilltrayError('E608', `runs are paused in Skilltray; ${call(skill, tool)} will not run until the person at the desktop resumes them`, {
      details: { skill, tool },
    }),
  pausedWhileWaiting: (skill: string, tool: string) =>
    new SkilltrayError('E608', `runs were paused while ${call(skill, tool)} waited for approval`, { details: { skill, tool } }),
  /** `why` says what is wrong with the pattern. */
  invalidRule: (pattern: string, why: string) =>
    new SkilltrayError('E609', `invalid rule '${pattern}': ${why}; write skill:<glob>, tool:<skill>/<tool> or tool:<skill>/*`, { details: { pattern } }),
  invalidRuleEffect: (effect: string) => new SkilltrayError('E609', `invalid rule effect '${effect}': write allow or deny`, { details: { effect } }),
  unknownMode: (mode: string, modes: readonly string[]) =>
    new SkilltrayError('E610', `unknown mode '${mode}': choose ${modes.join(', ')}`, { details: { mode } }),
  approvalNotFound: (id: string) =>
    new SkilltrayError('E611', `no pending approval '${id}': it is unknown, already answered, timed out or cancelled`, { details: { id } }),
  /** `waited` is empty, or says the change may have come while the run waited for approval. */
  skillChanged: (skill: string, tool: string, waited: string) =>
    new SkilltrayError('E612', `skill '${skill}' changed on disk after it was loaded${waited}, so '${tool}' did not run; ask again`, {
      details: { skill, tool },
    }),
  approvalCancelled: (skill: string, tool: string, id: string) =>
    new SkilltrayError('E613', `the approval for ${call(skill, tool)} was withdrawn before anyone answered`, { details: { id } }),
  ruleNotFound: (id: number) => new SkilltrayError('E614', `no rule with id ${id}`, { details: { id } }),
  rememberedNotFound: (id: number) => new SkilltrayError('E615', `no remembered approval with id ${id} is in force`, { details: { id } }),
  invalidVerdict: (verdict: unknown) =>
    new SkilltrayError('E616', `invalid verdict '${String(verdict)}': answer once, always or deny`, { details: { verdict } }),
  /** `why` is the parser's sentence, or null for text that is no shortcut at all. */
  invalidShortcut: (shortcut: string, why: string | null) => new SkilltrayError('E617', why ?? `'${shortcut}' is not a shortcut`, { details: { shortcut } }),
  skillDisabled: (skill: string, tool: string, mode: string) =>
    new SkilltrayError(
      'E618',
      `skill '${skill}' is turned off in Skilltray${mode === 'Global' ? '' : ` (in ${mode} mode)`}; ${call(skill, tool)} will not run until the person turns it on`,
      { details: { skill, tool, mode } },
    ),
  /** An assistant asked to read a skill the person turned off: it is not shown to assistants at all. */
  skillTurnedOff: (skill: string, mode: string) =>
    new SkilltrayError(
      'E618',
      `skill '${skill}' is turned off in Skilltray${mode === 'Global' ? '' : ` (in ${mode} mode)`}; it is not shown to assistants until the person turns it on`,
      { details: { skill, mode } },
    ),
  disabledWhileWaiting: (skill: string, tool: string, mode: string) =>
    new SkilltrayError('E618', `skill '${skill}' was turned off while ${call(skill, tool)} waited for approval`, { details: { skill, tool, mode } }),
  ruleCoversNothing: (pattern: string) =>
    new SkilltrayError(
      'E625',
      `allow rule '${pattern}' matches no tool of a loaded skill; an allow rule covers the skills it names as they are when you add it`,
      {
        details: { pattern },
      },
    ),
  /** An Always in a scope the pending request does not offer (`offered` empty: no Always at all). */
  invalidRememberScope: (skill: string, tool: string, id: string, scope: RememberScope, offered: readonly RememberScope[]) =>
    new SkilltrayError(
      'E626',
      offered.length === 0
        ? `${call(skill, tool)} cannot be always allowed: its files cannot be vouched for, so every run of it asks; answer once or deny`
        : `${call(skill, tool)} can be always allowed only in its folder: a tool that may write is never allowed in any folder at once`,
      { details: { id, scope, offered } },
    ),
};
