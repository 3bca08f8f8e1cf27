import { describe, expect, it } from 'vitest';
import type { SkillSummary } from '../../../src-main/shared/model.js';
import { NO_SKILL_FILTER } from '../../../src-renderer/app/route.js';
import { filterChoices, isFiltering, matchesFilter, unknownInList, withoutUnknown } from '../../../src-renderer/skills/skill-filters.js';

function summary(name: string, over: Partial<SkillSummary> = {}): SkillSummary {
  return {
    skill_id: name,
    name,
    version: '1.0.0',
    description: '',
    root: { path: '/r', kind: 'env' },
    trust: 'user',
    path: `/r/${name}`,
    hash: 'h',
    status: 'ok',
    identity: { rootKind: 'env', path: `/r/${name}`, hash: 'h', manifest: null, trust: 'user', unverified: null, hides: [] },
    tools: [],
    diagnostics: [],
    shadows: [],
    modes: ['Global'],
    offered: true,
    enabled: true,
    switches: [],
    prompt: false,
    readOnly: false,
    role: null,
    invocation: null,
    effect_mode: null,
    attach_targets: [],
    domain: [],
    tags: [],
    lifecycle: null,
    ...over,
  };
}

describe('skill browser filters', () => {
  const skills = [
    summary('a', { offered: false, role: 'utility', lifecycle: 'stable' }),
    summary('b', { trust: 'bundled', root: { path: '/b', kind: 'bundled' }, status: 'error', role: 'sidecar' }),
    summary('c', { root: { path: '/h', kind: 'home' }, lifecycle: 'experimental' }),
  ];
  const names = (filter: typeof NO_SKILL_FILTER) => skills.filter((s) => matchesFilter(s, filter)).map((s) => s.name);

  it('passes everything with no filter', () => {
    expect(isFiltering(NO_SKILL_FILTER)).toBe(false);
    expect(names(NO_SKILL_FILTER)).toEqual(['a', 'b', 'c']);
  });

  it('filters by offered, trust, root kind, role, status and health', () => {
    expect(names({ ...NO_SKILL_FILTER, offered: true })).toEqual(['b', 'c']);
    expect(names({ ...NO_SKILL_FILTER, source: 'trust:user' })).toEqual(['a', 'c']);
    expect(names({ ...NO_SKILL_FILTER, source: 'home' })).toEqual(['c']);
    expect(names({ ...NO_SKILL_FILTER, role: 'sidecar' })).toEqual(['b']);
    expect(names({ ...NO_SKILL_FILTER, status: 'experimental' })).toEqual(['c']);
    expect(names({ ...NO_SKILL_FILTER, health: 'error' })).toEqual(['b']);
    expect(names({ ...NO_SKILL_FILTER, offered: true, source: 'trust:user' })).toEqual(['c']);
  });

  it('offers only the values present', () => {
    expect(filterChoices(skills)).toEqual({ rootKinds: ['bundled', 'env', 'home'], roles: ['sidecar', 'utility'], statuses: ['experimental', 'stable'] });
  });

  it('names a source or status no loaded skill could match, with what the list has, and applies the rest', () => {
    const filter = { ...NO_SKILL_FILTER, source: 'moon', status: 'gold', role: 'sidecar' };
    const unknown = unknownInList(filter, skills);
    expect(unknown).toEqual([
      { key: 'source', value: 'moon', choices: ['trust:bundled', 'trust:user', 'bundled', 'env', 'home'] },
      { key: 'status', value: 'gold', choices: ['experimental', 'stable'] },
    ]);
    expect(withoutUnknown(filter, unknown)).toEqual({ ...NO_SKILL_FILTER, role: 'sidecar' });
    expect(names(withoutUnknown(filter, unknown))).toEqual(['b']);
    // Values the list has are no news; before the list loads nothing is judged.
    expect(unknownInList({ ...NO_SKILL_FILTER, source: 'trust:bundled', status: 'stable' }, skills)).toEqual([]);
    expect(unknownInList({ ...NO_SKILL_FILTER, source: 'home' }, skills)).toEqual([]);
    expect(unknownInList(filter, undefined)).toEqual([]);
  });
});
