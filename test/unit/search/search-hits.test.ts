/**
 * The one result model: a tool found by what a caller sees of it (never by the fixed flags its
 * Command adds), tools first, sections titled by their trail, common words left out, rows holding
 * some of the words when none holds them all, scores from 0 to 1, one skill searched alone.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkillCatalog, type CatalogSkill } from '../../../src-main/core/search/catalog.js';
import { searchHits } from '../../../src-main/core/search/search-hits.js';
import { callerFacingCommand } from '../../../src-main/core/search/tool-text.js';
import { manifestHash, walkSkill } from '../../../src-main/core/skills/walk.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import type { Skill } from '../../../src-main/shared/model.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';

const tool = (name: string, description: string, command: string, params = '| repo | string | no | Repository directory |') => `
### ${name}

${description}

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
${params}

#### Command

\`\`\`bash
${command}
\`\`\`
`;

const HARDENED = 'git -c core.fsmonitor=false -c log.showSignature=false -C <<repo:.>>';

const GIT = `# Git

Read a repository.

## Tools
${tool('git_status', 'Show the current branch and every changed file.', `${HARDENED} status --short --branch`)}
${tool('git_log', 'List recent commits, newest first.', `${HARDENED} log -n <<count:10>>`, '| count | integer | no | How many commits |\n| repo | string | no | Repository directory |')}
`;

const NOTES = `# Notes

## Reading the log

The log of a repository lists its commits; the status shows what changed since.
`;

function loaded(parent: string, name: string, body: string): { entry: CatalogSkill; skill: Skill } {
  const dir = makeSkill(parent, name, { 'SKILL.md': `---\nname: ${name}\ndescription: ${name} skill\n---\n${body}` });
  const skill = parseSkill(dir, { path: parent, kind: 'env', trust: 'user', syntax: 'angle' });
  return { entry: { name, dir, hash: manifestHash(walkSkill(dir).files), commands: { syntax: skill.syntax, tools: skill.tools } }, skill };
}

function catalogOf(...skills: { entry: CatalogSkill; skill: Skill }[]): { catalog: SkillCatalog; skillOf: (name: string) => Skill | undefined } {
  const catalog = SkillCatalog.open(tempDir());
  catalog.sync(skills.map((s) => s.entry));
  return { catalog, skillOf: (name) => skills.find((s) => s.skill.name === name)?.skill };
}

describe('what a search reads of a tool', () => {
  it.each([
    [`${HARDENED} status --short --branch`, 'git ‹repo› status'],
    [`${HARDENED} log --no-ext-diff -n <<count:10>> --date=short "--format=%h %ad %an: %s" -- <<path>>`, 'git ‹repo› log ‹count› ‹path›'],
    ['df -h -t ext4 -t xfs -- <<path>>', 'df ‹path›'],
    ['ps -A -o pid,ppid,pcpu,pmem,comm --sort=-<<sort:pcpu>>', 'ps ‹sort›'],
    ['ping -c <<count:3>> -W 2 <<host>>', 'ping ‹count› ‹host›'],
    ['getent hosts <<name>>', 'getent hosts ‹name›'],
    ['/usr/bin/find <<dir:.>> -maxdepth <<depth:4>> -name <<pattern>>', 'find ‹dir› ‹depth› ‹pattern›'],
    ['echo "unterminated', 'echo'],
  ])('%s → %s', (command, words) => {
    expect(callerFacingCommand(command, 'angle')).toBe(words);
  });
});

describe('search hits', () => {
  it("a tool's fixed flags neither match nor show: only git_log is found for log, and no snippet shows a flag", () => {
    const { catalog, skillOf } = catalogOf(loaded(tempDir(), 'git', GIT));
    const result = searchHits(catalog.search('log'), skillOf);
    expect(result.results.map((hit) => `${hit.kind}:${hit.section}`)).toEqual(['tool:git_log']);
    for (const hit of searchHits(catalog.search('git'), skillOf).results) expect(hit.snippet).not.toMatch(/fsmonitor|showSignature|-c /);
    catalog.close();
  });

  it('a tool hit is the tool: its name, one line, its parameters, opening at its heading; it comes before sections', () => {
    const roots = tempDir();
    const git = loaded(roots, 'git', GIT);
    const { catalog, skillOf } = catalogOf(git, loaded(roots, 'notes', NOTES));
    const [first, ...rest] = searchHits(catalog.search('commits'), skillOf).results;
    const line = git.skill.tools.find((t) => t.name === 'git_log')?.line;
    expect(first).toMatchObject({
      kind: 'tool',
      skill: 'git',
      section: 'git_log',
      title: 'git_log',
      trail: ['Git', 'Tools'],
      line,
      rank: 1,
      tool: {
        name: 'git_log',
        summary: 'List recent commits, newest first.',
        params: [
          { name: 'count', type: 'integer', required: false, default: '10' },
          { name: 'repo', type: 'string', required: false, default: '.' },
        ],
      },
    });
    // The section under "Notes" is titled by the heading it sits under and its own.
    expect(rest.find((hit) => hit.skill === 'notes')).toMatchObject({ kind: 'section', tool: null, title: 'Notes › Reading the log' });
    catalog.close();
  });

  it('tools come first even when a section ranks higher; scores run from 0 to 1 and ranks from 1', () => {
    const roots = tempDir();
    const { catalog, skillOf } = catalogOf(loaded(roots, 'git', GIT), loaded(roots, 'notes', NOTES));
    const result = searchHits(catalog.search('log'), skillOf);
    expect(result.results.map((hit) => hit.kind)).toEqual(['tool', 'section']);
    expect(result.results.map((hit) => hit.rank)).toEqual([1, 2]);
    expect(Math.max(...result.results.map((hit) => hit.score))).toBe(1);
    for (const hit of result.results) expect(hit.score).toBeGreaterThan(0);
    catalog.close();
  });

  it('common words are left out while others remain, so a question finds its tool', () => {
    const { catalog, skillOf } = catalogOf(loaded(tempDir(), 'git', GIT));
    expect(searchHits(catalog.search('what is my current branch'), skillOf).results[0]).toMatchObject({ section: 'git_status', tool: { name: 'git_status' } });
    catalog.close();
  });

  it('when no row holds every word, the rows holding some answer, and say so', () => {
    const { catalog, skillOf } = catalogOf(loaded(tempDir(), 'git', GIT));
    const result = searchHits(catalog.search('branch zeppelin'), skillOf);
    expect(result).toMatchObject({ matched: 'any', results: [{ section: 'git_status' }] });
    // Search-as-you-type first takes the typed word as a prefix; finding nothing so, it answers as the full search does.
    expect(catalog.search('branch zeppel', { prefix: true })).toMatchObject({ matched: 'any', results: [{ section: 'git_status' }] });
    expect(catalog.search('branch stat', { prefix: true })).toMatchObject({ matched: 'all', results: [{ section: 'git_status' }] });
    catalog.close();
  });

  it("one skill's search holds only its rows; syncing one skill leaves the others as they were", () => {
    const roots = tempDir();
    const git = loaded(roots, 'git', GIT);
    const notes = loaded(roots, 'notes', NOTES);
    const { catalog } = catalogOf(git, notes);
    expect(catalog.search('log', { skill: 'notes' }).results.map((hit) => hit.skill)).toEqual(['notes']);
    expect(catalog.syncOne(git.entry)).toMatchObject({ added: [], updated: [], removed: [], unchanged: 1 });
    expect(catalog.skills().map((s) => s.name)).toEqual(['git', 'notes']);
    catalog.close();
  });

  it('a catalog in memory holds a skill read by path for one search, and leaves nothing on disk', () => {
    const parent = tempDir();
    const git = loaded(parent, 'git', GIT);
    const catalog = SkillCatalog.inMemory();
    catalog.sync([git.entry]);
    expect(catalog.search('log').results.map((hit) => hit.tool)).toEqual(['git_log']);
    catalog.close();
    expect(walkSkill(join(parent, 'git')).files.map((f) => f.rel)).toEqual(['SKILL.md']);
  });
});
