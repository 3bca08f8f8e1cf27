/**
 * Fetching what a source serves, every file verified before it is kept. For each entry of its
 * listing (and for each approved skill the listing leaves out: a listing may be partial, so its
 * `skills/get` is asked): the entry is checked (served-entry.ts); each file is read, refused past
 * SERVED_LIMITS, and its bytes must have the digest the entry lists; the SKILL.md read must carry the
 * very frontmatter the entry does, field by field; and `skills/get` asked once more must give the same
 * set, or the skill changed under Skilltray's feet. Only a skill that passes all of it has its files
 * kept (by digest); a refused one keeps nothing and says why.
 */
import { isDeepStrictEqual } from 'node:util';
import { SERVED_LIMITS } from '../../shared/served.js';
import { servedErrors } from '../../shared/error-messages/served.js';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import { hashBytes } from '../files/hash.js';
import { frontmatterJson } from '../skills/frontmatter-json.js';
import { checkEntry, type ValidEntry } from './served-entry.js';
import type { McpLink } from './mcp-link.js';
import type { SeenSkill, SourceFiles, SourceState } from './source-files.js';

/** Bytes one fetch of a source may take over all its skills. */
export const MAX_SOURCE_BYTES = 128 * 1024 * 1024;

/** A refused skill: what it was served as, and why (nothing of it is kept). */
function refused(uri: string, error: unknown, gone = false): SeenSkill {
  return { uri, description: '', frontmatter: {}, files: [], digest: null, refusal: toSkilltrayError(error).toJSON(), gone };
}

/** Whether every file of `entry` is kept already, verified when it was fetched. */
function kept(files: SourceFiles, source: string, entry: ValidEntry, known: SeenSkill | undefined): boolean {
  return known?.digest === entry.digest && known.refusal === null && entry.files.every((file) => files.hasBlob(source, file.digest));
}

/** Fetches and verifies one valid entry's files; returns them by digest with their sizes filled in. */
async function fetchFiles(link: McpLink, source: string, entry: ValidEntry, budget: { left: number }): Promise<Map<string, Buffer>> {
  const bytes = new Map<string, Buffer>();
  let total = 0;
  for (const file of entry.files) {
    const data = await link.read(file.uri);
    total += data.length;
    budget.left -= data.length;
    if (total > SERVED_LIMITS.bytes) {
      throw servedErrors.tooLarge(
        `served skill '${source}.${entry.name}' holds more than ${SERVED_LIMITS.bytes} bytes`,
        `${SERVED_LIMITS.bytes / 1024 / 1024} MiB a skill`,
        {
          source,
          uri: entry.uri,
        },
      );
    }
    if (budget.left < 0)
      throw servedErrors.tooLarge(`MCP source '${source}' serves more than one fetch takes`, `${MAX_SOURCE_BYTES / 1024 / 1024} MiB`, { source });
    const digest = hashBytes(data);
    if (digest !== file.digest)
      throw servedErrors.unverified(source, file.uri, `its bytes have the digest sha256:${digest}, not the sha256:${file.digest} its entry lists`);
    if (file.path === 'SKILL.md') {
      const frontmatter = frontmatterJson(data);
      if (frontmatter === null || !isDeepStrictEqual(frontmatter, JSON.parse(JSON.stringify(entry.frontmatter)))) {
        throw servedErrors.unverified(source, file.uri, 'its frontmatter is not the one its entry lists, field for field');
      }
    }
    file.size = data.length;
    bytes.set(file.digest, data);
  }
  return bytes;
}

/** One entry taken in: checked, its files fetched and verified (or kept from before), asked for again to see it stood still. */
async function takeEntry(
  link: McpLink,
  files: SourceFiles,
  source: string,
  entry: ValidEntry,
  known: SeenSkill | undefined,
  budget: { left: number },
  signal: AbortSignal | undefined,
): Promise<SeenSkill> {
  const seen = {
    uri: entry.uri,
    description: entry.description,
    frontmatter: entry.frontmatter,
    files: entry.files,
    digest: entry.digest,
    refusal: null,
    gone: false,
  };
  if (kept(files, source, entry, known)) {
    seen.files = (known as SeenSkill).files;
    return seen;
  }
  try {
    const bytes = await fetchFiles(link, source, entry, budget);
    const again = checkEntry(source, await link.get(entry.uri));
    if (!again.ok || again.entry.digest !== entry.digest) {
      throw servedErrors.changed(
        `${source}.${entry.name}`,
        'changed while Skilltray fetched it (skills/get gave another set of files than the one read): it is refused until it holds still',
      );
    }
    for (const [digest, data] of bytes) files.putBlob(source, digest, data);
    return seen;
  } catch (error) {
    // A fetch given up (its deadline, its source removed) fails as a whole: it refuses no skill.
    signal?.throwIfAborted();
    return refused(entry.uri, error);
  }
}

/**
 * Fetches everything `source` serves into `state.skills` (by served name). An entry that cannot even
 * be named is kept under `#<n>`. Failures of the whole source (unreachable, a listing past its bounds)
 * throw, as does `signal` aborting (with its reason); a skill's own failure is its refusal.
 */
export async function fetchSource(
  link: McpLink,
  files: SourceFiles,
  source: string,
  state: SourceState,
  signal?: AbortSignal,
): Promise<Record<string, SeenSkill>> {
  const listed = await link.list();
  const skills: Record<string, SeenSkill> = {};
  const valid = new Map<string, ValidEntry>();
  const budget = { left: MAX_SOURCE_BYTES };
  listed.forEach((raw, index) => {
    const checked = checkEntry(source, raw);
    if (!checked.ok) {
      skills[checked.name ?? `#${index + 1}`] ??= refused(checked.uri, checked.error);
      return;
    }
    const { name, uri } = checked.entry;
    const other = valid.get(name) ?? (skills[name] === undefined ? undefined : { uri: skills[name].uri });
    if (other !== undefined) {
      // Two entries of one name: neither is taken for the other, and both are said to clash.
      const why = `it shares the name '${name}' with ${JSON.stringify(other.uri)}, and Skilltray names a served skill by its name`;
      skills[name] = refused(uri, servedErrors.invalidEntry(source, uri, why));
      valid.delete(name);
      return;
    }
    valid.set(name, checked.entry);
  });
  for (const [name, entry] of valid) skills[name] = await takeEntry(link, files, source, entry, state.skills[name], budget, signal);
  // An approved skill the listing leaves out is asked for by its URI: a listing may be partial.
  for (const [name, approved] of Object.entries(state.approved)) {
    if (skills[name] !== undefined) continue;
    let entry: unknown;
    try {
      entry = await link.get(approved.uri);
    } catch (error) {
      signal?.throwIfAborted();
      skills[name] = refused(approved.uri, error, true);
      continue;
    }
    const checked = checkEntry(source, entry);
    skills[name] =
      checked.ok && checked.entry.name === name
        ? await takeEntry(link, files, source, checked.entry, state.skills[name], budget, signal)
        : refused(approved.uri, checked.ok ? servedErrors.invalidEntry(source, approved.uri, 'skills/get answered with another skill') : checked.error);
  }
  return skills;
}
