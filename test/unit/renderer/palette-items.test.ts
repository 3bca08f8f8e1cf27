import { describe, expect, it } from 'vitest';
import type { DiscoverResult } from '../../../src-main/shared/agent.js';
import type { SearchHit } from '../../../src-main/shared/gateway.js';
import type { SkillSummary } from '../../../src-main/shared/model.js';
import { GROUP_LIMITS, paletteGroups } from '../../../src-renderer/palette/palette-items.js';

const summary = (name: string, tools: string[], extra: Partial<SkillSummary> = {}): SkillSummary =>
  ({
    name,
    description: `${name} skill`,
    tools: tools.map((t) => ({ name: t, description: '', params: [] })),
    offered: true,
    status: 'ok',
    ...extra,
  }) as SkillSummary;
const hit = (skill: string, section: string, tool: string | null = null): SearchHit => ({
  kind: tool === null ? 'section' : 'tool',
  skill,
  file: 'SKILL.md',
  section,
  title: section,
  trail: [],
  tool: tool === null ? null : { name: tool, summary: '', params: [] },
  line: 1,
  snippet: '',
  score: 1,
  rank: 1,
  errors: [],
});
const found = (name: string, tools: string[]): DiscoverResult => ({
  skill_id: name,
  name,
  score: 1,
  relevance: 1,
  role: 'utility',
  effect_mode: null,
  reason: `${name} fits`,
  tools,
  errors: [],
});

const SKILLS = [
  summary('git', ['git_status', 'git_log']),
  summary('system', ['disk_usage', 'port_listeners']),
  summary('notes', []),
  summary('gitlab', ['mr_list'], { offered: false }),
];
const keys = (groups: ReturnType<typeof paletteGroups>) => groups.map((g) => [g.label, g.items.map((i) => i.key)]);

describe('palette groups', () => {
  it('lists the tool hits of the search first, then the tools of what discover found, each once', () => {
    const groups = paletteGroups({
      query: 'git status',
      discovered: [found('git', ['git_status', 'git_log'])],
      hits: [hit('git', 'git_status', 'git_status'), hit('notes', 'Status')],
      skills: SKILLS,
    });
    expect(keys(groups)).toEqual([
      ['Tools', ['tool:git/git_status', 'tool:git/git_log']],
      ['Skills', ['skill:git']],
      ['Sections', ['section:notes\nSKILL.md\nStatus\n1']],
    ]);
  });

  it('takes every tool of the first skill discover found with tools, and two of each other one', () => {
    const skills = [...SKILLS, summary('files', ['ls', 'head', 'wc'])];
    const groups = paletteGroups({
      query: 'x',
      discovered: [found('notes', []), found('system', ['disk_usage', 'port_listeners']), found('files', ['ls', 'head', 'wc'])],
      hits: [],
      skills,
    });
    expect(keys(groups)[0]).toEqual(['Tools', ['tool:system/disk_usage', 'tool:system/port_listeners', 'tool:files/ls', 'tool:files/head']]);
  });

  it('offers skills whose name starts with what was typed, before discover’s, and says why discover chose one', () => {
    const groups = paletteGroups({ query: 'Git', discovered: [found('system', ['disk_usage'])], hits: [], skills: SKILLS });
    const skills = groups.find((g) => g.label === 'Skills')?.items ?? [];
    expect(skills.map((i) => i.key)).toEqual(['skill:git', 'skill:gitlab', 'skill:system']);
    expect(skills[2]).toMatchObject({ reason: 'system fits' });
  });

  it('with nothing typed, browses every tool offered in this mode; ignores names the list does not know', () => {
    expect(keys(paletteGroups({ query: ' ', discovered: [found('gone', ['x'])], hits: [hit('gone', 'x', 'x')], skills: SKILLS }))).toEqual([
      ['Tools', ['tool:git/git_status', 'tool:git/git_log', 'tool:system/disk_usage', 'tool:system/port_listeners']],
    ]);
  });

  it('with nothing typed, the tools run lately come first and a sidecar (attached, not run by hand) never shows', () => {
    const skills = [
      summary('artifact-checksum', ['checksum_artifact'], { role: 'sidecar', invocation: 'attach' }),
      summary('stamp', ['stamp_it'], { invocation: 'attach' }),
      ...SKILLS,
    ];
    const recent = [
      { skill: 'system', tool: 'disk_usage' },
      { skill: 'artifact-checksum', tool: 'checksum_artifact' },
      { skill: 'system', tool: 'disk_usage' },
      { skill: 'gitlab', tool: 'mr_list' },
    ];
    expect(keys(paletteGroups({ query: '', discovered: [], hits: [], skills, recent }))).toEqual([
      ['Tools', ['tool:system/disk_usage', 'tool:git/git_status', 'tool:git/git_log', 'tool:system/port_listeners']],
    ]);
  });

  it('keeps each group short and drops empty ones', () => {
    const many = Array.from({ length: 20 }, (_, i) => hit('git', `S${i}`));
    const groups = paletteGroups({ query: 'zzz', discovered: [], hits: many, skills: SKILLS });
    expect(keys(groups).map(([label]) => label)).toEqual(['Sections']);
    expect(groups[0]?.items).toHaveLength(GROUP_LIMITS.sections);
  });
});
