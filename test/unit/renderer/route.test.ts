import { describe, expect, it } from 'vitest';
import { RUN_STATUSES, SURFACES } from '../../../src-main/shared/runs.js';
import { NO_SKILL_FILTER, parseRoute, routeHref, unknownFilterText, type Route } from '../../../src-renderer/app/route.js';

describe('hash routes', () => {
  it('reads every screen', () => {
    expect(parseRoute('')).toEqual({ screen: 'skills', query: '', filter: NO_SKILL_FILTER, unknown: [] });
    expect(parseRoute('#/')).toEqual({ screen: 'skills', query: '', filter: NO_SKILL_FILTER, unknown: [] });
    expect(parseRoute('#/approvals')).toEqual({ screen: 'approvals' });
    expect(parseRoute('#/tray')).toEqual({ screen: 'tray' });
    expect(parseRoute('#/palette')).toEqual({ screen: 'palette' });
    expect(parseRoute('#/palette/x')).toEqual({ screen: 'missing', path: 'palette/x' });
    expect(parseRoute('#/settings')).toEqual({ screen: 'settings' });
    expect(parseRoute('#/packs')).toEqual({ screen: 'packs' });
    expect(parseRoute('#/packs/x')).toEqual({ screen: 'missing', path: 'packs/x' });
    expect(parseRoute('#/skills?q=dep&role=utility&offered=1')).toEqual({
      screen: 'skills',
      query: 'dep',
      filter: { ...NO_SKILL_FILTER, role: 'utility', offered: true },
      unknown: [],
    });
    expect(parseRoute('#/skills/git')).toEqual({ screen: 'skill', name: 'git', view: { kind: 'overview' } });
    expect(parseRoute('#/skills/git?section=Usage&file=SKILL.md')).toEqual({
      screen: 'skill',
      name: 'git',
      view: { kind: 'section', section: 'Usage', file: 'SKILL.md' },
    });
    expect(parseRoute('#/skills/git?open=references%2Fa.md')).toEqual({ screen: 'skill', name: 'git', view: { kind: 'file', path: 'references/a.md' } });
    expect(parseRoute('#/history/abc?status=failed&surface=mcp&skill=git')).toEqual({
      screen: 'history',
      run: 'abc',
      filter: { skill: 'git', status: 'failed', surface: 'mcp' },
      unknown: [],
    });
    expect(parseRoute('#/elsewhere')).toEqual({ screen: 'missing', path: 'elsewhere' });
  });

  it('drops filter values the contract does not know, and says which with what they take', () => {
    expect(parseRoute('#/history?status=bogus&surface=fax&skil=git')).toEqual({
      screen: 'history',
      run: null,
      filter: { skill: '', status: null, surface: null },
      unknown: [
        { key: 'skil', value: null, choices: ['skill', 'status', 'surface'] },
        { key: 'status', value: 'bogus', choices: RUN_STATUSES },
        { key: 'surface', value: 'fax', choices: SURFACES },
      ],
    });
    expect(parseRoute('#/skills?health=bogus&role=chef&offered=maybe&helth=ok')).toMatchObject({
      filter: NO_SKILL_FILTER,
      unknown: [
        { key: 'helth', value: null },
        { key: 'offered', value: 'maybe', choices: ['1'] },
        { key: 'role', value: 'chef', choices: ['procedure', 'utility', 'sidecar'] },
        { key: 'health', value: 'bogus', choices: ['error', 'warnings', 'ok'] },
      ],
    });
    // Source and status take what the loaded skills have: the screen checks them (skill-filters).
    expect(parseRoute('#/skills?source=moon&status=gold')).toMatchObject({ filter: { source: 'moon', status: 'gold' }, unknown: [] });
  });

  it('reads broken as another word for error, in any case; nothing inherited from Object counts as one', () => {
    expect(parseRoute('#/skills?health=broken')).toMatchObject({ filter: { health: 'error' }, unknown: [] });
    expect(parseRoute('#/skills?health=Broken')).toMatchObject({ filter: { health: 'error' }, unknown: [] });
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(parseRoute(`#/skills?health=${word}`)).toMatchObject({ filter: { health: '' }, unknown: [{ key: 'health', value: word }] });
  });

  it('says an unknown filter with what it takes', () => {
    expect(unknownFilterText({ key: 'health', value: 'bogus', choices: ['error', 'warnings', 'ok'] })).toBe(
      'unknown filter health=bogus; try error, warnings, ok',
    );
    expect(unknownFilterText({ key: 'helth', value: null, choices: ['q', 'health'] })).toBe('unknown filter helth; try q, health');
    expect(unknownFilterText({ key: 'status', value: 'gold', choices: [] })).toBe('unknown filter status=gold; no skill here has one');
  });

  it('writes what it reads', () => {
    const routes: Route[] = [
      { screen: 'approvals' },
      { screen: 'packs' },
      { screen: 'skills', query: 'a b&c', filter: { offered: true, source: 'trust:user', role: 'sidecar', status: 'stable', health: 'error' }, unknown: [] },
      { screen: 'skill', name: 'my-skill', view: { kind: 'section', section: 'Q & A — more', file: 'docs/x y.md' } },
      { screen: 'skill', name: 'my-skill', view: { kind: 'section', section: 'Usage', file: null } },
      { screen: 'skill', name: 'my-skill', view: { kind: 'file', path: 'a/b#c.txt' } },
      { screen: 'history', run: 'id-1', filter: { skill: 'git', status: 'denied', surface: 'http' }, unknown: [] },
      { screen: 'history', run: null, filter: { skill: '', status: null, surface: null }, unknown: [] },
    ];
    for (const route of routes) expect(parseRoute(routeHref(route))).toEqual(route);
  });
});
