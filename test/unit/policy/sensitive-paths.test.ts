import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sensitiveArgument } from '../../../src-main/core/policy/sensitive-paths.js';
import { tempDir } from '../../support/temp.js';

function place() {
  const base = tempDir();
  const user = join(base, 'user');
  const home = join(base, 'skilltray-home');
  mkdirSync(join(user, 'project'), { recursive: true });
  mkdirSync(join(user, '.ssh'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(user, '.ssh', 'id_ed25519'), 'secret');
  writeFileSync(join(user, 'project', 'notes.txt'), 'fine');
  writeFileSync(join(home, 'token'), 'token');
  symlinkSync(join(user, '.ssh'), join(user, 'project', 'keys'));
  symlinkSync(home, join(user, 'project', 'app-data'));
  return { user, home, project: join(user, 'project') };
}

describe('requests that reach for secrets', () => {
  it.each([
    [{ path: '~/.ssh/id_ed25519' }, 'path', /hidden path \('\.ssh'\)/],
    [{ path: '.env' }, 'path', /hidden path \('\.env'\)/],
    [{ path: 'repo/.git/config' }, 'path', /hidden path \('\.git'\)/],
    [{ path: 'keys/id_ed25519' }, 'path', /leads into a hidden path \('\.ssh'\)/],
    [{ path: 'app-data/token' }, 'path', /inside Skilltray's own data/],
    [{ message: 'hello', path: 'notes.txt', other: '../.ssh' }, 'other', /hidden path/],
  ])('%j asks because of %s', (args, param, why) => {
    const p = place();
    const found = sensitiveArgument(args, p.project, p.home);
    expect(found?.param).toBe(param);
    expect(found?.why).toMatch(why);
  });

  it('asks for an absolute path into Skilltray’s home, and for a cwd that is hidden or inside it', () => {
    const p = place();
    expect(sensitiveArgument({ path: join(p.home, 'token') }, p.project, p.home)?.why).toMatch(/Skilltray's own data/);
    expect(sensitiveArgument({}, join(p.user, '.ssh'), p.home)).toMatchObject({ param: 'cwd' });
    expect(sensitiveArgument({}, p.home, p.home)).toMatchObject({ param: 'cwd' });
  });

  it('lets ordinary requests through: plain words, visible files, . and ..', () => {
    const p = place();
    expect(sensitiveArgument({ message: 'hello there', count: 3, path: 'notes.txt', up: '..', here: '.', ref: 'HEAD~2' }, p.project, p.home)).toBeNull();
    expect(sensitiveArgument({ path: join(p.project, 'notes.txt') }, p.user, p.home)).toBeNull();
  });
});

describe('a git revision that names a hidden path asks, as the path itself does', () => {
  const revisions = [
    'HEAD',
    'main',
    'v1.2.0',
    'origin/main',
    'HEAD~2',
    'HEAD^',
    'HEAD^{tree}',
    'stash@{0}',
    'HEAD@{1}',
    'HEAD@{2024-01-01 10:00:00}',
    'a1b2c3d',
    ':0',
    ':1',
    ':3',
    '',
  ];

  it.each([
    'HEAD:.env',
    'main:config/.npmrc',
    'HEAD~2:./.aws/credentials',
    ':0:.env',
    'stash@{0}:.env',
    'HEAD@{yesterday 10:00}:.env',
    ':.env',
    ':(top).env',
    ':!.env',
  ])('%s asks', (revision) => {
    const p = place();
    expect(sensitiveArgument({ revision }, p.project, p.home)).toMatchObject({ param: 'revision', why: expect.stringMatching(/hidden path \('\.[a-z]+'\)/) });
  });

  it('asks for every spelling of a revision and a hidden path in it, and never for one that names visible files (property)', () => {
    const p = place();
    const folder = fc.constantFrom('', './', 'config/', 'a/b/', 'src/../');
    const hidden = fc.constantFrom('.env', '.npmrc', '.aws/credentials', '.ssh/id_rsa', '.git/config', '.envrc');
    const visible = fc.constantFrom('README.md', 'src/index.ts', 'config/app.yml', 'docs/a b.md');
    const magic = fc.constantFrom('', '(top)', '(icase,top)', '!', '/');
    fc.assert(
      fc.property(fc.constantFrom(...revisions), magic, folder, hidden, (revision, spec, dir, name) => {
        expect(sensitiveArgument({ revision: `${revision}:${spec}${dir}${name}` }, p.project, p.home), `${revision}:${dir}${name}`).not.toBeNull();
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...revisions.filter((r) => !r.startsWith(':') && r !== '')), visible, (revision, file) => {
        expect(sensitiveArgument({ revision: `${revision}:${file}` }, p.project, p.home)).toBeNull();
      }),
      { numRuns: 100 },
    );
  });
});
