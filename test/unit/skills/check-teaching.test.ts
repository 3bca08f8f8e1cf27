/** `check` that teaches (issue 39.8): YAML errors in words at their lines, every one; the Agent Skills guide's leniency; did-you-mean for a placeholder. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { MAX_FRONTMATTER_CHARS } from '../../../src-main/core/skills/frontmatter-limits.js';
import type { Skill, SkillRoot } from '../../../src-main/shared/model.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

const userRoot = (path: string): SkillRoot => ({ path, kind: 'env', trust: 'user', syntax: 'angle' });

function load(content: string, name = 'demo'): Skill {
  const root = tempDir();
  return parseSkill(writeSkill(root, name, content), userRoot(root));
}

const brief = (skill: Skill) => skill.diagnostics.map((d) => ({ code: d.code, line: d.line }));

describe('a plain value holding ": " (the Agent Skills client guide: be lenient on YAML)', () => {
  it('loads as the text it was meant to be, with a warning that shows the strict line', () => {
    const skill = load(skillMd('name: demo\ndescription: Deploy apps: use when deploying'));
    expect(skill.description).toBe('Deploy apps: use when deploying');
    expect(skill.state).toBe('warnings');
    expect(brief(skill)).toEqual([{ code: 'W419', line: 3 }]);
    expect(skill.diagnostics[0]?.message).toContain('write it strictly: description: "Deploy apps: use when deploying"');
  });

  it('folds a value that runs on to more indented lines, as YAML folds a plain scalar, and keeps every later line in place', () => {
    const skill = load(skillMd('name: demo\ndescription: Deploy apps: use when\n  deploying to production\nversion: 1.0.0\ntimeout: soon'));
    expect(skill.description).toBe('Deploy apps: use when deploying to production');
    expect(brief(skill)).toEqual([
      { code: 'W419', line: 3 },
      { code: 'E417', line: 6 },
    ]);
  });

  it('repairs nested keys too, and leaves a value that would hide a comment to the error', () => {
    const nested = load(skillMd('name: demo\ndescription: Demo. Use when asked.\nmetadata:\n  note: see this: it matters'));
    expect(nested.frontmatter.metadata).toEqual({ note: 'see this: it matters' });
    expect(brief(nested)).toEqual([{ code: 'W419', line: 5 }]);
    const comment = load(skillMd('name: demo\ndescription: Deploy: now # or later'));
    expect(brief(comment)).toEqual([{ code: 'E402', line: 3 }]);
    expect(comment.diagnostics[0]?.message).toContain('quote the value: description: "Deploy: now # or later"');
  });

  it('reads any such value (words and punctuation, no comment) exactly as its strictly quoted form reads', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9,.()!?' -]{0,12}$/).map((w) => w.trimEnd());
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 4 }), (words) => {
        const value = words.filter((w) => w !== '').join(': ');
        fc.pre(value.includes(': ') && !value.endsWith(':'));
        const lenient = load(skillMd(`name: demo\ndescription: ${value}`));
        const strict = load(skillMd(`name: demo\ndescription: ${JSON.stringify(value)}`));
        expect(lenient.diagnostics.map((d) => d.code)).toEqual(['W419']);
        expect(lenient.description).toBe(strict.description);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the size and depth defences: a bomb next to a colon value is still refused before parsing', () => {
    const deep = load(skillMd(`name: demo\ndescription: Deploy: now\nx: ${'['.repeat(5000)}${']'.repeat(5000)}`));
    expect(deep.diagnostics.map((d) => d.code)).toEqual(['E402']);
    expect(deep.diagnostics[0]?.message).toMatch(/nests .* levels deep/);
    const big = load(skillMd(`name: demo\ndescription: Deploy: now\nx: "${'a'.repeat(MAX_FRONTMATTER_CHARS)}"`));
    expect(big.diagnostics[0]?.message).toMatch(/characters; Skilltray reads at most/);
  });
});

describe('YAML errors, taught', () => {
  it('gives every error at its own line, each with the likely fix', () => {
    const skill = load(skillMd('name: demo\ndescription: Demo. Use when asked.\n\tversion: 1\nlicense: @MIT\nname: again'));
    expect(brief(skill)).toEqual([
      { code: 'E402', line: 4 },
      { code: 'E402', line: 5 },
      { code: 'E402', line: 6 },
    ]);
    const [tab, at, twice] = skill.diagnostics.map((d) => d.message);
    expect(tab).toContain('YAML indents with spaces only');
    expect(at).toContain("cannot start with '@' unquoted");
    expect(at).toContain('quote the value');
    expect(twice).toContain('written twice');
  });

  it('points an unclosed quote at the line it opens on, not where the text ends', () => {
    const skill = load(skillMd('name: demo\ndescription: "Demo. Use when asked.\nversion: 1.0.0\nlicense: MIT'));
    expect(brief(skill)).toEqual([{ code: 'E402', line: 3 }]);
    expect(skill.diagnostics[0]?.message).toContain('never closed');
  });
});

describe('a placeholder beside a parameter of a close name', () => {
  const tool = (placeholder: string) =>
    `\n### greet\n\nSay hello.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| name | string | yes | Who |\n\n#### Command\n\n\`\`\`\necho Hello, ${placeholder}!\n\`\`\`\n`;

  it('gets a did-you-mean naming the parameter, in the form it was written', () => {
    const skill = load(skillMd('name: demo\ndescription: Greets. Use when greeting.', tool('<<nmae:Ada>>')));
    const e411 = skill.diagnostics.find((d) => d.code === 'E411');
    expect(e411?.message).toContain("did you mean <<name:Ada>> (the parameter 'name')?");
  });

  it('and none when no parameter is close', () => {
    const skill = load(skillMd('name: demo\ndescription: Greets. Use when greeting.', tool('<<colour>>')));
    expect(skill.diagnostics.find((d) => d.code === 'E411')?.message).not.toContain('did you mean');
  });
});
