/**
 * How a skill's identity, and what rules and remembered approvals are pinned to, read: the same in
 * policy's reasons, the app, the browser and the terminal.
 */
import type { RootKind, SkillIdentity } from './model.js';
import type { IdentityPin } from './runs.js';

/** Where a root's skills come from, in the sentences that name a hidden skill. */
export const ROOT_WORDS: Record<RootKind, string> = {
  env: 'SKILLTRAY_SKILLS_PATH',
  home: 'your skills folder',
  packs: 'an installed pack',
  bundled: 'the bundled skills',
  gibberish: "gibb.eri.sh's skills",
  gibbtools: "gibb.eri.sh's tool packs",
  kode: "Kode's skills",
  claude: "Claude's skills",
  agents: "the assistants' shared skills (~/.agents/skills)",
  codex: "Codex's skills",
  cursor: "Cursor's skills",
  copilot: "Copilot's skills",
  project: "a trusted project's skills",
  mcp: 'the skills MCP sources serve',
};

/** The skill a pin (or an identity) names: "the bundled skill Skilltray shipped", "the user skill in /…/git". */
export function describePin(pin: IdentityPin): string {
  if (pin.trust === 'bundled') return 'the bundled skill Skilltray shipped';
  if (pin.rootKind === 'bundled') return `the unverified skill in the bundled folder (${pin.path})`;
  if (pin.rootKind === 'packs') return `the installed pack's skill in ${pin.path}`;
  if (pin.rootKind === 'mcp') return `the skill an MCP source serves, as approved in ${pin.path}`;
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
    ...identity.hides.map(
      (hidden) =>
        `It hides the skill of the same name in ${ROOT_WORDS[hidden.rootKind]} (${hidden.path}); what you allowed for that one does not apply to this one.`,
    ),
  ];
}
