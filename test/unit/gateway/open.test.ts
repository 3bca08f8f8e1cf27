import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openFile } from '../../../src-main/core/gateway/open.js';
import type { OpenResult } from '../../../src-main/shared/gateway.js';
import { copyFixtureSkill, fixturePath, makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';
import { formatOpen } from '../../../src-main/cli/format/open.js';

/** The bytes a JSON open result stands for. */
function decoded(result: OpenResult): Buffer {
  return Buffer.from(result.content, result.encoding === 'base64' ? 'base64' : 'utf8');
}

describe('RFC-0002:C-OPEN', () => {
  it('returns the file as-is: BOM, CRLF and trailing spaces untouched', () => {
    const text = '\uFEFF# Title  \r\nline two\r\n';
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# S\n', 'docs/raw.md': text });
    const result = openFile(dir, 'docs/raw.md');
    expect(result).toEqual({ file: 'docs/raw.md', encoding: 'utf-8', content: text, size: Buffer.byteLength(text), more_lines: 0 });
    expect(formatOpen(result)).toBe(text);
  });

  it('is not restricted to .md files', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# S\n', 'notes.txt': 'plain\n', 'data/config.json': '{"a":1}' });
    expect(openFile(dir, 'notes.txt').content).toBe('plain\n');
    expect(openFile(dir, 'data/config.json').content).toBe('{"a":1}');
  });

  it('returns bytes that are not UTF-8 as base64 and writes them back unchanged', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0a, 0xff, 0x00, 0x0a, 0xfe]);
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# S\n', 'img.png': bytes });
    const result = openFile(dir, 'img.png');
    expect(result.encoding).toBe('base64');
    expect(formatOpen(result)).toEqual(bytes);
    const cut = openFile(dir, 'img.png', { maxLines: 1 });
    expect(cut.more_lines).toBe(2);
    expect(formatOpen(cut)).toEqual(Buffer.concat([bytes.subarray(0, 5), Buffer.from('... (2 more lines)\n')]));
  });

  it('a TrueType font (not UTF-8) comes back byte for byte, as bytes and through JSON', () => {
    const font = readFileSync(fixturePath('font-skill', 'assets/glyphs.ttf'));
    const dir = copyFixtureSkill(tempDir(), 'font-skill');
    const result = openFile(dir, 'assets/glyphs.ttf');
    expect(result).toMatchObject({ file: 'assets/glyphs.ttf', encoding: 'base64', size: font.length, more_lines: 0 });
    expect(formatOpen(result)).toEqual(font);
    expect(decoded(JSON.parse(JSON.stringify(result)) as OpenResult)).toEqual(font);
  });

  it('--max-lines N keeps the first N lines and appends "... (N more lines)"', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': 'a\nb\nc\nd\ne' });
    const result = openFile(dir, 'SKILL.md', { maxLines: 2 });
    expect(result.more_lines).toBe(3);
    expect(formatOpen(result)).toBe('a\nb\n... (3 more lines)\n');
    expect(formatOpen(openFile(dir, 'SKILL.md', { maxLines: 5 }))).toBe('a\nb\nc\nd\ne');
    expect(thrownBy(() => openFile(dir, 'SKILL.md', { maxLines: 0 })).code).toBe('E100');
  });

  it('accepts a path whose .. stays inside the root', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# S\n', 'docs/a.md': 'a' });
    expect(openFile(dir, 'docs/../SKILL.md').file).toBe('SKILL.md');
  });

  it('E012 for .. that escapes the root', () => {
    const base = tempDir();
    writeFileSync(join(base, 'secret.txt'), 'secret');
    const dir = makeSkill(base, 's', { 'SKILL.md': '# S\n' });
    const error = thrownBy(() => openFile(dir, '../secret.txt'));
    expect(error.format()).toBe("error[E012]: path escapes skill root: '../secret.txt'");
    expect(thrownBy(() => openFile(dir, 'docs/../../secret.txt')).code).toBe('E012');
  });

  it('E012 for an absolute path, even one inside the root', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# S\n' });
    expect(thrownBy(() => openFile(dir, '/etc/passwd')).code).toBe('E012');
    expect(thrownBy(() => openFile(dir, join(dir, 'SKILL.md'))).code).toBe('E012');
  });

  it('E012 for a symlink to a file outside the root', () => {
    const base = tempDir();
    writeFileSync(join(base, 'secret.txt'), 'secret');
    const dir = makeSkill(base, 's', { 'SKILL.md': '# S\n' });
    symlinkSync(join(base, 'secret.txt'), join(dir, 'leak.txt'));
    expect(thrownBy(() => openFile(dir, 'leak.txt')).code).toBe('E012');
  });

  it('E012 through a symlinked directory outside the root, whether or not the file exists there', () => {
    const base = tempDir();
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'secret.txt'), 'secret');
    const dir = makeSkill(base, 's', { 'SKILL.md': '# S\n' });
    symlinkSync(join(base, 'outside'), join(dir, 'ext'));
    expect(thrownBy(() => openFile(dir, 'ext/secret.txt')).code).toBe('E012');
    expect(thrownBy(() => openFile(dir, 'ext/missing.txt')).code).toBe('E012');
  });

  it('a symlink that stays inside the root is followed', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# S\n', 'docs/real.md': 'real' });
    symlinkSync(join(dir, 'docs', 'real.md'), join(dir, 'alias.md'));
    expect(openFile(dir, 'alias.md').content).toBe('real');
  });

  it('E021 for a missing file, a directory, the root itself and hidden paths', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# S\n', 'docs/a.md': 'a', '.env': 'TOKEN=x' });
    expect(thrownBy(() => openFile(dir, 'nope.md')).format()).toBe("error[E021]: file not found: 'nope.md'");
    expect(thrownBy(() => openFile(dir, 'docs')).code).toBe('E021');
    expect(thrownBy(() => openFile(dir, '.')).code).toBe('E021');
    expect(thrownBy(() => openFile(dir, '')).code).toBe('E021');
    expect(thrownBy(() => openFile(dir, '.env')).code).toBe('E021');
  });
});

