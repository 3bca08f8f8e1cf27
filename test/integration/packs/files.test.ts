/** The files pack, run for real on a directory populated for each test. */
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { runTool } from '../../support/run-tool.js';
import { tempDir, testHome, writeFiles } from '../../support/temp.js';
import { SKILLS_DIR, argv, pack } from './bundled-packs.js';

const skill = pack('files');

/** 25 lines of two words each. */
const NUMBERS = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

let dir: string;
beforeEach(() => {
  dir = tempDir();
  writeFiles(dir, {
    'numbers.txt': NUMBERS,
    '.hidden': 'secret\n',
    'pixel.png': PNG_HEADER,
    'sub/notes.md': '# notes\n',
    'sub/deep/plan.md': '# plan\n',
    'sub/deep/deeper/idea.md': '# idea\n',
  });
});

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

/** Any text, often option-like or full of shell syntax. */
const value = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string().map((rest) => `-${rest}`),
  fc.array(fc.constantFrom('-', '--exec', '=', ' ', ';', '$(', ')', '|', '*', '!', '(', '\\', "'", '"', '\n'), { maxLength: 6 }).map((parts) => parts.join('')),
);

describe('files pack: rendering', () => {
  it.each([
    ['list_directory', {}, ['ls', '-l', '--', '.']],
    ['list_directory', { all: true, path: '/etc' }, ['ls', '-l', '-a', '--', '/etc']],
    ['list_directory', { path: '' }, ['ls', '-l', '--', '.']],
    ['file_head', { path: 'a.txt' }, ['head', '-n', '20', '--', 'a.txt']],
    ['file_head', { path: 'a b.txt', lines: 5 }, ['head', '-n', '5', '--', 'a b.txt']],
    ['word_count', { path: 'x' }, ['wc', '--', 'x']],
    ['file_type', { path: 'x' }, ['file', '--', 'x']],
    ['find_files', { pattern: '*.md' }, ['find', '.', '-maxdepth', '4', '-name', '*.md']],
    ['find_files', { pattern: 'a;b $(rm -rf ~)', dir: '/data', depth: 1 }, ['find', '/data', '-maxdepth', '1', '-name', 'a;b $(rm -rf ~)']],
  ])('%s %j', (tool, args, expected) => {
    expect(argv(skill, tool, args)).toEqual(expected);
  });

  it.each([
    ['find_files', { pattern: '--exec=rm' }, 'E504'],
    ['find_files', { pattern: '*.md', dir: '-delete' }, 'E504'],
    ['find_files', { pattern: '*.md', depth: -1 }, 'E504'],
    ['find_files', {}, 'E501'],
    ['file_head', { path: 'a.txt', lines: -5 }, 'E504'],
    ['file_head', { path: 'a.txt', lines: 2.5 }, 'E503'],
    ['word_count', { path: '--files0-from=/etc/passwd' }, 'E504'],
  ])('%s %j is refused with %s', (tool, args, code) => {
    expect(() => argv(skill, tool, args)).toThrow(expect.objectContaining({ code }));
  });

  it('find_files puts any directory and pattern in their own arguments, or refuses them', () => {
    fc.assert(
      fc.property(value, value, fc.nat(), (pattern, dir, depth) => {
        const args = { pattern, dir, depth };
        const refusal = (pattern + dir).includes('\0') ? 'E503' : pattern === '' ? 'E501' : pattern.startsWith('-') || dir.startsWith('-') ? 'E504' : null;
        if (refusal === null) {
          expect(argv(skill, 'find_files', args)).toEqual(['find', dir === '' ? '.' : dir, '-maxdepth', String(depth), '-name', pattern]);
        } else {
          expect(() => argv(skill, 'find_files', args)).toThrow(expect.objectContaining({ name: 'SkilltrayError', code: refusal }));
        }
      }),
    );
  });
});

