/** Views of loaded skills for list and check, shared by every surface. */
import type { CheckReport, Mode, ShadowReport, Skill, SkillBrief, SkillRoot, SkillState, SkillSummary } from '../shared/model.js';
import { isOffered } from './policy/modes.js';
import { effectivePolicy } from '../shared/tool-policy.js';
import { describeProfile, profileFor } from './policy/profile.js';
import { firstSentence } from './search/plain-text.js';
import { isEnabled } from './store/switches.js';
import type { SkillSwitch } from '../shared/packs.js';
import type { ShadowedSkill } from './skills/registry.js';

const rootRef = (root: SkillRoot) => ({ path: root.path, kind: root.kind });

/** The list entry of a skill, as offered (or not) in `mode`; `switches` are the person's on/off switches of this skill. */
export function summarize(skill: Skill, mode: Mode, switches: readonly SkillSwitch[] = []): SkillSummary {
  const enabled = isEnabled(switches, skill.name, mode);
  const c = skill.classification;
  return {
    skill_id: skill.name,
    name: skill.name,
    version: skill.version,
    description: skill.description,
    root: rootRef(skill.root),
    trust: skill.trust,
    identity: skill.identity,
    path: skill.dir,
    hash: skill.hash,
    status: skill.state,
    tools: skill.tools.map((t) => ({ name: t.name, description: t.description, params: t.params, policy: effectivePolicy(skill, t) })),
    diagnostics: skill.diagnostics,
    shadows: skill.shadows.map((s) => ({ path: s.dir, root: rootRef(s.root) })),
    modes: skill.modes,
    offered: enabled && isOffered(skill, mode),
    enabled,
    switches: switches.filter((s) => s.skill === skill.name).map((s) => ({ scope: s.scope, enabled: s.enabled })),
    prompt: skill.prompt,
    readOnly: skill.readOnly,
    role: c?.role ?? null,
    invocation: c?.invocation ?? null,
    effect_mode: c?.effectMode ?? null,
    attach_targets: c?.attachTargets ?? [],
    domain: skill.domain,
    tags: skill.tags,
    lifecycle: skill.status,
  };
}

/** The brief of a listed skill; `unsandboxed`: the person took it out of the sandbox. */
export function briefOf(summary: SkillSummary, skill: Skill, unsandboxed: boolean): SkillBrief {
  return {
    name: summary.name,
    summary: firstSentence(summary.description),
    tools: summary.tools.map((t) => t.name),
    trust: summary.trust,
    sandbox: describeProfile(profileFor(skill, unsandboxed)),
    role: summary.role,
    offered: summary.offered,
    prompt: summary.prompt,
  };
}

export interface ListFilter {
  domain?: string;
  role?: string;
  /** Classification status (stable, experimental, …). */
  status?: string;
  /** Load health (ok, warnings, error): the summary's own `status`. */
  health?: SkillState;
  offeredOnly?: boolean;
  /** Leave out skills the person turned off in the current mode (what assistants are shown). */
  enabledOnly?: boolean;
  offset?: number;
  limit?: number;
}

/** ADR-001's list: filter by domain, role and status (case-insensitive), then page. */
export function filterSummaries(all: readonly SkillSummary[], filter: ListFilter): { skills: SkillSummary[]; total: number } {
  const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();
  const matching = all.filter(
    (s) =>
      (filter.domain === undefined || s.domain.some((d) => same(d, filter.domain as string))) &&
      (filter.role === undefined || same(s.role, filter.role)) &&
      (filter.status === undefined || same(s.lifecycle, filter.status)) &&
      (filter.health === undefined || s.status === filter.health) &&
      (!filter.offeredOnly || s.offered) &&
      (!filter.enabledOnly || s.enabled),
  );
  const offset = filter.offset ?? 0;
  return { skills: matching.slice(offset, filter.limit === undefined ? undefined : offset + filter.limit), total: matching.length };
}

/** The shadow report with plain root references. */
export function shadowReport(shadowed: readonly ShadowedSkill[]): ShadowReport[] {
  return shadowed.map((s) => ({
    name: s.name,
    winner: { path: s.winner.dir, root: rootRef(s.winner.root) },
    loser: { path: s.loser.dir, root: rootRef(s.loser.root) },
  }));
}

/** Counts errors and warnings over the skills checked; `unreadableRoots` are roots whose skills could not be looked at. */
export function checkReport(skills: readonly Skill[], unreadableRoots: CheckReport['unreadable_roots'] = []): CheckReport {
  const diagnostics = skills.flatMap((s) => s.diagnostics);
  return {
    skills: skills.map((s) => ({ name: s.name, path: s.dir, status: s.state, diagnostics: s.diagnostics })),
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    unreadable_roots: unreadableRoots,
  };
}
