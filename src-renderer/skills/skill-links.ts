/** Where links inside a skill's Markdown lead, in the hash router's terms. */
import { skillHref } from '../app/route.js';

const EXTERNAL = /^(https?:|mailto:)/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Resolves `target` against the directory of `file` (both skill-relative, `/`-separated); null if it leaves the skill. */
export function resolveSkillPath(file: string, target: string): string | null {
  if (target.startsWith('/') || target.startsWith('\\')) return null;
  const parts = file.split('/').slice(0, -1);
  for (const part of target.split(/[?#]/)[0]?.split('/') ?? []) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(decodeURIComponentSafe(part));
    }
  }
  return parts.length === 0 ? null : parts.join('/');
}

function decodeURIComponentSafe(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Where a link in `file` of `skill` should go: a route, an outside address, or nowhere (null). */
export function linkTarget(skill: string, file: string, href: string): { href: string; external: boolean } | null {
  if (EXTERNAL.test(href)) return { href, external: true };
  if (SCHEME.test(href)) return null;
  if (href.startsWith('#')) {
    const section = decodeURIComponentSafe(href.slice(1)).replace(/-/g, ' ').trim();
    return section === '' ? null : { href: skillHref(skill, { kind: 'section', section, file }), external: false };
  }
  const path = resolveSkillPath(file, href);
  return path === null ? null : { href: skillHref(skill, { kind: 'file', path }), external: false };
}
