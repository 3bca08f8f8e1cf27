/** Views of loaded skills for list and check, shared by every surface. */
import type { CheckReport, ShadowReport, Skill, SkillRoot, SkillSummary } from '../../shared/model.js';
import type { ShadowedSkill } from './registry.js';

const rootRef = (root: SkillRoot) => ({ path: root.path, kind: root.kind });

/** The list entry of a skill. */
export function summarize(skill: Skill): SkillSummary {
  return {
    name: skill.name,
    version: skill.version,
    description: skill.description,
    root: rootRef(skill.root),
    trust: skill.trust,
    path: skill.dir,
    hash: skill.hash,
    status: skill.state,
    tools: skill.tools.map((t) => ({ name: t.name, description: t.description, params: t.params })),
    diagnostics: skill.diagnostics,
    shadows: skill.shadows.map((s) => ({ path: s.dir, root: rootRef(s.root) })),
  };
}

/** The shadow report with plain root references. */
export function shadowReport(shadowed: readonly ShadowedSkill[]): ShadowReport[] {
  return shadowed.map((s) => ({
    name: s.name,
    winner: { path: s.winner.dir, root: rootRef(s.winner.root) },
    loser: { path: s.loser.dir, root: rootRef(s.loser.root) },
  }));
}

/** Counts errors and warnings over the skills checked. */
export function checkReport(skills: readonly Skill[]): CheckReport {
  const diagnostics = skills.flatMap((s) => s.diagnostics);
  return {
    skills: skills.map((s) => ({ name: s.name, path: s.dir, status: s.state, diagnostics: s.diagnostics })),
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
  };
}
