/**
 * "Did you mean": which names an unknown one is taken for (core/did-you-mean.ts), which skills
 * (skills/skill-suggestions.ts, the folder's name and the name a SKILL.md declares), and the one
 * sentence every surface prints (shared/did-you-mean.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestNames } from '../../../src-main/core/did-you-mean.js';
import { skillNotFound, skillSuggestions } from '../../../src-main/core/skills/skill-suggestions.js';
import { didYouMeanText, withDidYouMean } from '../../../src-main/shared/did-you-mean.js';
import type { Skill } from '../../../src-main/shared/model.js';

const SKILLS = ['git', 'gh', 'system', 'disk-usage', 'research', 'meeting-notes'];

/** Just what suggestions read of a skill: its folder's name, its folder, its frontmatter. */
const skill = (name: string, declared = name): Skill => ({ name, dir: `/skills/${name}`, frontmatter: { name: declared } }) as unknown as Skill;

describe('nearestNames', () => {
  it.each([
    ['gti', ['git']],
    ['sytem', ['system']],
    ['Git', ['git']],
    ['SYSTEM', ['system']],
    ['disk_usage', ['disk-usage']],
    ['meeting', ['meeting-notes']],
    ['research', ['research']],
    ['zebra', []],
    ['x', []],
  ])('%s → %j', (wanted, expected) => {
    expect(nearestNames(wanted, SKILLS)).toEqual(expected);
  });

  it('orders the same word in other capitals first, then by edits, then by name, at most three', () => {
    expect(nearestNames('ab', ['AB', 'ac', 'ab', 'aa', 'ad', 'ba'])).toEqual(['ab', 'AB', 'aa']);
  });

  it('a word of fewer than three letters is no prefix of everything', () => {
    expect(nearestNames('me', ['meeting-notes'])).toEqual([]);
  });

  it('never suggests a name further than a typo from the word, whatever the names (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.array(fc.string({ maxLength: 12 }), { maxLength: 8 }), (wanted, names) => {
        const found = nearestNames(wanted, names);
        expect(found.length).toBeLessThanOrEqual(3);
        for (const name of found) expect(names).toContain(name);
        if (names.includes(wanted)) expect(found[0]).toBe(wanted);
      }),
    );
  });
});

describe('skillSuggestions', () => {
  it('finds a skill by the name its SKILL.md declares and says which folder holds it', () => {
    const skills = [skill('research', 'gemini-deep-research'), skill('git')];
    expect(skillSuggestions('gemini-deep-research', skills)).toEqual([{ name: 'research', dir: '/skills/research', declared_name: 'gemini-deep-research' }]);
    expect(skillSuggestions('gemini-deep-reserch', skills)).toEqual([{ name: 'research', dir: '/skills/research', declared_name: 'gemini-deep-research' }]);
  });

  it('names each skill once, by its folder, when both its names are near', () => {
    expect(skillSuggestions('Git', [skill('git', 'gits')])).toEqual([{ name: 'git', dir: '/skills/git' }]);
  });

  it("E001 keeps RFC-0005's message and carries the suggestions in details", () => {
    const error = skillNotFound('gti', [skill('git')]);
    expect(error).toMatchObject({
      code: 'E001',
      message: "skill 'gti' not found",
      details: { skill: 'gti', did_you_mean: [{ name: 'git', dir: '/skills/git' }] },
    });
  });
});

describe('the sentence', () => {
  it('is one suggestion, two joined by "or", or nothing', () => {
    expect(withDidYouMean("error[E001]: skill 'gti' not found", { did_you_mean: [{ name: 'git' }] })).toBe(
      "error[E001]: skill 'gti' not found; did you mean 'git'?",
    );
    expect(didYouMeanText({ did_you_mean: [{ name: 'git' }, { name: 'gh' }] })).toBe("did you mean 'git' or 'gh'?");
    expect(withDidYouMean('error[E001]: x', { did_you_mean: [] })).toBe('error[E001]: x');
    expect(didYouMeanText({ did_you_mean: 'git' })).toBeNull();
    expect(didYouMeanText(undefined)).toBeNull();
  });

  it('says the folder of a skill found by its declared name', () => {
    expect(didYouMeanText({ did_you_mean: [{ name: 'research', dir: '/skills/research', declared_name: 'gemini-deep-research' }] })).toBe(
      "did you mean 'research' (its SKILL.md says name: gemini-deep-research; folder /skills/research)?",
    );
  });
});
