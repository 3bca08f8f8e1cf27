/** Hash routes: every screen and its state is a `#/…` address, so links, Back and reloads work. */
import { RUN_STATUSES, SURFACES, type RunStatus, type Surface } from '../../src-main/shared/runs.js';

/** What the skill page shows next to the skill's overview. */
export type SkillView = { kind: 'overview' } | { kind: 'section'; section: string; file: string | null } | { kind: 'file'; path: string };

/** The skill browser's filters; empty strings mean "any". */
export interface SkillFilter {
  /** Only skills offered in the current mode. */
  offered: boolean;
  /** `trust:bundled`, `trust:user`, or a root kind (`env`, `home`, `bundled`, …). */
  source: string;
  role: string;
  /** Classification status (stable, experimental, …). */
  status: string;
  /** Load state: ok, warnings or error. */
  health: string;
}

/** No filter at all. */
export const NO_SKILL_FILTER: SkillFilter = { offered: false, source: '', role: '', status: '', health: '' };

export interface HistoryFilter {
  skill: string;
  status: RunStatus | null;
  surface: Surface | null;
}

export type Route =
  | { screen: 'approvals' }
  | { screen: 'tray' }
  | { screen: 'palette' }
  | { screen: 'skills'; query: string; filter: SkillFilter }
  | { screen: 'skill'; name: string; view: SkillView }
  | { screen: 'history'; filter: HistoryFilter; run: string | null }
  | { screen: 'settings' }
  | { screen: 'packs' }
  | { screen: 'missing'; path: string };

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return values.find((v) => v === value) ?? null;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Reads a route from `location.hash` (`#/skills/git?section=Usage`); the empty hash is the skill browser. */
export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  const path = (q === -1 ? raw : raw.slice(0, q)).replace(/^\/+|\/+$/g, '');
  const params = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  const [head = '', ...rest] = path.split('/');
  const tail = rest.map(decode).join('/');
  switch (head) {
    case '':
      return { screen: 'skills', query: '', filter: NO_SKILL_FILTER };
    case 'approvals':
      return rest.length === 0 ? { screen: 'approvals' } : { screen: 'missing', path };
    case 'tray':
      return rest.length === 0 ? { screen: 'tray' } : { screen: 'missing', path };
    case 'palette':
      return rest.length === 0 ? { screen: 'palette' } : { screen: 'missing', path };
    case 'settings':
      return rest.length === 0 ? { screen: 'settings' } : { screen: 'missing', path };
    case 'packs':
      return rest.length === 0 ? { screen: 'packs' } : { screen: 'missing', path };
    case 'skills': {
      if (tail === '') {
        const filter: SkillFilter = {
          offered: params.get('offered') === '1',
          source: params.get('source') ?? '',
          role: params.get('role') ?? '',
          status: params.get('status') ?? '',
          health: params.get('health') ?? '',
        };
        return { screen: 'skills', query: params.get('q') ?? '', filter };
      }
      const section = params.get('section');
      const file = params.get('file');
      const open = params.get('open');
      const view: SkillView = section !== null ? { kind: 'section', section, file } : open !== null ? { kind: 'file', path: open } : { kind: 'overview' };
      return { screen: 'skill', name: tail, view };
    }
    case 'history':
      return {
        screen: 'history',
        run: tail === '' ? null : tail,
        filter: {
          skill: params.get('skill') ?? '',
          status: oneOf(RUN_STATUSES, params.get('status')),
          surface: oneOf(SURFACES, params.get('surface')),
        },
      };
    default:
      return { screen: 'missing', path };
  }
}

function withQuery(path: string, params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== null && value !== undefined && value !== '') search.set(key, value);
  const query = search.toString();
  return `#/${path}${query === '' ? '' : `?${query}`}`;
}

/** The `#/…` address of a route (parseRoute's inverse). */
export function routeHref(route: Route): string {
  switch (route.screen) {
    case 'approvals':
    case 'tray':
    case 'palette':
    case 'settings':
    case 'packs':
      return `#/${route.screen}`;
    case 'skills':
      return withQuery('skills', {
        q: route.query,
        offered: route.filter.offered ? '1' : null,
        source: route.filter.source,
        role: route.filter.role,
        status: route.filter.status,
        health: route.filter.health,
      });
    case 'skill': {
      const path = `skills/${encodeURIComponent(route.name)}`;
      const { view } = route;
      if (view.kind === 'section') return withQuery(path, { section: view.section, file: view.file });
      if (view.kind === 'file') return withQuery(path, { open: view.path });
      return `#/${path}`;
    }
    case 'history':
      return withQuery(route.run === null ? 'history' : `history/${encodeURIComponent(route.run)}`, {
        skill: route.filter.skill,
        status: route.filter.status,
        surface: route.filter.surface,
      });
    case 'missing':
      return `#/${route.path}`;
  }
}

/** Shorthand for links to a skill page. */
export function skillHref(name: string, view: SkillView = { kind: 'overview' }): string {
  return routeHref({ screen: 'skill', name, view });
}
