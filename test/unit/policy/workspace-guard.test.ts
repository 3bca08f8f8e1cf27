/** The workspace guard as a table: which folders a run may work in, per profile, and what it says when not. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardWorkspace, passwdHomes, type GuardPlaces } from '../../../src-main/core/policy/workspace-guard.js';
import { tempDir } from '../../support/temp.js';

const places: GuardPlaces = {
  platform: 'linux',
  userHome: '/home/ana',
  otherHomes: ['/home/bob', '/root'],
  skilltrayHome: '/home/ana/.local/share/skilltray',
  skillRoots: ['/home/ana/.local/share/skilltray/skills', '/opt/skilltray/resources/skills', '/home/ana/.claude/skills', '/home/ana/code/skilltray/skills'],
};

const verdict = (cwd: string, profile: 'read-only' | 'workspace') => {
  const answer = guardWorkspace(cwd, profile, places);
  return answer.kind === 'refused' ? `refused: ${answer.error.message}` : answer.kind;
};

describe('the workspace guard', () => {
  it.each([
    // folder, read-only, workspace
    ['/', /refused: .*root of the filesystem/, /refused: .*root of the filesystem/],
    ['/home', /refused: .*a folder holding your home folder/, /refused: .*a folder holding your home folder/],
    ['/run/user/1000', /refused: .*in \/run, where the kernel/, /refused: .*in \/run/],
    ['/proc/self', /refused: .*in \/proc/, /refused: .*in \/proc/],
    ['/tmp', /refused: .*temporary folder every program and user shares.*pass a folder inside it/, /refused: .*temporary folder/],
    ['/home/ana/.local/share/skilltray', /refused: .*Skilltray's own data/, /refused: .*Skilltray's own data/],
    ['/home/ana/.local/share/skilltray/skills/x', /refused: .*inside Skilltray's own data/, /refused: .*inside Skilltray's own data/],
    ['/home/ana/.local/share', 'ok', /refused: .*a folder holding Skilltray's own data/],
    ['/home/ana', 'home', /refused: .*your home folder: a tool that may write there/],
    ['/home/bob', 'home', /refused: .*the home folder of another user/],
    ['/root', 'home', /refused: .*home folder of another user/],
    ['/etc', /refused: .*a folder of the operating system/, /refused: .*a folder of the operating system/],
    ['/etc/cron.d', 'ok', /refused: .*inside \/etc, a folder of the operating system/],
    ['/usr/share/doc', 'ok', /refused: .*inside \/usr/],
    ['/var/tmp/build', 'ok', 'ok'],
    ['/var/www/site', 'ok', /refused: .*inside \/var/],
    ['/opt/skilltray/resources/skills', 'ok', /refused: .*inside \/opt/],
    ['/home/ana/.claude/skills/mine', 'ok', /refused: .*in the skill folder \/home\/ana\/.claude\/skills/],
    ['/home/ana/.claude', 'ok', /refused: .*a folder holding the skill folder/],
    ['/home/ana/code/skilltray', 'ok', /refused: .*a folder holding the skill folder \/home\/ana\/code\/skilltray\/skills/],
    ['/home/ana/code/app', 'ok', 'ok'],
    ['/tmp/build-1', 'ok', 'ok'],
    ['/srv/data/project', 'ok', 'ok'],
  ] as const)('%s: read-only %s, workspace %s', (cwd, readOnly, workspace) => {
    for (const [profile, expected] of [
      ['read-only', readOnly],
      ['workspace', workspace],
    ] as const) {
      if (typeof expected === 'string') expect(verdict(cwd, profile), profile).toBe(expected);
      else expect(verdict(cwd, profile), profile).toMatch(expected);
    }
  });

  it('says what to pass instead, with the code E511 and the folder', () => {
    const answer = guardWorkspace('/', 'workspace', places);
    expect(answer).toMatchObject({ kind: 'refused', error: { code: 'E511', details: { cwd: '/' } } });
    expect(answer.kind === 'refused' && answer.error.message).toContain('pass the folder of the project or files it should work on');
  });

  it('does not apply where the person took the skill out of the sandbox', () => {
    expect(guardWorkspace('/', 'none', places)).toEqual({ kind: 'ok' });
  });

  it('reads homes from the password database, leaving out daemons in system folders and /', () => {
    const passwd = join(tempDir(), 'passwd');
    writeFileSync(
      passwd,
      [
        'root:x:0:0:root:/root:/bin/bash',
        'daemon:x:1:1::/usr/sbin:/usr/sbin/nologin',
        'www:x:33:33::/var/www:/bin/sh',
        'odd:x:5:5::/:/bin/sh',
        'ana:x:1000:1000::/home/ana:/bin/bash',
        '',
      ].join('\n'),
    );
    expect(passwdHomes('linux', passwd)).toEqual(['/root', '/home/ana']);
    expect(passwdHomes('darwin', passwd)).toEqual([]);
  });
});
