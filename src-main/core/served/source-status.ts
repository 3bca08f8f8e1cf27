/**
 * How a source's skills stand, in the terms the person approves them in: each skill's state, its
 * files, the digest approving it confirms, what changed since the approval (with the lines of each
 * text file), what it declares that would widen its runs, and any skill of the same name elsewhere.
 */
import type { McpSourceStatus, ServedFileChange, ServedSkillStatus } from '../../shared/served.js';
import { ROOT_WORDS } from '../../shared/identity-text.js';
import { textDiff } from '../packs/diff.js';
import { isText } from '../packs/scan.js';
import type { SkillRegistry } from '../skills/registry.js';
import type { FileRecord } from './served-entry.js';
import type { SeenSkill, SourceFiles, SourceRecord, SourceState } from './source-files.js';
import { declaredWidening, stateOf } from './served-state.js';

/** Files larger than this are not diffed line by line. */
const MAX_DIFF_BYTES = 1024 * 1024;

/** A blob as text for a diff, or why it is not shown. */
function side(files: SourceFiles, source: string, file: FileRecord | undefined): { text: string | null; omitted: 'binary' | 'too large' | null } {
  if (file === undefined) return { text: null, omitted: null };
  if (file.size > MAX_DIFF_BYTES) return { text: null, omitted: 'too large' };
  try {
    const bytes = files.blob(source, file.digest);
    return isText(bytes) ? { text: bytes.toString('utf8'), omitted: null } : { text: null, omitted: 'binary' };
  } catch {
    return { text: null, omitted: null };
  }
}

/** What differs between the approved files and the ones served now, each text file with its lines. */
export function changesSince(files: SourceFiles, source: string, before: readonly FileRecord[], after: readonly FileRecord[]): ServedFileChange[] {
  const was = new Map(before.map((file) => [file.path, file]));
  const now = new Map(after.map((file) => [file.path, file]));
  const changes: ServedFileChange[] = [];
  for (const path of [...new Set([...was.keys(), ...now.keys()])].sort()) {
    const a = was.get(path);
    const b = now.get(path);
    if (a?.digest === b?.digest) continue;
    const change = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    const [x, y] = [side(files, source, a), side(files, source, b)];
    const omitted = x.omitted ?? y.omitted;
    changes.push({ path, change, diff: omitted !== null ? { lines: [], more: 0, omitted } : textDiff(x.text, y.text) });
  }
  return changes;
}

/** Another skill the served one could be taken for: one of its bare name, or one of its full name from another root (which wins it). */
function clashOf(registry: SkillRegistry, full: string, skill: string): string | null {
  const local = registry.get(skill);
  const same = registry.get(full);
  if (same !== undefined && same.root.kind !== 'mcp') return `'${full}' in ${ROOT_WORDS[same.root.kind]} (${same.dir}) has its name and hides it`;
  if (local === undefined || local.root.kind === 'mcp') return null;
  return `your skill '${skill}' in ${ROOT_WORDS[local.root.kind]} (${local.dir}) has its name: it is '${full}' here and never stands in for yours`;
}

/** One skill of `source` as the person sees it. */
export function skillStatus(files: SourceFiles, registry: SkillRegistry, source: string, name: string, state: SourceState): ServedSkillStatus {
  const seen = state.skills[name] as SeenSkill;
  const approved = state.approved[name];
  const status = stateOf(seen, approved);
  const shown = seen.refusal !== null && approved !== undefined ? approved.files : seen.files;
  const full = `${source}.${name}`;
  return {
    name: full,
    skill: name,
    uri: seen.uri,
    description: seen.description,
    state: status,
    refusal: seen.refusal,
    files: shown.map((file) => ({ path: file.path, digest: `sha256:${file.digest}`, size: file.size })),
    digest: seen.refusal === null ? seen.digest : null,
    changes: status === 'changed' && approved !== undefined ? changesSince(files, source, approved.files, seen.files) : [],
    declares: declaredWidening(seen.frontmatter),
    grants: approved?.grants === true && status === 'approved',
    approvedAt: approved?.approvedAt ?? null,
    clash: clashOf(registry, full, name),
  };
}

/** A source and every skill it serves. */
export function sourceStatus(files: SourceFiles, registry: SkillRegistry, record: SourceRecord): McpSourceStatus {
  const state = files.state(record.name);
  const { transport } = record;
  return {
    name: record.name,
    endpoint:
      transport.kind === 'stdio'
        ? { kind: 'stdio', command: transport.command, args: transport.args, env: Object.keys(transport.env) }
        : { kind: 'http', url: transport.url, headers: Object.keys(transport.headers) },
    addedAt: record.addedAt,
    checkedAt: state.checkedAt,
    error: state.error,
    skills: Object.keys(state.skills)
      .sort()
      .map((name) => skillStatus(files, registry, record.name, name, state)),
  };
}
