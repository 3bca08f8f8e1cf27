import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkillRegistry } from '../../../src-main/core/skills/registry.js';
import { testHome } from '../../support/temp.js';

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

  it('flags `{{folder:-onlyin}}`: a flag-like default on a string parameter is passed as its value', () => {
    const t = testHome();
    const skill = new SkillRegistry(t.config({ SKILLTRAY_SKILLS_PATH: FIXTURES }).roots).load().get('files');
    expect(skill?.diagnostics.find((d) => d.code === 'W409')).toMatchObject({
      severity: 'warning',
      line: 25,
      message: "tool find_files: {{folder:-onlyin}} looks like a flag, but 'folder' is a string: '-onlyin' is passed as its default value",
    });
  });
});
