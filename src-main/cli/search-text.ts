/**
 * Search hits as a person reads them at a terminal: numbered, a tool as the tool (what it does,
 * what running it takes, the command that runs it), a section by the heading it sits under and its
 * own, then the matched text on one indented line, its matches emphasised (or plain when piped).
 */
import type { SearchHit, SearchResult } from '../shared/gateway.js';
import { toolNeeds } from '../shared/search-text.js';
import type { IndexingWork } from '../core/api.js';
import { emphasize } from './emphasis.js';

/** What a broken skill's hit says instead of how to run it: its errors, and the command that explains them. */
function brokenLine(hit: SearchHit): string {
  return `broken (${hit.errors.join(', ')}): it will not run until fixed · skilltray check ${hit.skill}`;
}

function hitLines(hit: SearchHit, on: boolean): string[] {
  const number = `${String(hit.rank).padStart(2)}.`;
  const snippet = hit.snippet === '' ? [] : [`    ${emphasize(hit.snippet, on)}`];
  const broken = hit.errors.length > 0;
  if (hit.tool !== null) {
    return [
      `${number} ${hit.skill}/${emphasize(hit.title, on)} — tool: ${hit.tool.summary}`,
      `    ${broken ? brokenLine(hit) : `${toolNeeds(hit.tool)} · skilltray run ${hit.skill} ${hit.tool.name}`}`,
      ...snippet,
    ];
  }
  const where = hit.section === '' ? hit.file : `${hit.file}:${hit.line}`;
  return [`${number} ${hit.skill}: ${emphasize(hit.title, on)} (${where})${broken ? ` — ${brokenLine(hit)}` : ''}`, ...snippet];
}

/** The hits, one block each; nothing when there are none. */
export function formatHits(result: SearchResult, on: boolean): string {
  return result.results.flatMap((hit) => hitLines(hit, on)).join('\n');
}

/** Above this many bytes to read, indexing takes long enough to say so. */
export const SLOW_INDEXING_BYTES = 4 * 1024 * 1024;

/** The stderr line before a slow indexing, or null for a quick one. */
export function indexingNote(work: IndexingWork): string | null {
  if (work.bytes < SLOW_INDEXING_BYTES) return null;
  const what = work.skills.length === 1 ? `'${work.skills[0] ?? ''}'` : `${work.skills.length} skills`;
  return `indexing ${what} for search (${(work.bytes / (1024 * 1024)).toFixed(0)} MB to read; later reads reuse the index)…`;
}
