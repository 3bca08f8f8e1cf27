/**
 * Catalog hits as every surface shows them (the one result model, `SearchHit`): a hit on a tool is
 * the tool — its name, one line about it and what running it takes — opening at its own heading; any
 * other hit is a section titled by the heading it sits under and its own.
 */
import type { Tool } from '../../shared/model.js';
import type { SearchHit, SearchResult } from '../../shared/gateway.js';
import type { CatalogHit, CatalogResult } from './catalog.js';
import { toolBrief } from './tool-text.js';

/** Between the enclosing heading and the section's own in a title. */
export const TRAIL_SEPARATOR = ' › ';

/** Scores keep three decimals: enough to order by, short enough to read. */
const round = (score: number): number => Math.round(score * 1000) / 1000;

function toolHit(hit: CatalogHit, tool: Tool): Omit<SearchHit, 'rank'> {
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

function sectionHit(hit: CatalogHit): Omit<SearchHit, 'rank'> {
  const parent = hit.trail[hit.trail.length - 1];
  const title = hit.section === '' ? hit.file : parent === undefined ? hit.title : `${parent}${TRAIL_SEPARATOR}${hit.title}`;
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

/** The catalog's answer as search hits; `toolsOf` gives a skill's tools (a tool it no longer has makes a section hit). */
export function searchHits(result: CatalogResult, toolsOf: (skill: string) => readonly Tool[] | undefined): SearchResult {
  const results = result.results.map((hit, i): SearchHit => {
    const tool = hit.tool === null ? undefined : toolsOf(hit.skill)?.find((t) => t.name === hit.tool);
    return { ...(tool === undefined ? sectionHit(hit) : toolHit(hit, tool)), rank: i + 1 };
  });
  return { query: result.query, matched: result.matched, results };
}
