import { describe, expect, it } from 'vitest';
import { isPromptSkill } from '../../../src-main/core/skills/prompt-skill.js';

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
