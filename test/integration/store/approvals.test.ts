import { describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/core/errors.js';
import { findRemembered, listRemembered, remember, revoke, type RememberInput } from '../../../src-main/core/store/approvals.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();
const gitStatus: RememberInput = {
  skill: 'git',
  tool: 'git_status',
  skillHash: 'h1',
  programPath: '/usr/bin/git',
  profile: { name: 'read-only', network: false, reads: ['~/.config/git/ignore'], writes: [], limits: { processes: 256, memoryMiB: 2048, fileSizeMiB: 1024, cpuSeconds: 120 } },
  folder: '/work/proj',
};
const PROJ = '/work/proj';
const SESSION = 'session-a';

describe('remembered approvals', () => {
  it('remembers, finds and lists an approval with its pins (hash, program, profile)', () => {
    const db = homes.fresh();
    const saved = remember(db, gitStatus, 10);
    expect(saved).toEqual({ id: saved.id, ...gitStatus, expires: 'revoke', createdAt: 10, revokedAt: null });
    expect(findRemembered(db, 'git', 'git_status', SESSION, PROJ)).toEqual(saved);
    expect(findRemembered(db, 'git', 'git_diff', SESSION, PROJ)).toBeNull();
    expect(listRemembered(db, SESSION)).toEqual([saved]);
  });

  it("keeps a profile's box as given; one remembered without it (before the box) reads back without it", () => {
    const db = homes.fresh();
    expect(remember(db, { ...gitStatus, profile: { name: 'read-only', network: false } }, 10).profile).toEqual({ name: 'read-only', network: false, reads: [], writes: [] });
    db.prepare('UPDATE remembered_approvals SET box = NULL').run();
    expect(findRemembered(db, 'git', 'git_status', SESSION, PROJ)?.profile).toEqual({ name: 'read-only', network: false });
  });

  it('one given for a session is in force only in that session', () => {
    const db = homes.fresh();
    const saved = remember(db, { ...gitStatus, profile: { name: 'workspace', network: true }, session: SESSION }, 10);
    expect(saved).toMatchObject({ expires: 'session', profile: { name: 'workspace', network: true } });
    expect(findRemembered(db, 'git', 'git_status', SESSION, PROJ)).toEqual(saved);
    expect(findRemembered(db, 'git', 'git_status', 'session-b', PROJ)).toBeNull();
    expect(listRemembered(db, 'session-b')).toEqual([]);
    expect(() => revoke(db, saved.id, 'session-b')).toThrow(/E615|in force/);
    // A later "always" in another session replaces it.
    const next = remember(db, gitStatus, 20);
    expect(listRemembered(db, SESSION)).toEqual([next]);
  });

  it('keeps one live approval per folder; a run finds its own folder\'s, else any folder\'s, else the newest elsewhere', () => {
    const db = homes.fresh();
    const proj = remember(db, gitStatus, 10);
    const other = remember(db, { ...gitStatus, folder: '/work/other' }, 20);
    expect(findRemembered(db, 'git', 'git_status', SESSION, PROJ)).toEqual(proj);
    expect(findRemembered(db, 'git', 'git_status', SESSION, '/work/other')).toEqual(other);
    // Elsewhere: the newest, so policy can say which folder it was given in.
    expect(findRemembered(db, 'git', 'git_status', SESSION, '/work/third')).toEqual(other);
    const anywhere = remember(db, { ...gitStatus, folder: null }, 30);
    expect(anywhere.folder).toBeNull();
    expect(findRemembered(db, 'git', 'git_status', SESSION, '/work/third')).toEqual(anywhere);
    expect(findRemembered(db, 'git', 'git_status', SESSION, PROJ)).toEqual(proj);
    expect(listRemembered(db, SESSION)).toHaveLength(3);
    // Another "any folder" replaces the first; a folder's own is untouched.
    remember(db, { ...gitStatus, folder: null, skillHash: 'h2' }, 40);
    expect(listRemembered(db, SESSION).map((r) => r.folder).sort()).toEqual(['/work/other', '/work/proj', null]);
  });

  it('replaces the live approval for the same tool, keeping the old one revoked', () => {
    const db = homes.fresh();
    const old = remember(db, gitStatus, 10);
    const next = remember(db, { ...gitStatus, skillHash: 'h2' }, 20);
    expect(next.id).not.toBe(old.id);
    expect(findRemembered(db, 'git', 'git_status', SESSION, PROJ)).toEqual(next);
    expect(listRemembered(db, SESSION)).toEqual([next]);
    const row = db.prepare('SELECT revoked_at FROM remembered_approvals WHERE id = ?').get(old.id);
    expect(row).toEqual({ revoked_at: 20 });
  });

  it('revokes by id; a second revoke or an unknown id is E615', () => {
    const db = homes.fresh();
    const saved = remember(db, gitStatus, 10);
    revoke(db, saved.id, SESSION, 30);
    expect(findRemembered(db, 'git', 'git_status', SESSION, PROJ)).toBeNull();
    expect(listRemembered(db, SESSION)).toEqual([]);
    for (const id of [saved.id, 9999]) {
      let caught: unknown;
      try {
        revoke(db, id, SESSION);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SkilltrayError);
      expect(caught).toMatchObject({ code: 'E615', kind: 'remembered_not_found' });
    }
  });

  it('lists live approvals by skill then tool', () => {
    const db = homes.fresh();
    remember(db, { ...gitStatus, skill: 'zip', tool: 'a' });
    remember(db, { ...gitStatus, skill: 'git', tool: 'log' });
    remember(db, { ...gitStatus, skill: 'git', tool: 'diff' });
    expect(listRemembered(db, SESSION).map((r) => `${r.skill}/${r.tool}`)).toEqual(['git/diff', 'git/log', 'zip/a']);
  });

  it('enforces one live approval per tool and folder in the schema itself', () => {
    const db = homes.fresh();
    remember(db, gitStatus);
    remember(db, { ...gitStatus, folder: null });
    const insert = db.prepare("INSERT INTO remembered_approvals (skill, tool, skill_hash, program_path, folder, created_at) VALUES ('git', 'git_status', 'x', '/x', ?, 1)");
    expect(() => insert.run(PROJ)).toThrow(/UNIQUE/);
    expect(() => insert.run(null)).toThrow(/UNIQUE/);
    expect(() => insert.run('/work/other')).not.toThrow();
  });
});