describe('files pack: real runs', () => {
  it('list_directory lists entries in long format, hidden ones only with all', async () => {
    const plain = await runTool(skill, 'list_directory', {}, dir);
    expect(plain.result.exitCode).toBe(0);
    expect(plain.result.stdout).toMatch(/^-[rwx-]{9}.* numbers\.txt$/m);
    expect(plain.result.stdout).toMatch(/^d[rwx-]{9}.* sub$/m);
    expect(plain.result.stdout).not.toContain('.hidden');

    const all = await runTool(skill, 'list_directory', { all: true, path: dir }, tempDir());
    expect(all.result.stdout).toMatch(/ \.hidden$/m);
  });

  it('file_head prints the first 20 lines, or as many as asked', async () => {
    const first = await runTool(skill, 'file_head', { path: 'numbers.txt' }, dir);
    expect(first.result.exitCode).toBe(0);
    expect(lines(first.result.stdout)).toEqual(NUMBERS.split('\n').slice(0, 20));
    const three = await runTool(skill, 'file_head', { path: 'numbers.txt', lines: 3 }, dir);
    expect(three.result.stdout).toBe('line 1\nline 2\nline 3\n');
  });

  it('word_count counts lines, words and bytes', async () => {
    const { result } = await runTool(skill, 'word_count', { path: 'numbers.txt' }, dir);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim().split(/\s+/)).toEqual(['25', '50', String(Buffer.byteLength(NUMBERS)), 'numbers.txt']);
  });

  it('file_type tells contents apart, not names', async () => {
    const png = await runTool(skill, 'file_type', { path: 'pixel.png' }, dir);
    expect(png.result.exitCode).toBe(0);
    expect(png.result.stdout).toMatch(/^pixel\.png: PNG image data/);
    const text = await runTool(skill, 'file_type', { path: 'numbers.txt' }, dir);
    expect(text.result.stdout).toMatch(/^numbers\.txt: ASCII text/);
    const folder = await runTool(skill, 'file_type', { path: 'sub' }, dir);
    expect(folder.result.stdout).toBe('sub: directory\n');
  });

  it('find_files finds names by pattern within the depth given', async () => {
    const deep = await runTool(skill, 'find_files', { pattern: '*.md' }, dir);
    expect(deep.result.exitCode).toBe(0);
    expect(lines(deep.result.stdout).sort()).toEqual(['./sub/deep/deeper/idea.md', './sub/deep/plan.md', './sub/notes.md']);
    const shallow = await runTool(skill, 'find_files', { pattern: '*.md', depth: 2 }, dir);
    expect(lines(shallow.result.stdout)).toEqual(['./sub/notes.md']);
    const elsewhere = await runTool(skill, 'find_files', { pattern: 'plan.*', dir: join(dir, 'sub') }, tempDir());
    expect(lines(elsewhere.result.stdout)).toEqual([join(dir, 'sub', 'deep', 'plan.md')]);
    const none = await runTool(skill, 'find_files', { pattern: '*.pdf' }, dir);
    expect(none.result).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('refuses an option smuggled in as a pattern or directory before any process starts', async () => {
    await expect(runTool(skill, 'find_files', { pattern: '--exec=rm' }, dir)).rejects.toMatchObject({ code: 'E504' });
    await expect(runTool(skill, 'find_files', { pattern: '*', dir: '-delete' }, dir)).rejects.toMatchObject({ code: 'E504' });
    expect(existsSync(join(dir, 'numbers.txt'))).toBe(true);
  });

  it('reports a missing file as a failed run with the reason on stderr', async () => {
    const { result } = await runTool(skill, 'file_head', { path: 'missing.txt' }, dir);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('missing.txt');
  });
});

describe('files pack: what runs unasked and what asks (the sensitive-path rule)', () => {
  /** A core over the bundled packs, a working folder with ordinary and hidden files, and a home with a key. */
  function setup() {
    const home = testHome({ bundled: SKILLS_DIR });
    const core = new SkilltrayCore(home.config());
    cores.push(core);
    const work = join(home.userHome, 'work');
    writeFiles(work, { 'notes.txt': 'notes\n', '.env': 'TOKEN=x\n' });
    writeFiles(home.userHome, { '.ssh/id_ed25519': 'KEY\n' });
    writeFiles(home.home, { token: 'secret-token\n' });
    symlinkSync(join(home.userHome, '.ssh', 'id_ed25519'), join(work, 'notes-link'));
    const decision = (tool: string, args: Record<string, unknown>, cwd = work) =>
      core.runs.dryRun({ skill: 'files', tool, args, cwd, surface: 'cli' }).decision;
    return { home, core, work, decision };
  }

  it('runs ordinary paths and patterns unasked', () => {
    const { decision } = setup();
    expect(decision('file_head', { path: 'notes.txt' })).toBe('auto');
    expect(decision('list_directory', { path: '/etc' })).toBe('auto');
    expect(decision('find_files', { pattern: '*.pdf' })).toBe('auto');
    expect(decision('list_directory', { all: true })).toBe('auto');
  });

  it('asks for a hidden path, as written or behind a symlink, and for Skilltray home; a hidden folder of the home is no working directory at all', () => {
    const { home, decision } = setup();
    expect(decision('file_head', { path: '~/.ssh/id_ed25519' })).toBe('ask');
    expect(decision('file_head', { path: join(home.userHome, '.ssh', 'id_ed25519') })).toBe('ask');
    expect(decision('word_count', { path: '.env' })).toBe('ask');
    expect(decision('file_head', { path: 'notes-link' })).toBe('ask');
    expect(decision('file_head', { path: join(home.home, 'token') })).toBe('ask');
    // No run's folder: a dry run shows it as its decision (E511), a run is refused.
    expect(decision('file_head', { path: 'id_ed25519' }, join(home.userHome, '.ssh'))).toBe('refuse');
  });

  it('fails with E601 naming the argument where nobody can be asked', async () => {
    const { core, work } = setup();
    const run = core.runs.run({ skill: 'files', tool: 'word_count', args: { path: '.env' }, cwd: work, surface: 'cli' }, { approval: { kind: 'none' } });
    await expect(run).rejects.toMatchObject({ code: 'E601', details: { reason: expect.stringContaining('its argument \'path\' ".env"') } });
  });

  it('asks even where an allow rule would let the tool run unasked', () => {
    const { core, decision } = setup();
    core.policy.addRule('tool:files/file_head', 'allow');
    expect(decision('file_head', { path: 'notes.txt' })).toBe('auto');
    expect(decision('file_head', { path: '.env' })).toBe('ask');
  });
});
