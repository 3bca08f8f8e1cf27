import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
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
