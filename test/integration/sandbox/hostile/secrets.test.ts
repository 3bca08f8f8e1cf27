/**
 * Issue #20's first attack: reads were a deny-list. A read-only, no-network tool read
 * ~/.bash_history, git's XDG credentials, ~/.pgpass, cargo's and vault's tokens; as root bundled
 * file_head printed /etc/shadow unasked; XDG_* and LC_* variables reached the tool. Each decoy is
 * read once without a sandbox (the control), then attacked through the real command line — bundled
 * file_head, which runs unasked, and a probe in every profile — as root and as an ordinary user.
 */
import { basename, dirname, join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { asActor, asRootAndUser, attack, ENV_DECOYS, plant, resultOf } from './actors.js';

/** Secrets in the old mask list and out of it, each with its own recognisable content. */
const DECOYS: Record<string, string> = {
  '.bash_history': 'decoy-bash-history',
  '.config/git/credentials': 'https://decoy:decoy-git-xdg-token@github.com',
  '.pgpass': 'db:5432:*:app:decoy-pgpass',
  '.cargo/credentials.toml': 'token = "decoy-cargo-token"',
  '.vault-token': 'decoy-vault-token',
  '.config/rclone/rclone.conf': 'pass = decoy-rclone',
  '.terraform.d/credentials.tfrc.json': '{"token": "decoy-terraform"}',
  '.config/Code/User/settings.json': '{"decoy": "decoy-vscode"}',
  '.ssh/id_ed25519': 'decoy-ssh-key',
  '.aws/credentials': 'aws_secret_access_key = decoy-aws',
  '.netrc': 'machine x password decoy-netrc',
};

const LONG = { timeout: 120_000 };

/** The folders above a relative path, outermost first: `a/b/c` → `a`, `a/b`. */
function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

asRootAndUser((actor) => {
  it("decoys in and out of the old mask list, and Skilltray's token: readable without a sandbox, never through one", LONG, async () => {
    plant(actor, DECOYS);
    const paths = [...Object.keys(DECOYS).map((rel) => join(actor.home, rel)), join(actor.skilltrayHome, 'token')];
    const control = await asActor(actor, 'cat', paths);
    for (const secret of [...Object.values(DECOYS), 'decoy-skilltray-api-token']) expect(control.stdout).toContain(secret);

    for (const path of paths) {
      const { outcome, report } = await attack(actor, 'files', 'file_head', { path });
      expect(outcome.stdout + outcome.stderr, path).not.toContain('decoy-');
      expect(report.sandbox, path).toMatchObject({ contained: true });
    }
    const script = `cat ${paths.join(' ')}; find "$HOME" ${dirname(actor.home)} -type f 2>/dev/null | xargs cat 2>/dev/null`;
    for (const skill of ['probe-ro', 'probe-ws', 'probe-net']) {
      const { report } = await attack(actor, skill, 'sh', { script });
      expect(report.sandbox, skill).toMatchObject({ contained: true });
      expect(resultOf(report).stdout, skill).not.toContain('decoy-');
    }
  });

  it('/etc/shadow, /etc/gshadow and sudoers stay unreadable, as root too (bundled file_head runs unasked)', LONG, async () => {
    const control = await asActor(actor, 'cat', ['/etc/shadow']);
    // Root reads it without a sandbox; an ordinary user cannot even then.
    if (actor.name === 'root') expect(control.stdout).toMatch(/^root:/m);
    else expect(control.code).not.toBe(0);
    const { report } = await attack(actor, 'files', 'file_head', { path: '/etc/shadow' });
    expect(report.decision).toMatchObject({ outcome: 'auto', by: 'policy' });
    expect(resultOf(report).stdout).toBe('');
    const probe = await attack(actor, 'probe-ro', 'sh', {
      script: 'cat /etc/shadow /etc/gshadow /etc/sudoers; ls -A /etc/sudoers.d /etc/ssl/private 2>&1; echo end',
    });
    expect(resultOf(probe.report).stdout).not.toMatch(/^root:/m);
    expect(resultOf(probe.report).stdout.trim().split('\n').at(-1)).toBe('end');
  });

  it('other homes, /root, /run, /media, /mnt, /srv and the rest of the host are not in the box', LONG, async () => {
    const { report } = await attack(actor, 'probe-ro', 'sh', {
      script: 'ls -A / ; echo ---; ls -A /home 2>&1; echo ---; cd "$HOME" && find . -mindepth 1 | sort',
    });
    const [top, homes, home] = resultOf(report).stdout.split('---\n');
    const shown = (top ?? '').trim().split('\n');
    for (const absent of ['root', 'run', 'media', 'mnt', 'srv', 'opt', 'boot', 'var/run']) expect(shown, absent).not.toContain(absent);
    // /home is there only as the way to the person's own (empty, private) home.
    const own = dirname(actor.home) === '/home' ? [basename(actor.home)] : [];
    expect(
      (homes ?? '').trim() === ''
        ? []
        : (homes ?? '')
            .trim()
            .split('\n')
            .filter((line) => !line.includes('No such file')),
    ).toEqual(own);
    // The private home holds only the ways to the skill's snapshot and the workspace, both mounted at their real paths.
    const skill = relative(actor.home, join(actor.skilltrayHome, 'skills', 'probe-ro'));
    const ways = [...ancestors(skill), skill, join(skill, 'SKILL.md'), relative(actor.home, actor.project)].map((path) => `./${path}`).sort();
    expect((home ?? '').trim().split('\n')).toEqual(ways);
  });

  it('XDG_*, other LC_* names, socket addresses and undeclared tokens never reach a tool', LONG, async () => {
    const { report } = await attack(actor, 'probe-ro', 'sh', { script: 'env' });
    const names = resultOf(report)
      .stdout.trim()
      .split('\n')
      .map((line) => line.split('=')[0]);
    for (const decoy of Object.keys(ENV_DECOYS)) expect(names, decoy).not.toContain(decoy);
    expect(resultOf(report).stdout).not.toContain('decoy');
    expect(resultOf(report).stdout).toContain('LANG=C.UTF-8');
    expect(resultOf(report).stdout).toContain(`HOME=${actor.home}`);
  });
});
