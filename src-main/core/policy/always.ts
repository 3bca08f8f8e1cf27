/**
 * When an "Always" answer cannot vouch for a skill: it is pinned to the skill's content hash, and a
 * file the hash could not read (W417) enters it only as "unreadable", so that file could change —
 * or become readable with anything in it — without the hash moving. Such a skill asks every time,
 * and so does a tool whose own policy always asks: an Always for it would never be used.
 */
import type { Skill, Tool } from '../../shared/model.js';
import { effectivePolicy } from '../../shared/tool-policy.js';

/** Why no Always may be remembered or used for `skill` (and its `tool`, when given), as the end of a sentence; null when one may. */
export function alwaysBlindTo(
  skill: Pick<Skill, 'unhashed' | 'readOnly' | 'alwaysAsk' | 'timeoutSec' | 'network' | 'hosts'>,
  tool?: Pick<Tool, 'policy'>,
): string | null {
  if (tool !== undefined && effectivePolicy(skill, tool).alwaysAsk)
    return 'the tool asks every time (always_ask, or a pack’s confirm_before_run), so an Always would never be used';
  if (skill.unhashed.length === 0) return null;
  const shown = skill.unhashed
    .slice(0, 3)
    .map((rel) => `'${rel}'`)
    .join(', ');
  const more = skill.unhashed.length > 3 ? ` and ${skill.unhashed.length - 3} more` : '';
  return `its content hash cannot cover ${shown}${more}, which cannot be read, so an Always answer cannot vouch for it`;
}
