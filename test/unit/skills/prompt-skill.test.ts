import { describe, expect, it } from 'vitest';
import type { SkillRoot } from '../../../src-main/shared/model.js';
import { isPromptSkill } from '../../../src-main/core/skills/prompt-skill.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { summarize } from '../../../src-main/core/skill-summary.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

describe('isPromptSkill', () => {
  it.each([
    ['Review $ARGUMENTS for bugs.\n', true],
    ['# Notes\n\n- from the person: $ARGUMENTS\n', true],
    ['Write `$ARGUMENTS` where the words go, and $ARGUMENTS is filled.\n', true],
    ['A prompt skill uses `$ARGUMENTS` where the words go.\n', false],
    ['Example:\n\n```\nReview $ARGUMENTS\n```\n', false],
    ['    indented code: $ARGUMENTS\n', false],
    ['Nothing to fill in.\n', false],
  ])('%j → %s', (body, expected) => {
    expect(isPromptSkill({ body })).toBe(expected);
  });
});

describe('a parsed skill says whether it is a prompt skill', () => {
  it('as isPromptSkill says of its body, with or without frontmatter, and the summary every surface lists says the same', () => {
    const root: SkillRoot = { path: tempDir(), kind: 'env', trust: 'user', syntax: 'angle' };
    const cases = [
      ['prompt', skillMd({ name: 'prompt', description: 'A prompt.' }, 'Review $ARGUMENTS for bugs.\n'), true],
      ['guide', skillMd({ name: 'guide', description: 'A guide.' }, 'Write `$ARGUMENTS` where the words go.\n'), false],
      ['bare', 'No frontmatter, and $ARGUMENTS all the same.\n', true],
    ] as const;
    for (const [name, text, expected] of cases) {
      const skill = parseSkill(writeSkill(root.path, name, text), root);
      expect(skill.prompt, name).toBe(expected);
      expect(summarize(skill, 'Global').prompt, name).toBe(expected);
    }
  });
});
