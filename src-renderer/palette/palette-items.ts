/**
 * The palette's list from what the core answered: tools first (the search's tool hits in its
 * order, then the tools of the skills discover ranked, in its order), then skills (discover's, and
 * those whose name starts with what was typed), then sections (the search's other hits). Nothing
 * is re-ranked here: each answer keeps the core's order and only duplicates are dropped. With
 * nothing typed, the tools run lately come first, then every other everyday tool (no sidecars).
 */
import type { DiscoverResult } from '../../src-main/shared/agent.js';
import type { SearchHit } from '../../src-main/shared/gateway.js';
import type { SkillSummary } from '../../src-main/shared/model.js';

/** A tool as the palette lists and runs it. */
export type PaletteTool = SkillSummary['tools'][number];

export type PaletteItem =
  | { kind: 'tool'; key: string; skill: string; tool: PaletteTool; offered: boolean; hit: SearchHit | null }
  | { kind: 'skill'; key: string; skill: string; description: string; reason: string | null }
  | { kind: 'section'; key: string; hit: SearchHit };

export interface PaletteGroup {
  label: 'Tools' | 'Skills' | 'Sections';
  items: PaletteItem[];
}

/** Most entries per group, so every group stays in view. */
export const GROUP_LIMITS = { tools: 8, toolsPerOtherSkill: 2, skills: 5, sections: 6, browse: 60 } as const;

export interface PaletteAnswers {
  query: string;
  discovered: readonly DiscoverResult[];
  hits: readonly SearchHit[];
  skills: readonly SkillSummary[];
  /** Tools run lately, newest first (from history): what the empty palette offers first. */
  recent?: readonly { skill: string; tool: string }[];
}

/** A skill whose tools are meant to be attached to a target (a sidecar), not run by hand for a job. */
function attachOnly(skill: SkillSummary): boolean {
  return skill.role === 'sidecar' || skill.invocation === 'attach';
}

/** The palette's groups, empty ones left out; with nothing typed, the tools run lately, then the other everyday tools offered in this mode. */
export function paletteGroups({ query, discovered, hits, skills, recent = [] }: PaletteAnswers): PaletteGroup[] {
  const byName = new Map(skills.map((s) => [s.name, s]));
  const tools: PaletteItem[] = [];
  const seenTools = new Set<string>();
  const addTool = (skillName: string, toolName: string, hit: SearchHit | null): void => {
    const skill = byName.get(skillName);
    const tool = skill?.tools.find((t) => t.name === toolName);
    const key = `tool:${skillName}/${toolName}`;
    if (!skill || !tool || seenTools.has(key)) return;
    seenTools.add(key);
    tools.push({ kind: 'tool', key, skill: skillName, tool, offered: skill.offered, hit });
  };

  if (query.trim() === '') {
    const everyday = skills.filter((skill) => skill.offered && skill.status !== 'error' && !attachOnly(skill));
    const runnable = new Set(everyday.map((skill) => skill.name));
    for (const run of recent) if (runnable.has(run.skill)) addTool(run.skill, run.tool, null);
    for (const skill of everyday) for (const tool of skill.tools) addTool(skill.name, tool.name, null);
    const items = tools.slice(0, GROUP_LIMITS.browse);
    return items.length === 0 ? [] : [{ label: 'Tools', items }];
  }

  for (const hit of hits) if (hit.tool !== null) addTool(hit.skill, hit.tool.name, hit);
  // Every tool of the first skill discover found with tools, then a couple of each other's.
  let first = true;
  for (const found of discovered) {
    if (found.tools.length === 0) continue;
    for (const tool of first ? found.tools : found.tools.slice(0, GROUP_LIMITS.toolsPerOtherSkill)) addTool(found.name, tool, null);
    first = false;
  }

  const skillItems: PaletteItem[] = [];
  const seenSkills = new Set<string>();
  const addSkill = (name: string, reason: string | null): void => {
    const skill = byName.get(name);
    if (!skill || seenSkills.has(name)) return;
    seenSkills.add(name);
    skillItems.push({ kind: 'skill', key: `skill:${name}`, skill: name, description: skill.description, reason });
  };
  const typed = query.trim().toLowerCase();
  for (const skill of skills) if (skill.name.toLowerCase().startsWith(typed)) addSkill(skill.name, null);
  for (const found of discovered) addSkill(found.name, found.reason);

  const sections: PaletteItem[] = hits
    .filter((hit) => hit.tool === null)
    .map((hit) => ({ kind: 'section' as const, key: `section:${hit.skill}\n${hit.file}\n${hit.section}\n${hit.line}`, hit }));

  const groups: PaletteGroup[] = [
    { label: 'Tools', items: tools.slice(0, GROUP_LIMITS.tools) },
    { label: 'Skills', items: skillItems.slice(0, GROUP_LIMITS.skills) },
    { label: 'Sections', items: sections.slice(0, GROUP_LIMITS.sections) },
  ];
  return groups.filter((g) => g.items.length > 0);
}
