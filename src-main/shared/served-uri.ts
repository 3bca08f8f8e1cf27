/**
 * `skill://` URIs (SEP-2640's resource mapping): `skill://<skill-path>/<file-path>`, SKILL.md always
 * written out, the skill's folder itself `skill://<skill-path>` without a trailing slash. Each path
 * segment is percent-encoded on the way out and decoded one segment at a time on the way in, so an
 * encoded `/` or `..` can never make a segment of its own: a decoded segment that is empty, `.`,
 * `..`, hidden, or holds a slash, a backslash or a control character is refused with the reason.
 */

export const SKILL_SCHEME = 'skill://';

/** The URI of `rel` (a `/`-separated path in the skill; '' for the skill's folder) in the skill at `skillPath`. */
export function skillFileUri(skillPath: string, rel = ''): string {
  const base = `${SKILL_SCHEME}${skillPath.split('/').map(encodeURIComponent).join('/')}`;
  return rel === '' ? base : `${base}/${rel.split('/').map(encodeURIComponent).join('/')}`;
}

/** Why a decoded path segment cannot name a file of a skill, or null when it can. */
export function segmentFault(segment: string): string | null {
  if (segment === '') return 'an empty path segment';
  if (segment === '.' || segment === '..') return `a '${segment}' segment`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(segment)) return 'a control character (NUL included)';
  if (segment.includes('/') || segment.includes('\\')) return 'a slash or backslash inside a segment';
  if (segment.startsWith('.')) return `a hidden name ('${segment}'), which Skilltray never reads in a skill`;
  return null;
}

/** The path the percent-encoded `raw` (segments separated by `/`) names, or why it names none. */
export function decodePath(raw: string): { ok: true; rel: string } | { ok: false; why: string } {
  if (raw.startsWith('/')) return { ok: false, why: 'an absolute path' };
  const segments: string[] = [];
  for (const part of raw.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return { ok: false, why: `a segment that is not valid percent-encoding ('${part}')` };
    }
    const fault = segmentFault(segment);
    if (fault !== null) return { ok: false, why: fault };
    segments.push(segment);
  }
  return { ok: true, rel: segments.join('/') };
}

/**
 * A URI Skilltray serves, read back: the skill (the first segment: Skilltray serves every skill at the
 * top, `skill://<name>/…`) and the encoded rest ('' for the skill's folder); null for any other URI.
 */
export function splitServedUri(uri: string): { skill: string; rest: string } | null {
  if (!uri.startsWith(SKILL_SCHEME)) return null;
  const after = uri.slice(SKILL_SCHEME.length);
  const slash = after.indexOf('/');
  const head = slash === -1 ? after : after.slice(0, slash);
  let skill: string;
  try {
    skill = decodeURIComponent(head);
  } catch {
    return null;
  }
  if (skill === '' || segmentFault(skill) !== null) return null;
  return { skill, rest: slash === -1 ? '' : after.slice(slash + 1) };
}

/** The type a served file is read as: Markdown, other text, or bytes. */
export function servedMimeType(rel: string, encoding: 'utf-8' | 'base64'): string {
  if (encoding === 'base64') return 'application/octet-stream';
  return /\.(md|markdown)$/i.test(rel) ? 'text/markdown' : 'text/plain';
}
