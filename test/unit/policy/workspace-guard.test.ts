/** The workspace guard as a table: which folders a run may work in, per profile, and what it says when not; aliases known by identity. */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardWorkspace, passwdHomes, type GuardPlaces, type KnownPlace, type WorkspaceWhere } from '../../../src-main/core/policy/workspace-guard.js';
import { tempDir } from '../../support/temp.js';

/** The folders above `path`, innermost first. */
function above(path: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    folders.push(folder);
    if (folder === dirname(folder)) return folders;
  }
}

/** A place whose identity is its own path (each folder is itself, unless an alias says otherwise). */
const place = (path: string): KnownPlace => ({ path, id: path, above: above(path) });

const places: GuardPlaces = {
  platform: 'linux',
  userHome: place('/home/ana'),
  otherHomes: [place('/home/bob'), place('/root'), place('/home/ana')],
  skilltrayHome: place('/home/ana/.local/share/skilltray'),
  skillRoots: ['/home/ana/.local/share/skilltray/skills', '/opt/skilltray/resources/skills', '/home/ana/.claude/skills', '/home/ana/code/skilltray/skills'].map(
    place,
  ),
};

/** The folder `path` as its handle would have it; `aliases` give a folder on the way the identity of another (a bind mount). */
function where(path: string, aliases: Record<string, string> = {}): WorkspaceWhere {
  return { path, chain: [path, ...above(path)].map((folder) => ({ path: folder, id: aliases[folder] ?? folder })) };
}

const verdict = (cwd: WorkspaceWhere, profile: 'read-only' | 'workspace') => {
  const answer = guardWorkspace(cwd, profile, places);
  return answer.kind === 'refused' ? `refused: ${answer.error.message}` : answer.kind;
};

describe('the workspace guard', () => {
  it.each([
    // folder, read-only, workspace
    ['/', /root of the filesystem/, /root of the filesystem/],
    ['/home', /a folder holding your home folder/, /a folder holding your home folder/],
    ['/run/user/1000', /in \/run, where the kernel/, /in \/run/],
    ['/proc/self', /in \/proc/, /in \/proc/],
    ['/tmp', /temporary folder every program and user shares.*pass a folder inside it/, /temporary folder/],
    ['/dev/shm', /temporary folder/, /temporary folder/],
    ['/home/ana/.local/share/skilltray', /Skilltray's own data/, /Skilltray's own data/],
    ['/home/ana/.local/share/skilltray/skills/x', /inside Skilltray's own data/, /inside Skilltray's own data/],
    ['/home/ana/.local/share', /a hidden folder of your home/, /a hidden folder of your home/],
    ['/home/ana', /your home folder: a run there could read all/, /your home folder: a run there could read and change all/],
    ['/home/ana/.ssh', /in \/home\/ana\/.ssh, a hidden folder of your home/, /hidden folder of your home/],
    ['/home/ana/.claude/skills/mine', /hidden folder of your home/, /hidden folder of your home/],
    ['/home/bob', /the home folder \/home\/bob, which is another user's/, /another user's/],
    ['/home/bob/code', /another user's/, /another user's/],
    ['/root', /another user's/, /another user's/],
    ['/home/shared/project', /in \/home, where the users' homes are/, /in \/home/],
    ['/etc', /a folder of the operating system/, /a folder of the operating system/],
    ['/etc/cron.d', /inside \/etc, a folder of the operating system/, /inside \/etc/],
    ['/usr/share/doc', /inside \/usr/, /inside \/usr/],
    ['/var/lib/app', /inside \/var/, /inside \/var/],
    ['/var/www/site', /inside \/var/, /inside \/var/],
    ['/opt/skilltray/resources/skills', /inside \/opt/, /in the skill folder \/opt\/skilltray/],
    ['/srv/data/project', /inside \/srv/, /inside \/srv/],
    ['/mnt', /the folder where disks are mounted/, /where disks are mounted/],
    ['/run/media/ana', /where disks are mounted/, /where disks are mounted/],
    ['/home/ana/code/skilltray', 'ok', /a folder holding the skill folder \/home\/ana\/code\/skilltray\/skills/],
    ['/home/ana/code/app', 'ok', 'ok'],
    ['/var/tmp/build', 'ok', 'ok'],
    ['/tmp/build-1', 'ok', 'ok'],
    ['/dev/shm/scratch', 'ok', 'ok'],
    ['/mnt/disk', 'ok', 'ok'],
    ['/media/ana/usb/photos', 'ok', 'ok'],
    ['/run/media/ana/usb', 'ok', 'ok'],
    ['/work/wt/box', 'ok', 'ok'],
    ['/skilltray-ci.x1y2', 'ok', 'ok'],
  ] as const)('%s: read-only %s, workspace %s', (cwd, readOnly, workspace) => {
    for (const [profile, expected] of [
      ['read-only', readOnly],
      ['workspace', workspace],
    ] as const) {
      if (expected === 'ok') expect(verdict(where(cwd), profile), profile).toBe('ok');
      else expect(verdict(where(cwd), profile), profile).toMatch(expected);
    }
  });

  it('knows an alias (a bind mount) of a home or of Skilltray’s home by identity, wherever it appears', () => {
    const home = { '/mnt/alias': '/home/ana' };
    expect(verdict(where('/mnt/alias', home), 'read-only')).toMatch(/your home folder/);
    expect(verdict(where('/mnt/alias/.ssh', { ...home, '/mnt/alias/.ssh': '/home/ana/.ssh' }), 'read-only')).toMatch(
      /\/mnt\/alias\/.ssh, a hidden folder of your home/,
    );
    expect(verdict(where('/mnt/alias/code/app', home), 'workspace')).toBe('ok');
    expect(verdict(where('/data/st', { '/data/st': '/home/ana/.local/share/skilltray' }), 'read-only')).toMatch(/Skilltray's own data/);
    expect(verdict(where('/data/bob', { '/data/bob': '/home/bob' }), 'read-only')).toMatch(/another user's/);
    // An alias of / holds every home.
    expect(verdict(where('/mnt/everything', { '/mnt/everything': '/' }), 'read-only')).toMatch(/root of the filesystem/);
    expect(verdict(where('/data/homes', { '/data/homes': '/home' }), 'read-only')).toMatch(/a folder holding your home folder/);
  });

  it('says what to pass instead, with the code E511 and the folder', () => {
    const answer = guardWorkspace(where('/'), 'workspace', places);
    expect(answer).toMatchObject({ kind: 'refused', error: { code: 'E511', details: { cwd: '/' } } });
    expect(answer.kind === 'refused' && answer.error.message).toContain('pass the folder of the project or files it should work on');
  });

  it('does not apply where the person took the skill out of the sandbox', () => {
    expect(guardWorkspace(where('/'), 'none', places)).toEqual({ kind: 'ok' });
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
