import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { MAX_SKILL_MD_BYTES } from '../../../src-main/core/skills/skill-file.js';
import type { SkillRoot } from '../../../src-main/shared/model.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

const root = (path: string): SkillRoot => ({ path, kind: 'env', trust: 'user', syntax: 'angle' });
const GOOD = skillMd({ name: 'demo', description: 'A demo skill.', version: '1.0.0' }, '# Demo\n');

function loadBytes(content: string | Buffer, files: Record<string, string | Buffer> = {}) {
  const base = tempDir();
  return parseSkill(writeSkill(base, 'demo', content, files), root(base));
}

describe('the loader never crashes, whatever is on disk', () => {
  it('reads a file with a UTF-8 BOM', () => {
    expect(loadBytes(`\uFEFF${GOOD}`).state).toBe('ok');
  });

  it('reads CRLF and lone-CR line endings with the same line numbers', () => {
    const crlf = loadBytes(`---\r\nname: demo\r\ndescription: A demo.\r\nmodes: [Work]\r\n---\r\n`);
    expect(crlf.diagnostics).toEqual([expect.objectContaining({ code: 'W411', line: 4 })]);
    expect(loadBytes(GOOD.replace(/\n/g, '\r')).state).toBe('ok');
  });

  it('reports a binary SKILL.md', () => {
    const skill = loadBytes(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0xff]));
    expect(skill.diagnostics).toEqual([expect.objectContaining({ code: 'E418', message: 'SKILL.md is binary (it contains NUL bytes)' })]);
  });

  it('reports invalid UTF-8', () => {
    const skill = loadBytes(Buffer.concat([Buffer.from('---\nname: demo\n'), Buffer.from([0xc3, 0x28]), Buffer.from('\n---\n')]));
    expect(skill.diagnostics[0]).toMatchObject({ code: 'E418', message: 'SKILL.md is not valid UTF-8' });
  });

  it('refuses a huge SKILL.md without reading it', () => {
    const skill = loadBytes(GOOD + 'x'.repeat(MAX_SKILL_MD_BYTES));
    expect(skill.diagnostics[0]).toMatchObject({ code: 'E418' });
    expect(skill.diagnostics[0]?.message).toMatch(/bytes; Skilltray reads SKILL.md files up to/);
  });

  it('refuses a YAML alias bomb (billion laughs)', () => {
    const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      levels.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    }
    // Expanded, this is 9^9 strings: refusing it is what lets the test finish at all.
    const skill = loadBytes(`---\nname: demo\ndescription: bomb\n${levels.join('\n')}\n---\n`);
    expect(skill.diagnostics[0]).toMatchObject({ code: 'E402' });
    expect(skill.diagnostics[0]?.message).toMatch(/aliases expand too far/);
  });

  it('never shares parsed frontmatter between skills with the same text', () => {
    const base = tempDir();
    const first = parseSkill(writeSkill(base, 'demo', GOOD), root(base));
    const second = parseSkill(writeSkill(tempDir(), 'demo', GOOD), root(base));
    expect(second.frontmatter).not.toBe(first.frontmatter);
    first.frontmatter.description = 'changed after loading';
    expect(parseSkill(second.dir, root(base)).frontmatter.description).toBe('A demo skill.');
    expect(second.frontmatter.description).toBe('A demo skill.');
  });

  it('survives a symlink loop and a symlink out of the skill', () => {
    const base = tempDir();
    const dir = writeSkill(base, 'demo', GOOD, { 'refs/a.md': '# A\n' });
    symlinkSync(dir, join(dir, 'refs', 'loop'));
    symlinkSync('/etc', join(dir, 'outside'));
    symlinkSync(join(dir, 'missing'), join(dir, 'dangling'));
    const skill = parseSkill(dir, root(base));
    expect(skill.state).toBe('warnings');
    expect(skill.diagnostics.map((d) => [d.code, d.message])).toEqual([['W412', "symlink 'outside' leads outside the skill and was skipped"]]);
  });

  it('reports a SKILL.md that is a directory', () => {
    const base = tempDir();
    mkdirSync(join(base, 'demo', 'SKILL.md'), { recursive: true });
    const skill = parseSkill(join(base, 'demo'), root(base));
    expect(skill.diagnostics[0]).toMatchObject({ code: 'E418', message: 'SKILL.md is a directory, not a file' });
  });

  it('turns any bytes into a Skill with diagnostics, never an exception', () => {
    const base = tempDir();
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 400 }),
      fc.uint8Array({ maxLength: 400 }).map((a) => Buffer.from(a)),
      fc
        .tuple(fc.string({ maxLength: 120 }), fc.string({ maxLength: 200 }))
        .map(([yaml, body]) => `---\n${yaml}\n---\n${body}`),
      fc
        .array(fc.constantFrom('###', '####', 'Command', 'Parameters', '```', '|', '---', '<<', '>>', '{{', '}}', ':', '"', "'", '\\', '\n', ' ', 'x'), { maxLength: 80 })
        .map((parts) => `${GOOD}${parts.join('')}`),
    );
    fc.assert(
      fc.property(text, (content) => {
        writeFileSync(join(base, 'SKILL.md'), content);
        const skill = parseSkill(base, root(base));
        expect(['ok', 'warnings', 'error']).toContain(skill.state);
        for (const d of skill.diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });
});
