/** The skill browser's filters over the list the app returned (presentation only: `offered` and the rest come from the core). */
import type { SkillSummary } from '../../src-main/shared/model.js';
import type { SkillFilter, UnknownFilter } from '../app/route.js';

/** Whether `skill` passes every filter that is set. */
export function matchesFilter(skill: SkillSummary, filter: SkillFilter): boolean {
  if (filter.offered && !skill.offered) return false;
  if (filter.source !== '') {
    const source = filter.source.startsWith('trust:') ? skill.trust === filter.source.slice('trust:'.length) : skill.root.kind === filter.source;
    if (!source) return false;
  }
  if (filter.role !== '' && skill.role !== filter.role) return false;
  if (filter.status !== '' && skill.lifecycle !== filter.status) return false;
  if (filter.health !== '' && skill.status !== filter.health) return false;
  return true;
}

/** How many filters are set. */
export function activeFilters(filter: SkillFilter): number {
  return [filter.offered, filter.source !== '', filter.role !== '', filter.status !== '', filter.health !== ''].filter(Boolean).length;
}

/** Whether any filter is set. */
export function isFiltering(filter: SkillFilter): boolean {
  return activeFilters(filter) > 0;
}

/** The values present in the list, for the filter menus (sorted, each once). */
export function filterChoices(skills: readonly SkillSummary[]): { rootKinds: string[]; roles: string[]; statuses: string[] } {
  const distinct = (values: (string | null)[]): string[] => [...new Set(values.filter((v): v is string => v !== null && v !== ''))].sort();
  return {
    rootKinds: distinct(skills.map((s) => s.root.kind)),
    roles: distinct(skills.map((s) => s.role)),
    statuses: distinct(skills.map((s) => s.lifecycle)),
  };
}

/** The sources a skill can be filtered by: its trust, or the kind of root it came from (those the list has). */
export function sourceChoices(rootKinds: readonly string[]): string[] {
  return ['trust:bundled', 'trust:user', ...rootKinds];
}

/**
 * The filters whose value no loaded skill could match, source and status taking only what the list
 * has (the address may name anything); empty while the list is still loading.
 */
export function unknownInList(filter: SkillFilter, skills: readonly SkillSummary[] | undefined): UnknownFilter[] {
  if (skills === undefined) return [];
  const { rootKinds, statuses } = filterChoices(skills);
  const unknown: UnknownFilter[] = [];
  const sources = sourceChoices(rootKinds);
  if (filter.source !== '' && !sources.includes(filter.source)) unknown.push({ key: 'source', value: filter.source, choices: sources });
  if (filter.status !== '' && !statuses.includes(filter.status)) unknown.push({ key: 'status', value: filter.status, choices: statuses });
  return unknown;
}

/** `filter` without the filters `unknown` names: what is left to apply. */
export function withoutUnknown(filter: SkillFilter, unknown: readonly UnknownFilter[]): SkillFilter {
  const keys = new Set(unknown.map((u) => u.key));
  return { ...filter, ...(keys.has('source') ? { source: '' } : {}), ...(keys.has('status') ? { status: '' } : {}) };
}
