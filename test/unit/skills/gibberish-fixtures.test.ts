import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { SkillRegistry } from '../../../src-main/core/skills/registry.js';
import { renderCommand } from '../../../src-main/core/template/render-command.js';
import type { Skill } from '../../../src-main/shared/model.js';
import { tempDir, testHome } from '../../support/temp.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'gibberish-skills');

const TOOLS = {
  files: ['find_files', 'list_directory', 'read_file', 'file_info', 'word_count'],
  git: ['git_status', 'git_log', 'git_diff', 'git_branch', 'git_stash_list'],
  summarize: ['summarize_url', 'summarize_file', 'summarize_youtube', 'extract_content'],
};

describe("gibb.eri.sh's own skills load with their tools", () => {
  it('from gibb.eri.sh’s app-data dir: braces placeholders by root, trusted as user skills', () => {
    const t = testHome();
    const gibbRoot = join(t.userHome, '.local', 'share', 'gibb.eri.sh', 'skills');
    mkdirSync(gibbRoot, { recursive: true });
    cpSync(FIXTURES, gibbRoot, { recursive: true });
    const registry = new SkillRegistry(t.config().roots).load();
    for (const [name, tools] of Object.entries(TOOLS)) {
      const skill = registry.get(name);
      expect(skill?.root.kind).toBe('gibberish');
      expect(skill?.trust).toBe('user');
      expect(skill?.syntax).toBe('braces');
      expect(skill?.tools.map((t) => t.name)).toEqual(tools);
      expect(skill?.state).not.toBe('error');
      expect(skill?.diagnostics.map((d) => d.code).filter((c) => c === 'W410')).toEqual([]);
    }
    expect(registry.get('git')).toMatchObject({ modes: ['Dev', 'Global'], readOnly: true, timeoutSec: 15, version: '1.0.0' });
    expect(registry.get('summarize')?.frontmatter).toMatchObject({ author: 'gibb.eri.sh', network: true });
    expect(registry.get('summarize')?.tools[0]?.examples).toContain('User: summarize this webpage');
    expect(registry.get('git')?.tools.find((t) => t.name === 'git_diff')?.params.map((p) => [p.name, p.type, p.required])).toEqual([
      ['staged', 'boolean', false],
      ['file', 'string', false],
    ]);
  });

  it('from any other root: detected by their {{param}} commands and reported (W410), still loaded', () => {
    const t = testHome();
    const registry = new SkillRegistry(t.config({ SKILLTRAY_SKILLS_PATH: FIXTURES }).roots).load();
    for (const [name, tools] of Object.entries(TOOLS)) {
      const skill = registry.get(name);
      expect(skill?.syntax).toBe('braces');
      expect(skill?.tools.map((t) => t.name)).toEqual(tools);
      expect(skill?.diagnostics.filter((d) => d.code === 'W410')).toHaveLength(1);
    }
  });

  it('reads `{{folder:-onlyin}}` in the real find_files as the option form: no warning, `-onlyin <folder>` or nothing', () => {
    const t = testHome();
    const skill = new SkillRegistry(t.config({ SKILLTRAY_SKILLS_PATH: FIXTURES }).roots).load().get('files') as Skill;
    expect(skill.diagnostics.filter((d) => d.code === 'W409')).toEqual([]);
    expect(renderCommand(skill, 'find_files', { query: 'report' }, { cwd: '/' })).toMatchObject({ program: 'mdfind', args: ['-name', 'report'] });
    expect(renderCommand(skill, 'find_files', { query: 'report', folder: '/Users/me' }, { cwd: '/' }).args).toEqual(['-name', 'report', '-onlyin', '/Users/me']);
  });

  it('still warns (W409) where a dash-led fallback of a non-boolean cannot be an option', () => {
    const dir = join(tempDir(), 'odd');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'SKILL.md'),
      '---\nname: odd\ndescription: d\nversion: 1.0.0\n---\n### go\n\nGo.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| dir | string | no | d |\n| n | integer | no | n |\n\n#### Command\n\n```bash\nfind --in=<<dir:-here>> <<n:-1>>\n```\n',
    );
    const skill = parseSkill(dir, { path: dirname(dir), kind: 'env', trust: 'user', syntax: 'angle' });
    expect(skill.diagnostics.filter((d) => d.code === 'W409').map((d) => d.message)).toEqual([
      "tool go: <<dir:-here>> looks like a flag, but '-here' shares its argument with other text, so it cannot stand as an option: it is passed as the default value of the string 'dir'",
      "tool go: <<n:-1>> looks like a flag, but '-1' is not an option name: it is passed as the default value of the integer 'n'",
    ]);
  });
});
