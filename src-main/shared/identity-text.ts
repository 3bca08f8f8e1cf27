/**
 * How a skill's identity, and what rules and remembered approvals are pinned to, read: the same in
 * policy's reasons, the app, the browser and the terminal.
 */
import type { SkillIdentity } from './model.js';
import type { IdentityPin } from './runs.js';

/** The skill a pin (or an identity) names: "the bundled skill Skilltray shipped", "the user skill in /…/git". */
export function describePin(pin: IdentityPin): string {
  if (pin.trust === 'bundled') return 'the bundled skill Skilltray shipped';
  if (pin.rootKind === 'bundled') return `the unverified skill in the bundled folder (${pin.path})`;
  if (pin.rootKind === 'packs') return `the installed pack's skill in ${pin.path}`;
  return `the user skill in ${pin.path}`;
}

/** Where a remembered approval holds. */
export function folderText(folder: string | null): string {
  return folder === null ? 'in any folder' : `in ${folder} and the folders inside it`;
}

/** What the person should know about a skill before answering for it: what is not as shipped or installed, and what it hides. */
export function identityWarnings(identity: SkillIdentity): string[] {
  return [
    ...(identity.unverified === null ? [] : [identity.unverified]),
    ...identity.hides.map((hidden) => `It hides another skill of the same name (${hidden.rootKind}: ${hidden.path}); what you allowed for that one does not apply to this one.`),
  ];
}
