/**
 * Where a served skill stands, from what its source served when last fetched and what the person
 * approved: read by the loader (light: nothing here fetches or diffs). A skill is loaded exactly
 * when it is `approved`: served now as a valid entry whose `{uri, digest}` set is the one approved.
 */
import type { ServedSkillState } from '../../shared/served.js';
import { servedErrors } from '../../shared/error-messages/served.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import type { ApprovedSkill, SeenSkill, SourceFiles } from './source-files.js';

/** The frontmatter fields that widen what a run gets: honoured for a served skill only once the person approves them too. */
export const WIDENING_FIELDS = ['reads', 'writes', 'limits', 'network', 'allowed-tools'] as const;

/** The widening fields `frontmatter` declares, as written. */
export function declaredWidening(frontmatter: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(WIDENING_FIELDS.filter((key) => frontmatter[key] !== undefined).map((key) => [key, frontmatter[key]]));
}

/** Whether a skill seen as `seen` is the one approved as `approved`: loaded then, and only then. */
export function isLoaded(seen: SeenSkill | undefined, approved: ApprovedSkill | undefined): boolean {
  return seen !== undefined && approved !== undefined && seen.refusal === null && seen.digest === approved.digest;
}

export function stateOf(seen: SeenSkill, approved: ApprovedSkill | undefined): ServedSkillState {
  if (seen.refusal !== null) return seen.gone ? 'gone' : 'refused';
  if (approved === undefined) return 'pending';
  return seen.digest === approved.digest ? 'approved' : 'changed';
}

/**
 * Why `<source>.<skill>` is not loaded though its source serves it (E869: it waits for the person's
 * approval, changed since, or is refused), or null when it is no such skill.
 */
export function notLoaded(files: SourceFiles, full: string): SkilltrayError | null {
  const dot = full.indexOf('.');
  if (dot <= 0) return null;
  const [source, skill] = [full.slice(0, dot), full.slice(dot + 1)];
  if (!files.sources().some((record) => record.name === source)) return null;
  const state = files.state(source);
  const seen = state.skills[skill];
  if (seen === undefined) return null;
  const how = `see it with 'skilltray sources' (or Settings › Sources) and approve it`;
  switch (stateOf(seen, state.approved[skill])) {
    case 'pending':
      return servedErrors.notServed(full, `waits for your approval before it is loaded: ${how}`);
    case 'changed':
      return servedErrors.notServed(full, `changed on its server since you approved it, so it is not loaded until you approve it again: ${how}`);
    case 'approved':
      return null;
    default:
      return servedErrors.notServed(full, `is refused: ${seen.refusal?.message ?? 'its server no longer serves it'}`);
  }
}
