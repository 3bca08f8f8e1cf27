import { describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { findRemembered, listRemembered, remember, revoke } from '../../../src-main/core/store/approvals.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();
const gitStatus = {
  skill: 'git',
  tool: 'git_status',
  skillHash: 'h1',
  identity: { rootKind: 'bundled', path: '/app/skills/git', trust: 'bundled' },
  programPath: '/usr/bin/git',
  profile: { name: 'read-only', network: false, hosts: [] as string[] },
  folder: '/home/me/proj',
} as const;
const SESSION = 'session-a';

describe('remembered approvals', () => {
  it('remembers, finds and lists an approval with its pins (identity, hash, program, profile, folder)', () => {
    const db = homes.fresh();
    const saved = remember(db, gitStatus, 10);
    expect(saved).toEqual({ id: saved.id, ...gitStatus, expires: 'revoke', createdAt: 10, revokedAt: null });
    expect(findRemembered(db, 'git', 'git_status', SESSION)).toEqual([saved]);
    expect(findRemembered(db, 'git', 'git_diff', SESSION)).toEqual([]);
    expect(listRemembered(db, SESSION)).toEqual([saved]);
  });

  it('keeps the whole profile it was given under, whatever fields a profile has', () => {
    const db = homes.fresh();
    const profile = {
      name: 'workspace' as const,
      network: true,
      hosts: ['api.example.org'],
      reads: ['~/.gitconfig'],
      writes: ['.git'],
      limits: { processes: 256, memoryMiB: 2048, fileSizeMiB: 1024, cpuSeconds: 120 },
    };
    expect(remember(db, { ...gitStatus, profile }).profile).toEqual(profile);
  });

  it('keeps one live approval per tool and folder: another folder, or any folder, is another approval', () => {
    const db = homes.fresh();
    const here = remember(db, gitStatus, 10);
    const there = remember(db, { ...gitStatus, folder: '/home/me/other' }, 11);
    const anywhere = remember(db, { ...gitStatus, folder: null }, 12);
    expect(findRemembered(db, 'git', 'git_status', SESSION)).toEqual([here, there, anywhere]);
    const again = remember(db, { ...gitStatus, skillHash: 'h2' }, 13);
    expect(findRemembered(db, 'git', 'git_status', SESSION)).toEqual([there, anywhere, again]);
  });

  it('one given for a session is in force only in that session', () => {
    const db = homes.fresh();
    const saved = remember(db, { ...gitStatus, profile: { name: 'workspace', network: true, hosts: ['*'] }, session: SESSION }, 10);
    expect(saved).toMatchObject({ expires: 'session', profile: { name: 'workspace', network: true, hosts: ['*'] } });
    expect(findRemembered(db, 'git', 'git_status', SESSION)).toEqual([saved]);
    expect(findRemembered(db, 'git', 'git_status', 'session-b')).toEqual([]);
    expect(listRemembered(db, 'session-b')).toEqual([]);
    expect(() => revoke(db, saved.id, 'session-b')).toThrow(/E615|in force/);
    // A later "always" in another session replaces it.
    const next = remember(db, gitStatus, 20);
    expect(listRemembered(db, SESSION)).toEqual([next]);
  });

  it('replaces the live approval for the same tool in the same folder, keeping the old one revoked', () => {
    const db = homes.fresh();
    const old = remember(db, gitStatus, 10);
    const next = remember(db, { ...gitStatus, skillHash: 'h2' }, 20);
    expect(next.id).not.toBe(old.id);
    expect(findRemembered(db, 'git', 'git_status', SESSION)).toEqual([next]);
    expect(listRemembered(db, SESSION)).toEqual([next]);
    const row = db.prepare('SELECT revoked_at FROM remembered_approvals WHERE id = ?').get(old.id);
    expect(row).toEqual({ revoked_at: 20 });
  });

  it('revokes by id; a second revoke or an unknown id is E615', () => {
    const db = homes.fresh();
    const saved = remember(db, gitStatus, 10);
    revoke(db, saved.id, SESSION, 30);
    expect(findRemembered(db, 'git', 'git_status', SESSION)).toEqual([]);
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
    const insert = (folder: string | null) =>
      db
        .prepare("INSERT INTO remembered_approvals (skill, tool, skill_hash, program_path, folder, created_at) VALUES ('git', 'git_status', 'x', '/x', ?, 1)")
        .run(folder);
    expect(() => insert(gitStatus.folder)).toThrow(/UNIQUE/);
    expect(() => insert(null)).toThrow(/UNIQUE/);
    expect(() => insert('/home/me/third')).not.toThrow();
  });
});