describe('open returns any bytes unchanged (property)', () => {
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    // Mostly-text files: UTF-8 with BOMs, CR, LF and stray invalid bytes mixed in.
    fc
      .array(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 8 }).map((s) => Buffer.from(s)),
          fc.constantFrom(
            Buffer.from('\n'),
            Buffer.from('\r\n'),
            Buffer.from([0xef, 0xbb, 0xbf]),
            Buffer.from([0xff]),
            Buffer.from([0xc3]),
            Buffer.from([0xed, 0xa0, 0x80]),
          ),
        ),
        { maxLength: 20 },
      )
      .map((parts) => Buffer.concat(parts)),
  );

  it('as written to stdout and as JSON (base64 or text) decoded back', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# S\n' });
    fc.assert(
      fc.property(bytes, (content) => {
        writeFileSync(join(dir, 'file.bin'), content);
        const result = openFile(dir, 'file.bin');
        expect(Buffer.from(formatOpen(result))).toEqual(Buffer.from(content));
        expect(decoded(JSON.parse(JSON.stringify(result)) as OpenResult)).toEqual(Buffer.from(content));
      }),
      { numRuns: 500 },
    );
  });

  it('--max-lines keeps exactly the bytes of the first N lines', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# S\n' });
    fc.assert(
      fc.property(bytes, fc.integer({ min: 1, max: 5 }), (content, maxLines) => {
        writeFileSync(join(dir, 'file.bin'), content);
        const result = openFile(dir, 'file.bin', { maxLines });
        const lines = Buffer.from(content)
          .toString('latin1')
          .split(/(?<=\n)/)
          .filter((line) => line !== '');
        const kept = Buffer.from(lines.slice(0, maxLines).join(''), 'latin1');
        expect(decoded(JSON.parse(JSON.stringify(result)) as OpenResult)).toEqual(kept);
        expect(result.more_lines).toBe(Math.max(0, lines.length - maxLines));
      }),
      { numRuns: 300 },
    );
  });
});
