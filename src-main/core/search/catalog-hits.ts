/**
 * What the all-skills catalog does with ranked rows before anyone sees them: a section and the
 * sections around it (its parent holds its text, its subsections part of it) become one hit, the
 * best-ranked of them; tools then come first (see toolsFirst), the other sections grouped by
 * skill, groups in the order of their best hit.
 */

/** Where a catalog row sits in its file: enough to tell whether one section holds another. */
export interface RowPlace {
  skill: string;
  file: string;
  /** Heading level 1–6; 0 for text before the first heading or a plain-text file. */
  level: number;
  startLine: number;
  endLine: number;
}

/** Whether section `outer` holds section `inner` (its heading and every line of it). */
export function holds(outer: RowPlace, inner: RowPlace): boolean {
  return (
    outer.skill === inner.skill &&
    outer.file === inner.file &&
    outer.level > 0 &&
    inner.level > outer.level &&
    outer.startLine <= inner.startLine &&
    inner.endLine <= outer.endLine
  );
}

/** Keeps, best first, each row that no better-ranked kept row holds or is held by: parent and child become one hit. */
export function mergeNested<T extends RowPlace>(ranked: readonly T[]): T[] {
  const kept: T[] = [];
  for (const row of ranked) {
    if (!kept.some((k) => holds(k, row) || holds(row, k))) kept.push(row);
  }
  return kept;
}

/** Orders hits by skill, each skill where its best hit ranked, hits within it in rank order. */
export function groupBySkill<T extends { skill: string }>(ranked: readonly T[]): T[] {
  const groups = new Map<string, T[]>();
  for (const hit of ranked) {
    const group = groups.get(hit.skill);
    if (group) group.push(hit);
    else groups.set(hit.skill, [hit]);
  }
  return [...groups.values()].flat();
}

/** How strong an untitled tool's match must be, against the strongest untitled hit's, to come before the sections (see toolsFirst). */
export const TOOL_FLOOR = 0.5;

/**
 * The order hits are shown in, each group in rank order: the tools whose name holds every word
 * that was asked for, the sections whose heading does ("commit message" is the commit-message
 * guide's own title), the other tools that match at least TOOL_FLOOR as strongly as the best of
 * the rest, then the rest grouped by skill. A person looking for a job wants the tool that does it,
 * and a heading that says exactly what was typed is the next best; but a tool that only shares a
 * word or two with the query ("merge and split pdfs on the command line" and a file finder) is no
 * better than the prose that answers it. `rank` is BM25 (negative, best lowest). A tool is one hit:
 * of two of its sections that matched apart (its Parameters and its Examples), the first in this
 * order stands for it.
 */
export function toolsFirst<T extends { skill: string; tool: string | null; titled: boolean; rank: number }>(ranked: readonly T[]): T[] {
  const rest = ranked.filter((hit) => !hit.titled);
  const best = Math.min(0, ...rest.map((hit) => hit.rank));
  const strong = (hit: T): boolean => hit.tool !== null && (best === 0 || hit.rank <= best * TOOL_FLOOR);
  const ordered = [
    ...ranked.filter((hit) => hit.titled && hit.tool !== null),
    ...ranked.filter((hit) => hit.titled && hit.tool === null),
    ...rest.filter(strong),
    ...groupBySkill(rest.filter((hit) => !strong(hit))),
  ];
  const seen = new Set<string>();
  return ordered.filter((hit) => {
    if (hit.tool === null) return true;
    const key = `${hit.skill}\n${hit.tool}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A heading row with what it sits under: `trail` holds the enclosing headings, outermost first. */
export interface PlacedHeading {
  section: string;
  level: number;
  trail: string[];
}

/** The enclosing headings of each row of one file, rows in document order. */
export function headingTrails(rows: readonly { section: string; level: number }[]): PlacedHeading[] {
  const open: { level: number; text: string }[] = [];
  return rows.map((row) => {
    if (row.level === 0) return { section: row.section, level: 0, trail: [] };
    while (open.length > 0 && (open[open.length - 1] as { level: number }).level >= row.level) open.pop();
    const trail = open.map((h) => h.text);
    open.push({ level: row.level, text: row.section });
    return { section: row.section, level: row.level, trail };
  });
}

/** The tool a SKILL.md section documents: its own heading or the nearest enclosing one that names a tool. */
export function toolOf(heading: PlacedHeading, tools: ReadonlySet<string>): string | null {
  if (tools.has(heading.section) && heading.level > 0) return heading.section;
  for (let i = heading.trail.length - 1; i >= 0; i--) {
    const enclosing = heading.trail[i] as string;
    if (tools.has(enclosing)) return enclosing;
  }
  return null;
}
