/**
 * The skills an unknown name may have meant (E001's `did_you_mean`). A skill answers to its folder's
 * name, and here also to the name its SKILL.md declares: `describe gemini-deep-research` finds the
 * folder `research` whose frontmatter says so (E407), and `Git` or `gti` find `git`.
 */
import type { NameSuggestion } from '../../shared/did-you-mean.js';
import type { Skill } from '../../shared/model.js';
import { nearestNames } from '../did-you-mean.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';

/** The loaded skills `wanted` may have meant, best first. */
export function skillSuggestions(wanted: string, skills: readonly Skill[]): NameSuggestion[] {
  const byName = new Map<string, { skill: Skill; declared: boolean }>();
  for (const skill of skills) byName.set(skill.name, { skill, declared: false });
  for (const skill of skills) {
    const declared = skill.frontmatter.name;
    if (typeof declared === 'string' && !byName.has(declared)) byName.set(declared, { skill, declared: true });
  }
  const seen = new Set<string>();
  const suggestions: NameSuggestion[] = [];
  for (const name of nearestNames(wanted, byName.keys())) {
    const { skill, declared } = byName.get(name) as { skill: Skill; declared: boolean };
    if (seen.has(skill.dir)) continue;
    seen.add(skill.dir);
    suggestions.push({ name: skill.name, dir: skill.dir, ...(declared ? { declared_name: name } : {}) });
  }
  return suggestions;
}

/** E001 for `wanted`, with the skills it may have meant among `skills`. */
export function skillNotFound(wanted: string, skills: readonly Skill[]): SkilltrayError {
  return skillcErrors.skillNotFound(wanted, skillSuggestions(wanted, skills));
}
