/**
 * A `skills/list` or `skills/get` entry from another MCP server, checked against the SEP's rules
 * before anything of it is fetched or written: a `skill://` URI whose last segment is the skill's
 * name (an Agent Skills slug) and equals the frontmatter's; `resources` listing SKILL.md and every
 * other file exactly once, each inside the skill's own URI, with a `sha256:` digest; no path that is
 * absolute, climbs out, hides, holds a NUL or a backslash, or collides with another once case and
 * Unicode are folded (one would overwrite the other on such a filesystem); within SERVED_LIMITS.
 * What passes is all a later step ever turns into a path, and only under the cache's own folders.
 */
import { hashBytes } from '../files/hash.js';
import { compareBytewise } from '../files/paths.js';
import { SERVED_LIMITS } from '../../shared/served.js';
import { SKILL_SCHEME, decodePath } from '../../shared/served-uri.js';
import { servedErrors } from '../../shared/error-messages/served.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';

/** The Agent Skills name rule (core/skills/fields.ts's SLUG), which a served skill's name must keep. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DIGEST = /^sha256:([0-9a-f]{64})$/;
/** Longest URI taken, and deepest path: far past any real skill, short of what a filesystem refuses. */
const MAX_URI = 2048;
const MAX_DEPTH = 32;
/** A file name's bytes, as most filesystems allow (ENAMETOOLONG past it). */
const MAX_SEGMENT_BYTES = 255;
/** A file's path in its skill, in bytes: joined under `<home>/mcp/skills/<source>.<skill>/` it stays far short of PATH_MAX (4096). */
const MAX_PATH_BYTES = 1024;

/** One file of a served skill as Skilltray records it: its path in the skill, its URI on the server, its SHA-256 (hex) and size once fetched. */
export interface FileRecord {
  path: string;
  uri: string;
  digest: string;
  size: number;
}

/** An entry that keeps every rule. */
export interface ValidEntry {
  uri: string;
  /** Its name: the URI's last segment and the frontmatter's `name`. */
  name: string;
  description: string;
  frontmatter: Record<string, unknown>;
  /** Sorted by path; `size` is 0 until fetched. */
  files: FileRecord[];
  /** SHA-256 over the `{uri, digest}` set: what an approval is bound to. */
  digest: string;
}

export type CheckedEntry = { ok: true; entry: ValidEntry } | { ok: false; name: string | null; uri: string; error: SkilltrayError };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The digest of a `{uri, digest}` set: SHA-256 over `uri NUL sha256:hex LF`, sorted bytewise by URI. */
export function setDigest(files: readonly Pick<FileRecord, 'uri' | 'digest'>[]): string {
  const lines = files.map((file) => `${file.uri}\0sha256:${file.digest}\n`).sort(compareBytewise);
  return hashBytes(lines.join(''));
}

/** The key two paths collide under on a filesystem that folds case or Unicode forms. */
const foldKey = (path: string): string => path.normalize('NFC').toLowerCase();

/** Checks one entry `source` served; never throws. */
export function checkEntry(source: string, raw: unknown): CheckedEntry {
  const uri = isRecord(raw) && typeof raw.uri === 'string' ? raw.uri.slice(0, MAX_URI) : '(an entry without a uri)';
  let name: string | null = null;
  const refuse = (why: string): CheckedEntry => ({ ok: false, name, uri, error: servedErrors.invalidEntry(source, uri, why) });
  if (!isRecord(raw) || typeof raw.uri !== 'string') return refuse('an entry must be an object with a uri');
  if (raw.uri.length > MAX_URI) return refuse(`a URI longer than ${MAX_URI} characters`);
  if (!uri.startsWith(SKILL_SCHEME)) return refuse('Skilltray takes skill:// URIs only');
  if (!uri.endsWith('/SKILL.md')) return refuse("a skill's uri must be its SKILL.md");
  const base = uri.slice(0, -'SKILL.md'.length);
  const skillPath = decodePath(base.slice(SKILL_SCHEME.length, -1));
  if (!skillPath.ok) return refuse(`its skill path holds ${skillPath.why}`);
  const last = skillPath.rel.split('/').at(-1) as string;
  if (!SLUG.test(last) || last.length > 64) return refuse(`the skill's name '${last}' is not lowercase letters, digits and single inner hyphens (at most 64)`);
  name = last;
  const { frontmatter, resources } = raw;
  if (!isRecord(frontmatter)) return refuse('its frontmatter must be an object');
  if (frontmatter.name !== name) return refuse(`its frontmatter names it ${JSON.stringify(frontmatter.name)}, not '${name}' as its URI does`);
  const description = frontmatter.description;
  if (typeof description !== 'string' || description.trim() === '') return refuse('its frontmatter has no description');
  if (resources === undefined) return refuse('it lists no resources, so its content cannot be pinned and Skilltray declines it');
  if (!Array.isArray(resources)) return refuse('its resources must be a list');
  if (resources.length > SERVED_LIMITS.files) {
    return {
      ok: false,
      name,
      uri,
      error: servedErrors.tooLarge(`served skill '${source}.${name}' lists ${resources.length} files`, `${SERVED_LIMITS.files} files`, { source, uri }),
    };
  }
  const files: FileRecord[] = [];
  const folded = new Map<string, string>();
  for (const resource of resources) {
    if (!isRecord(resource) || typeof resource.uri !== 'string' || typeof resource.digest !== 'string')
      return refuse('every resource needs a uri and a digest');
    const digest = DIGEST.exec(resource.digest);
    if (digest === null) return refuse(`the digest of ${JSON.stringify(resource.uri.slice(0, MAX_URI))} is not sha256:<64 lowercase hex digits>`);
    if (resource.uri.length > MAX_URI || !resource.uri.startsWith(base))
      return refuse(`${JSON.stringify(resource.uri.slice(0, MAX_URI))} is not a file inside the skill`);
    const path = decodePath(resource.uri.slice(base.length));
    if (!path.ok) return refuse(`${JSON.stringify(resource.uri)} has ${path.why}`);
    if (path.rel.split('/').length > MAX_DEPTH) return refuse(`${JSON.stringify(resource.uri)} lies more than ${MAX_DEPTH} folders deep`);
    if (path.rel.split('/').some((segment) => Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES))
      return refuse(`${JSON.stringify(resource.uri)} has a file or folder name longer than ${MAX_SEGMENT_BYTES} bytes`);
    if (Buffer.byteLength(path.rel, 'utf8') > MAX_PATH_BYTES) return refuse(`${JSON.stringify(resource.uri)} has a path longer than ${MAX_PATH_BYTES} bytes`);
    const clash = folded.get(foldKey(path.rel));
    if (clash !== undefined) return refuse(`'${path.rel}' and '${clash}' name the same file where case or Unicode forms fold`);
    folded.set(foldKey(path.rel), path.rel);
    files.push({ path: path.rel, uri: resource.uri, digest: digest[1] as string, size: 0 });
  }
  if (!folded.has(foldKey('SKILL.md')) || !files.some((file) => file.path === 'SKILL.md')) return refuse('its resources do not list its SKILL.md');
  files.sort((a, b) => compareBytewise(a.path, b.path));
  // A file that is also another's folder cannot be written: one of the two would have to go.
  const folders = new Set(
    files.flatMap((file) =>
      file.path
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  const both = files.find((file) => folders.has(file.path));
  if (both !== undefined) return refuse(`'${both.path}' is listed as a file and holds other files`);
  return { ok: true, entry: { uri, name, description, frontmatter, files, digest: setDigest(files) } };
}
