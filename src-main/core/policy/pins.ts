/**
 * What pins an allow rule or a remembered approval to a skill: who the skill is (the kind of root it
 * was found in, its folder there, and whether it was the bundled skill Skilltray shipped; see
 * core/skills/identity.ts) and the most its runs could do (the sandbox profile, compared only with
 * widens(), so every field of a profile counts). A remembered approval is also pinned to the skill's
 * content hash and to the working folder it was given in. Pure: prepare-run reads the stores, decide
 * asks these.
 */
import type { Skill, SkillIdentity, Tool } from '../../shared/model.js';
import type { IdentityPin, RememberScope, Remembered, Rule, RulePin, SandboxProfile, SandboxView } from '../../shared/runs.js';
import { describePin } from '../../shared/identity-text.js';
import { isInside } from '../files/paths.js';
import { describeProfile, widens } from './profile.js';
import { parseRulePattern } from './rules.js';
import { effectivePolicy } from '../../shared/tool-policy.js';

/** The part of an identity a rule or an approval is pinned to. */
export function identityPin(identity: SkillIdentity): IdentityPin {
  return { rootKind: identity.rootKind, path: identity.path, trust: identity.trust };
}

/**
 * Whether `pin` is the skill `identity` describes: the same kind of root, bundled or not, and the
 * same folder. A bundled skill is known by its name alone (already matched): the app's own folder
 * moves with every update, and an AppImage mounts it somewhere new at each start.
 */
export function samePlace(pin: IdentityPin, identity: SkillIdentity): boolean {
  if (pin.rootKind !== identity.rootKind || pin.trust !== identity.trust) return false;
  return identity.rootKind === 'bundled' || pin.path === identity.path;
}

/** The profile a view shows, without what only the view adds (whether and how it is contained): what gets pinned. */
export function profileOf(view: SandboxView): SandboxProfile {
  // What the box found on disk for this run (programs bound, .git files pointing out) is how it is contained, not what it may do.
  const { contained: _contained, mechanism: _mechanism, why: _why, limitsWhy: _limitsWhy, programs: _programs, gitOutside: _gitOutside, ...profile } = view;
  return profile;
}

/** True when one of the skill's tools falls under `pattern`. */
function patternCovers(pattern: string, skill: Skill): boolean {
  const { matches } = parseRulePattern(pattern);
  return skill.tools.some((tool) => matches(skill.name, tool.name));
}

/** What a rule pins a skill's runs to: its profile without a tool (the widest), and each tool's own. */
export type ProfileOf = (skill: Skill, tool?: Tool) => SandboxProfile;

/** The pins of an allow rule made now: every loaded skill with a tool it matches, as that skill is now, with each matched tool's own profile. */
export function pinsFor(pattern: string, skills: readonly Skill[], profileFor: ProfileOf): RulePin[] {
  const { matches } = parseRulePattern(pattern);
  return skills
    .filter((skill) => patternCovers(pattern, skill))
    .map((skill) => ({
      skill: skill.name,
      ...identityPin(skill.identity),
      profile: profileFor(skill),
      tools: Object.fromEntries(skill.tools.filter((tool) => matches(skill.name, tool.name)).map((tool) => [tool.name, profileFor(skill, tool)])),
    }));
}

/**
 * The pins a rule made before rules were pinned gets: the skills it matches now whose identity is
 * beyond doubt, nothing hidden by them and nothing unverified about them. A name two skills share,
 * or a skill not as shipped or installed, is left for the person to allow again.
 */
export function legacyPinsFor(pattern: string, skills: readonly Skill[], profileFor: ProfileOf): RulePin[] {
  return pinsFor(
    pattern,
    skills.filter((skill) => skill.shadows.length === 0 && skill.identity.unverified === null),
    profileFor,
  );
}

/** How an allow rule stands for a skill as it is now. */
export type Coverage =
  /** The rule was made for this very skill and its runs can do no more than then. */
  | { kind: 'covers' }
  /** Made for this skill, but its runs could now do more: the rule does not allow that. */
  | { kind: 'widened'; why: string }
  /** Made for another skill of this name, or before this one was here: the rule is not about it. */
  | { kind: 'elsewhere'; why: string };

/** How `rule` (an allow rule whose pattern matches) stands for `tool` of `skill`, which would run under `profile`. */
export function coverage(rule: Rule, skill: Skill, profile: SandboxProfile, tool?: string): Coverage {
  const label = `rule #${rule.id} (${rule.pattern})`;
  if (rule.pins === null)
    return { kind: 'elsewhere', why: `${label} was made before rules were pinned to a skill; add it again to allow '${skill.name}' as it is now` };
  const named = rule.pins.filter((pin) => pin.skill === skill.name);
  const pin = named.find((p) => samePlace(p, skill.identity));
  if (pin === undefined) {
    const other = named[0];
    return {
      kind: 'elsewhere',
      why:
        other === undefined
          ? `${label} does not cover this '${skill.name}' (a rule covers the skills it named when it was made); add it again to let it cover this one`
          : `${label} was made for ${describePin(other)}, not for this one (${describePin(identityPin(skill.identity))})`,
    };
  }
  // The tool's own profile when the rule was made: a tool whose policy narrowed it then is held to that.
  const pinned = (tool === undefined ? undefined : pin.tools?.[tool]) ?? pin.profile;
  if (widens(profile, pinned)) {
    return {
      kind: 'widened',
      why: `${label} was made when it ran ${describeProfile(pinned)}; it would now run ${describeProfile(profile)}, more than the rule allows`,
    };
  }
  return { kind: 'covers' };
}

/** Why a remembered approval is not about this skill in this folder, or null when it is. */
export function rememberedElsewhere(remembered: Remembered, skill: Skill, cwd: string): string | null {
  if (remembered.identity !== null && !samePlace(remembered.identity, skill.identity)) {
    return `it was given to ${describePin(remembered.identity)}, and this is ${describePin(identityPin(skill.identity))}`;
  }
  if (remembered.folder !== null && !isInside(remembered.folder, cwd)) {
    return `you allowed it in ${remembered.folder}, and this run is in ${cwd}; an Always holds in its own folder and the folders inside it`;
  }
  return null;
}

/**
 * Of the live remembered approvals of one tool, the one for a run in `cwd`: given in that folder (or
 * the nearest folder around it), else given for any folder; else any of them, so that the decision
 * can say why it does not apply; null when there is none.
 */
export function rememberedFor(list: readonly Remembered[], cwd: string): Remembered | null {
  const here = list.filter((r) => r.folder !== null && isInside(r.folder, cwd)).sort((a, b) => (b.folder as string).length - (a.folder as string).length)[0];
  return here ?? list.find((r) => r.folder === null) ?? list[0] ?? null;
}

/**
 * Where an Always answer may apply for a run of `tool` of `skill` under `profile`, the default first:
 * nowhere for a skill whose files cannot be vouched for (it never runs unasked) or a tool that always
 * asks, in any folder only for a read-only run.
 */
export function rememberScopes(skill: Skill, profile: SandboxProfile, tool?: Tool): RememberScope[] {
  if (skill.identity.unverified !== null) return [];
  // A tool that asks every time (always_ask, confirm_before_run) would never use an Always.
  if (tool !== undefined && effectivePolicy(skill, tool).alwaysAsk) return [];
  return profile.name === 'read-only' ? ['folder', 'anywhere'] : ['folder'];
}
