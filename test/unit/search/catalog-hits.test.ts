import { describe, expect, it } from 'vitest';
import { groupBySkill, headingTrails, holds, mergeNested, toolOf, TOOL_FLOOR, toolsFirst } from '../../../src-main/core/search/catalog-hits.js';

const at = (skill: string, level: number, startLine: number, endLine: number, file = 'SKILL.md') => ({ skill, file, level, startLine, endLine });

describe('catalog hits', () => {
  it('a section holds the sections inside its lines, in the same file of the same skill only', () => {
    const git = at('git', 1, 1, 100);
    const status = at('git', 3, 10, 30);
    expect(holds(git, status)).toBe(true);
    expect(holds(status, git)).toBe(false);
    expect(holds(git, at('git', 3, 10, 30, 'other.md'))).toBe(false);
    expect(holds(git, at('files', 3, 10, 30))).toBe(false);
    // Text before the first heading holds nothing.
    expect(holds(at('git', 0, 1, 5), at('git', 1, 2, 4))).toBe(false);
    expect(holds(status, at('git', 3, 30, 40))).toBe(false);
  });

  it('merges a section with what holds it and what it holds, keeping the better-ranked one', () => {
    const rows = [
      { ...at('git', 3, 10, 30), id: 'git_status' },
      { ...at('git', 1, 1, 100), id: 'Git' },
      { ...at('git', 4, 20, 30), id: 'Examples of git_status' },
      { ...at('git', 3, 30, 50), id: 'git_log' },
      { ...at('git', 2, 5, 100), id: 'Tools' },
    ];
    expect(mergeNested(rows).map((r) => r.id)).toEqual(['git_status', 'git_log']);
  });

  it('groups hits by skill in the order of each skill’s best hit', () => {
    const hits = ['a1', 'b1', 'a2', 'c1', 'b2'].map((id) => ({ skill: id[0] as string, id }));
    expect(groupBySkill(hits).map((h) => h.id)).toEqual(['a1', 'a2', 'b1', 'b2', 'c1']);
  });

  it('puts tools first and makes each tool one hit: two of its sections that matched apart count once', () => {
    const hit = (skill: string, tool: string | null, section: string, rank: number, titled = false) => ({ skill, tool, section, rank, titled });
    const ranked = [
      hit('git', 'git_show', 'git_show', -10),
      hit('git', 'git_log', 'Examples', -9),
      hit('notes', null, 'Log', -8),
      hit('git', 'git_log', 'Parameters', -7),
      hit('git', 'git_diff', 'git_diff', -2, true),
    ];
    expect(toolsFirst(ranked).map((h) => `${h.skill}/${h.tool ?? '-'}/${h.section}`)).toEqual([
      'git/git_diff/git_diff',
      'git/git_show/git_show',
      'git/git_log/Examples',
      'notes/-/Log',
    ]);
  });

  it('a tool that matches far more weakly than the best of the rest keeps its place among the sections', () => {
    const hit = (skill: string, tool: string | null, section: string, rank: number) => ({ skill, tool, section, rank, titled: false });
    const ranked = [
      hit('pdf', null, 'Merge pages', -20),
      hit('notes', null, 'Split files', -12),
      hit('files', 'find_files', 'find_files', -20 * TOOL_FLOOR + 1),
    ];
    expect(toolsFirst(ranked).map((h) => h.section)).toEqual(['Merge pages', 'Split files', 'find_files']);
    const strong = [...ranked.slice(0, 2), hit('files', 'find_files', 'find_files', -20 * TOOL_FLOOR)];
    expect(toolsFirst(strong).map((h) => h.section)).toEqual(['find_files', 'Merge pages', 'Split files']);
  });

  it('gives each heading the headings it sits under, and each tool section its tool', () => {
    const placed = headingTrails([
      { section: '', level: 0 },
      { section: 'Git', level: 1 },
      { section: 'Tools', level: 2 },
      { section: 'git_status', level: 3 },
      { section: 'Examples', level: 4 },
      { section: 'git_log', level: 3 },
      { section: 'Notes', level: 2 },
    ]);
    expect(placed.map((p) => p.trail)).toEqual([[], [], ['Git'], ['Git', 'Tools'], ['Git', 'Tools', 'git_status'], ['Git', 'Tools'], ['Git']]);
    const tools = new Set(['git_status', 'git_log']);
    expect(placed.map((p) => toolOf(p, tools))).toEqual([null, null, null, 'git_status', 'git_status', 'git_log', null]);
  });
});
