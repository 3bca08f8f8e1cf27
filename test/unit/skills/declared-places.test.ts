import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badRead, normalRead } from '../../../src-main/core/skills/box-fields.js';
import { identify } from '../../../src-main/core/skills/identity.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import type { Skill, SkillRoot } from '../../../src-main/shared/model.js';
import { tempDir, writeSkill } from '../../support/temp.js';

const userRoot = (path: string): SkillRoot => ({ path, kind: 'env', trust: 'user', syntax: 'angle' });

function tool(command: string): string {
  return `\n### run\n\nRuns it.\n\n#### Command\n\n\`\`\`\n${command}\n\`\`\`\n`;
}

function load(frontmatter: string, body = tool('git status'), root = tempDir()): Skill {
  return parseSkill(writeSkill(root, 'demo', `---\nname: demo\ndescription: Does a demo.\nversion: 1.0.0\n${frontmatter}\n---\n${body}`), userRoot(root));
}

const of = (skill: Skill, code: string) => skill.diagnostics.filter((d) => d.code === code);

describe('E430 judges a reads entry by its normal spelling', () => {
  /** `path` with runs of `/` and a trailing `/` (which name the same place). */
  const spelled = (path: string) =>
    fc
      .tuple(fc.array(fc.constantFrom('/', '//', '///'), { minLength: 8, maxLength: 8 }), fc.constantFrom('', '/', '//'))
      .map(([slashes, tail]) => path.split('/').reduce((out, segment, i) => (i === 0 ? segment : `${out}${slashes[i % 8] ?? '/'}${segment}`), '') + tail);

  it.each(['/var//run', '//run', '/run/', '/var/run/user/0/bus', '/proc//self/environ', '/dev/', '/var/./run', '/var/lib/../run', '/sys/../run/x'])(
    '%s is refused',
    (entry) => {
      expect(badRead(entry)).not.toBeNull();
    },
  );

  it('refuses every spelling of a path in /proc, /sys, /dev, /run or /var/run, and keeps the normal spelling of what it allows (property)', () => {
    const refused = fc.constantFrom('/proc', '/sys/kernel', '/dev/shm', '/run', '/run/user/1000/bus', '/var/run', '/var/run/docker.sock');
    const allowed = fc.constantFrom('/usr/share/dict', '/etc/hosts', '/var/lib/app', '/opt/tool/bin', '~/.gitconfig', '~/.config/git/ignore');
    fc.assert(
      fc.property(refused.chain(spelled), (entry) => {
        expect(badRead(entry), entry).not.toBeNull();
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(allowed.chain((path) => fc.tuple(fc.constant(path), spelled(path))), ([path, entry]) => {
        expect(badRead(entry), entry).toBeNull();
        expect(normalRead(entry)).toBe(path);
      }),
      { numRuns: 400 },
    );
  });

  it('loads the entry in its normal spelling', () => {
    expect(load('reads: ["~//.config//git/ignore/", /usr/share//dict/]').box.reads).toEqual(['~/.config/git/ignore', '/usr/share/dict']);
    expect(of(load('reads: [/var//run]'), 'E430')).toHaveLength(1);
  });
});

describe('E433: a declaration cannot reach a secret', () => {
  it('refuses keys, credentials, Skilltray’s home and folders holding them, at the line of reads:, and the skill does not run', () => {
    const skill = load(
      'reads:\n  - ~/.ssh/id_rsa\n  - ~/.aws/credentials\n  - ~/.local/share/skilltray/token\n  - ~/.config\n  - /home/bob/.netrc\n  - ~/.gitconfig\n  - /usr/share/dict',
    );
    const found = of(skill, 'E433');
    expect(found.map((d) => d.message)).toEqual([
      expect.stringMatching(/'~\/\.ssh\/id_rsa' lies in ~\/\.ssh, which no run may read/),
      expect.stringMatching(/'~\/\.aws\/credentials' lies in ~\/\.aws/),
      expect.stringMatching(/'~\/\.local\/share\/skilltray\/token' lies in Skilltray's home/),
      expect.stringMatching(/'~\/\.config' holds ~\/\.config\/gcloud.*name the files inside it/),
      expect.stringMatching(/'\/home\/bob\/\.netrc' is ~\/\.netrc/),
    ]);
    expect(found.every((d) => d.line === 5 && d.file === skill.file && d.severity === 'error')).toBe(true);
    expect(skill.state).toBe('error');
  });

  it("refuses Skilltray's home and the person's home where this machine has them", () => {
    const skill = load('reads: [/srv/skt/state.db, /data/alice/snap/firefox, /data/alice, /srv/other]');
    expect(of(skill, 'E433')).toEqual([]);
    const places = { platform: 'linux' as const, userHome: '/data/alice', skilltrayHome: '/srv/skt' };
    const known = identify(skill, undefined, places);
    expect(of(known, 'E433').map((d) => d.message)).toEqual([
      expect.stringContaining("'/srv/skt/state.db' lies in Skilltray's home (/srv/skt)"),
      expect.stringContaining("'/data/alice/snap/firefox' is ~/snap/firefox"),
      expect.stringContaining("'/data/alice' holds your home folder"),
    ]);
    expect(known.state).toBe('error');
    // Recomputed on every call: the same skill on a machine without those places is clean again.
    expect(of(identify(known), 'E433')).toEqual([]);
  });
});

describe("E434: a Command's program cannot be a file in a secret place", () => {
  it('refuses an absolute program under ~/.ssh or in Skilltray’s home, at the Command’s line', () => {
    const skill = load('', tool('/home/bob/.ssh/helper --go') + tool('"/root/.aws/run"').replace('### run', '### other'));
    expect(of(skill, 'E434').map((d) => [d.message, d.line])).toEqual([
      [expect.stringContaining("tool run: the program '/home/bob/.ssh/helper' lies in ~/.ssh"), 15],
      [expect.stringContaining("tool other: the program '/root/.aws/run' lies in ~/.aws"), 25],
    ]);
    expect(skill.state).toBe('error');
  });

  it('lets system programs, relative scripts, and a skill’s own file inside Skilltray’s home through', () => {
    expect(of(load('', tool('/usr/bin/git status') + tool('scripts/run.sh').replace('### run', '### b')), 'E434')).toEqual([]);
    const skilltrayHome = tempDir();
    const skill = load('', tool(`${join(skilltrayHome, 'skills', 'demo', 'run.sh')}`), join(skilltrayHome, 'skills'));
    expect(of(identify(skill, undefined, { platform: 'linux', skilltrayHome }), 'E434')).toEqual([]);
    const other = load('', tool(`${join(skilltrayHome, 'token')}`), join(skilltrayHome, 'skills'));
    expect(of(identify(other, undefined, { platform: 'linux', skilltrayHome }), 'E434')).toHaveLength(1);
  });
});
