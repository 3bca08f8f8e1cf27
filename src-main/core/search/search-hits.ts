/**
 * Catalog hits as every surface shows them (the one result model, `SearchHit`): a hit on a tool is
 * the tool — its name, one line about it and what running it takes — opening at its own heading; any
 * other hit is a section titled by the heading it sits under and its own.
 */
import type { Skill, Tool } from '../../shared/model.js';
import type { SearchHit, SearchResult } from '../../shared/gateway.js';
import type { CatalogHit, CatalogResult } from './catalog.js';
import { toolBrief } from './tool-text.js';

/** Between the enclosing heading and the section's own in a title. */
export const TRAIL_SEPARATOR = ' › ';

/** Scores keep three decimals: enough to order by, short enough to read. */
const round = (score: number): number => Math.round(score * 1000) / 1000;

function toolHit(hit: CatalogHit, tool: Tool): Omit<SearchHit, 'rank' | 'errors'> {
  const at = hit.trail.indexOf(tool.name);
  return {
    kind: 'tool',
    skill: hit.skill,
    file: hit.file,
    section: tool.name,
    // The tool's own heading keeps its marks; a hit on one of its subsections is still the tool.
    title: hit.section === tool.name ? hit.title : tool.name,
    trail: at === -1 ? hit.trail : hit.trail.slice(0, at),
    tool: toolBrief(tool),
    line: tool.line,
    snippet: hit.snippet,
    score: round(hit.score),
  };
}

/** The title of a hit on a skill's description (in SKILL.md's frontmatter, before any heading). */
export const DESCRIPTION_TITLE = 'description';

function sectionHit(hit: CatalogHit): Omit<SearchHit, 'rank' | 'errors'> {
  const parent = hit.trail[hit.trail.length - 1];
  const title = hit.about ? DESCRIPTION_TITLE : hit.section === '' ? hit.file : parent === undefined ? hit.title : `${parent}${TRAIL_SEPARATOR}${hit.title}`;
  return {
    kind: 'section',
    skill: hit.skill,
    file: hit.file,
    section: hit.section,
    title,
    trail: hit.trail,
    tool: null,
    line: hit.startLine,
    snippet: hit.snippet,
    score: round(hit.score),
  };
}

/** What a search needs to know of a skill: its tools, and whether it is broken (its errors). */
export type SkillOf = (skill: string) => Pick<Skill, 'tools' | 'state' | 'diagnostics'> | undefined;

/** The codes of a skill's errors, when it has any (it will not run). */
export function skillErrors(skill: Pick<Skill, 'state' | 'diagnostics'> | undefined): string[] {
  if (skill?.state !== 'error') return [];
  return [...new Set(skill.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => diagnostic.code))];
}

/** Whether a skill is broken (has errors): the catalog ranks its hits last. */
export function brokenBy(skillOf: SkillOf): (skill: string) => boolean {
  return (skill) => skillOf(skill)?.state === 'error';
}

/** The line that says nothing matched: the query, the skill it was searched in, and what was probably meant. */
export function noResultsMessage(query: string, skill: string | null, didYouMean: string | null): string {
  return `no results for "${query}"${skill === null ? '' : ` in skill '${skill}'`}${didYouMean === null ? '' : `; did you mean "${didYouMean}"?`}`;
}

/**
 * The catalog's answer as search hits (`skill`: the one skill searched, or null); `skillOf` gives a
 * skill's tools (a tool it no longer has makes a section hit) and state. `suggest` is asked for what
 * was probably meant when nothing matched.
 */
export function searchHits(result: CatalogResult, skillOf: SkillOf, skill: string | null = null, suggest: () => string | null = () => null): SearchResult {
  const results = result.results.map((hit, i): SearchHit => {
    const owner = skillOf(hit.skill);
    const tool = hit.tool === null ? undefined : owner?.tools.find((t) => t.name === hit.tool);
    return { ...(tool === undefined ? sectionHit(hit) : toolHit(hit, tool)), rank: i + 1, errors: skillErrors(owner) };
  });
  const didYouMean = results.length === 0 ? suggest() : null;
  return {
    query: result.query,
    matched: result.matched,
    results,
    skill,
    message: results.length === 0 ? noResultsMessage(result.query, skill, didYouMean) : null,
    did_you_mean: didYouMean,
  };
}
