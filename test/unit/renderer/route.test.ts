import { describe, expect, it } from 'vitest';
import { NO_SKILL_FILTER, parseRoute, routeHref, type Route } from '../../../src-renderer/app/route.js';

describe('hash routes', () => {
  it('reads every screen', () => {
    expect(parseRoute('')).toEqual({ screen: 'skills', query: '', filter: NO_SKILL_FILTER });
    expect(parseRoute('#/')).toEqual({ screen: 'skills', query: '', filter: NO_SKILL_FILTER });
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
    });
    expect(parseRoute('#/elsewhere')).toEqual({ screen: 'missing', path: 'elsewhere' });
  });

  it('drops filter values the contract does not know', () => {
    expect(parseRoute('#/history?status=bogus&surface=fax')).toMatchObject({ filter: { status: null, surface: null } });
  });

  it('writes what it reads', () => {
    const routes: Route[] = [
      { screen: 'approvals' },
      { screen: 'packs' },
      { screen: 'skills', query: 'a b&c', filter: { offered: true, source: 'trust:user', role: 'sidecar', status: 'stable', health: 'error' } },
      { screen: 'skill', name: 'my-skill', view: { kind: 'section', section: 'Q & A — more', file: 'docs/x y.md' } },
      { screen: 'skill', name: 'my-skill', view: { kind: 'section', section: 'Usage', file: null } },
      { screen: 'skill', name: 'my-skill', view: { kind: 'file', path: 'a/b#c.txt' } },
      { screen: 'history', run: 'id-1', filter: { skill: 'git', status: 'denied', surface: 'http' } },
      { screen: 'history', run: null, filter: { skill: '', status: null, surface: null } },
    ];
    for (const route of routes) expect(parseRoute(routeHref(route))).toEqual(route);
  });
});
