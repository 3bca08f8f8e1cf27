/**
 * Where a symlink inside a pack leads, worked out segment by segment the way the kernel would,
 * through the pack's other links, without touching anything outside the pack: so a chain of
 * links that each stay inside by themselves (`l -> ..`, `m -> l/..`) is still seen leaving it.
 */

/** What a path inside the tree is, as far as resolving a link needs: a link (with its target) or anything else. */
export type LookupLink = (rel: string) => string | null;

/** Most links followed while resolving one, as the kernel's own limit (ELOOP). */
const MAX_HOPS = 40;

/**
 * The path inside the tree (`/`-separated segments) the link at `rel` with `target` leads to, or
 * null when it leaves the tree, is absolute, or loops. A segment that is not in the tree stops
 * the kernel there, so counting it as a folder can only refuse more, never less.
 */
export function linkDestination(rel: string, target: string, lookup: LookupLink): string[] | null {
  let hops = 0;
  const follow = (from: string[], to: string): string[] | null => {
    if (to.startsWith('/') || to === '') return null;
    let at = [...from];
    for (const segment of to.split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        if (at.length === 0) return null;
        at.pop();
        continue;
      }
      at.push(segment);
      const next = lookup(at.join('/'));
      if (next === null) continue;
      if (++hops > MAX_HOPS) return null;
      const resolved = follow(at.slice(0, -1), next);
      if (resolved === null) return null;
      at = resolved;
    }
    return at;
  };
  return follow(rel.split('/').slice(0, -1), target);
}
