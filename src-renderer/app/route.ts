/** Hash routes: every screen and its state is a `#/…` address, so links, Back and reloads work. */
import { ROLES } from '../../src-main/shared/model.js';
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

/** A filter in the address that means nothing here (left out, and said on screen): its key, its value (null: the key itself is unknown), what it takes. */
export interface UnknownFilter {
  key: string;
  value: string | null;
  choices: readonly string[];
}

/** What a person sees for an unknown filter: `unknown filter health=bogus; try error, warnings, ok`. */
export function unknownFilterText({ key, value, choices }: UnknownFilter): string {
  const named = value === null ? key : `${key}=${value}`;
  return choices.length === 0 ? `unknown filter ${named}; no skill here has one` : `unknown filter ${named}; try ${choices.join(', ')}`;
}

/** The skill browser's health values, as the address writes them, and other words for them. */
const HEALTH = ['error', 'warnings', 'ok'] as const;
const HEALTH_ALIASES: Readonly<Record<string, (typeof HEALTH)[number]>> = { broken: 'error', warning: 'warnings', healthy: 'ok' };
const SKILLS_KEYS = ['q', 'offered', 'source', 'role', 'status', 'health'] as const;
const HISTORY_KEYS = ['skill', 'status', 'surface'] as const;

export interface HistoryFilter {
  skill: string;
  status: RunStatus | null;
  surface: Surface | null;
}

export type Route =
  | { screen: 'approvals' }
  | { screen: 'tray' }
  | { screen: 'palette' }
  | { screen: 'skills'; query: string; filter: SkillFilter; unknown?: UnknownFilter[] }
  | { screen: 'skill'; name: string; view: SkillView }
  | { screen: 'history'; filter: HistoryFilter; run: string | null; unknown?: UnknownFilter[] }
  | { screen: 'settings' }
  | { screen: 'packs' }
  | { screen: 'missing'; path: string };

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return values.find((v) => v === value) ?? null;
}

/** The keys of `params` no filter of this screen reads. */
function unknownKeys(params: URLSearchParams, keys: readonly string[]): UnknownFilter[] {
  return [...new Set(params.keys())].filter((key) => !keys.includes(key)).map((key) => ({ key, value: null, choices: keys }));
}

/** `key`'s value when it is one of `values` ('' when absent); an unknown one is noted in `unknown` and read as absent. */
function checked<T extends string>(
  params: URLSearchParams,
  key: string,
  values: readonly T[],
  unknown: UnknownFilter[],
  aliases: Readonly<Record<string, T>> = {},
): T | '' {
  const value = params.get(key);
  if (value === null || value === '') return '';
  const alias = value.toLowerCase();
  const known = oneOf(values, value) ?? (Object.hasOwn(aliases, alias) ? (aliases[alias] as T) : null);
  if (known === null) unknown.push({ key, value, choices: values });
  return known ?? '';
}

/** The skill browser's filters in `params`; source and status take what the loaded skills have, so the screen checks those. */
function skillsRoute(params: URLSearchParams): Route {
  const unknown = unknownKeys(params, SKILLS_KEYS);
  const filter: SkillFilter = {
    offered: checked(params, 'offered', ['1'], unknown) === '1',
    source: params.get('source') ?? '',
    role: checked(params, 'role', ROLES, unknown),
    status: params.get('status') ?? '',
    health: checked(params, 'health', HEALTH, unknown, HEALTH_ALIASES),
  };
  return { screen: 'skills', query: params.get('q') ?? '', filter, unknown };
}

function historyRoute(run: string, params: URLSearchParams): Route {
  const unknown = unknownKeys(params, HISTORY_KEYS);
  const status = checked(params, 'status', RUN_STATUSES, unknown);
  const surface = checked(params, 'surface', SURFACES, unknown);
  return {
    screen: 'history',
    run: run === '' ? null : run,
    filter: { skill: params.get('skill') ?? '', status: status === '' ? null : status, surface: surface === '' ? null : surface },
    unknown,
  };
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
      return { screen: 'skills', query: '', filter: NO_SKILL_FILTER, unknown: [] };
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
      if (tail === '') return skillsRoute(params);
      const section = params.get('section');
      const file = params.get('file');
      const open = params.get('open');
      const view: SkillView = section !== null ? { kind: 'section', section, file } : open !== null ? { kind: 'file', path: open } : { kind: 'overview' };
      return { screen: 'skill', name: tail, view };
    }
    case 'history':
      return historyRoute(tail, params);
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
