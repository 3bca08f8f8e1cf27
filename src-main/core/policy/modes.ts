/**
 * Context modes (gibb.eri.sh spec §3.2): the person picks Global, Dev or Meeting, and a skill is
 * offered only in the modes its `modes` list names. `Global` is a mode like the others, not a
 * wildcard: a skill with `modes: [Dev]` is hidden in Global and Meeting.
 */
import type { Mode, Skill } from '../../shared/model.js';
import { MODES } from '../../shared/model.js';
import { policyErrors } from '../../shared/error-messages/policy.js';

/** Reads a mode name case-insensitively (`dev` → `Dev`); anything else is E610. */
export function parseMode(input: string): Mode {
  const mode = MODES.find((m) => m.toLowerCase() === input.trim().toLowerCase());
  if (mode === undefined) {
    throw policyErrors.unknownMode(input, MODES);
  }
  return mode;
}

/** Whether the skill's tools are offered (listed and runnable) in `mode`. */
export function isOffered(skill: Pick<Skill, 'modes'>, mode: Mode): boolean {
  return skill.modes.includes(mode);
}
