/**
 * Codex-style filesystem probes on the real runner: under `read-only` only the private temp and home
 * are writable, under `workspace` the working directory too; what lies outside the box is not there
 * at all; a symlink swapped in mid-run leads nowhere writable; secrets stay unreadable in every
 * profile, through symlinks as well. Every secret is read once without a sandbox first (the control).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SkilltrayCore } from '../../../src-main/core/api.js';
import type { RunEvent } from '../../../src-main/shared/runs.js';
import { ordinaryDir, requireSandbox } from '../../support/sandbox.js';
import { tempDir, writeFiles } from '../../support/temp.js';
import { probe, probeHome, unsandboxed } from './probe.js';

beforeAll(() => requireSandbox());

/** Resolves once the run's output contains `text`. */
function outputSeen(core: SkilltrayCore, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    // The run service's own events carry the text; subscribers hear only that output came.
    const listener = (event: RunEvent): void => {
      if (event.type !== 'output') return;
      seen += event.text;
      if (!seen.includes(text)) return;
      core.runs.service.off('run', listener);
      resolve();
    };
    core.runs.service.on('run', listener);
  });
}

describe('writes', () => {
  it('read-only: the private temp and home are writable and private; the cwd and system are not', async () => {
    const { t, core } = probeHome();
    const marker = `skilltray-private-${process.pid}-${Date.now()}`;
    const report = await probe(
      core,
      'probe-ro',
      `echo kept > /tmp/${marker} && cat /tmp/${marker} && echo "$TMPDIR"; echo x > cwd-file; echo x > "$HOME/home-file" && ls -A "$HOME"; echo x > /etc/skilltray-probe; echo x > /var/tmp/${marker} && echo var-tmp-ok`,
      t.work,
    );
    expect(report.sandbox).toMatchObject({ name: 'read-only', contained: true });
    expect(report.result.stdout).toBe('kept\n/tmp\nhome-file\nvar-tmp-ok\n');
    expect(report.result.stderr).toMatch(/cwd-file: Read-only file system/);
    expect(report.result.stderr).toMatch(/skilltray-probe: Read-only file system/);
    expect(existsSync(join('/tmp', marker))).toBe(false);
    expect(existsSync(join(t.work, 'cwd-file'))).toBe(false);
    expect(existsSync(join(t.userHome, 'home-file'))).toBe(false);
  });

  it('workspace: writes land in the cwd and nowhere else', async () => {
    const { core } = probeHome();
    const base = ordinaryDir();
    const cwd = join(base, 'project');
    const sibling = join(base, 'other');
    mkdirSync(cwd);
    mkdirSync(sibling);
    const report = await probe(
      core,
      'probe-ws',
      `echo ok > written.txt && mkdir sub && echo ok > sub/deep.txt; echo x > ${sibling}/leak.txt; echo x > ../leak.txt`,
      cwd,
    );
    expect(report.sandbox).toMatchObject({ name: 'workspace', contained: true, network: false });
    expect(existsSync(join(cwd, 'written.txt'))).toBe(true);
    expect(existsSync(join(cwd, 'sub', 'deep.txt'))).toBe(true);
    expect(readdirSync(sibling)).toEqual([]);
    expect(existsSync(join(base, 'leak.txt'))).toBe(false);
    // The sibling is not in the box at all; the parent is there only as the path to the cwd, read-only.
    expect(report.result.stderr).toMatch(/other\/leak.txt: No such file or directory/);
    expect(report.result.stderr).toMatch(/\.\.\/leak.txt: Read-only file system/);
  });

  for (const skill of ['probe-ro', 'probe-ws'] as const) {
    it(`${skill}: a directory swapped for a symlink mid-run leads nowhere writable`, async () => {
      const { core } = probeHome();
      const cwd = join(ordinaryDir(), 'project');
      const outside = ordinaryDir();
      mkdirSync(join(cwd, 'd'), { recursive: true });
      const ready = outputSeen(core, 'ready');
      // The tool waits for the swap (an event it polls for), then writes through the symlink.
      const run = probe(core, skill, 'echo ready; while [ ! -L d ]; do sleep 0.01; done; echo pwned > d/pwned && echo wrote', cwd);
      await ready;
      renameSync(join(cwd, 'd'), join(cwd, 'd.orig'));
      symlinkSync(outside, join(cwd, 'd'));
      const report = await run;
      expect(report.result.stdout).toBe('ready\n');
      // The link leads outside the box: to nothing there (a folder it could see would be read-only).
      expect(report.result.stderr).toMatch(/Read-only file system|No such file or directory/);
      expect(readdirSync(outside)).toEqual([]);
    });
  }

  it('read-only: a symlink planted in the private temp leads nowhere writable', async () => {
    const { t, core } = probeHome();
    const outside = ordinaryDir();
    const report = await probe(core, 'probe-ro', `ln -s ${outside} /tmp/out && echo x > /tmp/out/pwned`, t.work);
    expect(report.result.stderr).toMatch(/Read-only file system|No such file or directory/);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('secrets are unreadable in every profile', () => {
  it('~/.ssh/id_test, <home>/token, a symlinked ~/.aws and symlinks to them from the cwd: not in the box at all', async () => {
    const { t, core } = probeHome();
    const realAws = join(t.userHome, 'elsewhere', 'aws-real');
    mkdirSync(join(t.userHome, '.ssh'), { recursive: true });
    writeFileSync(join(t.userHome, '.ssh', 'id_test'), 'PRIVATE KEY\n');
    writeFileSync(join(t.home, 'token'), 'api-token\n');
    mkdirSync(realAws, { recursive: true });
    writeFileSync(join(realAws, 'credentials'), 'aws-secret\n');
    symlinkSync(realAws, join(t.userHome, '.aws'));
    writeFileSync(join(t.work, 'notes.txt'), 'ordinary\n');
    symlinkSync(join(t.userHome, '.ssh', 'id_test'), join(t.work, 'key'));
    const reads = [join(t.userHome, '.ssh', 'id_test'), join(t.home, 'token'), join(t.userHome, '.aws', 'credentials'), join(realAws, 'credentials')];
    const script = [
      ...reads.map((file) => `cat ${file}`),
      'cat key',
      `link="$(mktemp -d)/key" && ln -s ${reads[0]} "$link" && cat "$link"`,
      'cat notes.txt',
    ].join('; ');
    const control = await unsandboxed(script, t.work, { ...t.env, TMPDIR: tempDir() });
    expect(control.stdout).toBe('PRIVATE KEY\napi-token\naws-secret\naws-secret\nPRIVATE KEY\nPRIVATE KEY\nordinary');
    for (const skill of ['probe-ro', 'probe-ws', 'probe-net'] as const) {
      const report = await probe(core, skill, script, t.work);
      expect(report.sandbox.contained).toBe(true);
      expect(report.result.stdout, skill).toBe('ordinary\n');
    }
  });

  it('a declared folder shows its files, never the secrets beside it, however they are reached', async () => {
    const { t, core } = probeHome();
    writeFiles(t.userHome, {
      '.config/app/settings.ini': 'colour=blue\n',
      '.config/gh/hosts.yml': 'oauth_token: gho_secret\n',
      '.config/gcloud/credentials.db': 'gcloud-secret\n',
    });
    symlinkSync(join(t.userHome, '.config', 'gh', 'hosts.yml'), join(t.userHome, '.config', 'app', 'gh-link'));
    const script =
      'cat ~/.config/app/settings.ini; cat ~/.config/gh/hosts.yml; cat ~/.config/app/gh-link; cat ~/.config/gcloud/credentials.db; ls -A ~/.config/gh';
    const control = await unsandboxed(script, t.work, t.env);
    expect(control.stdout).toContain('gho_secret');
    const report = await probe(core, 'probe-reads', script, t.work);
    // ~/.config as a whole holds secrets, so no skill may declare it (E433): this one names the folder it needs.
    expect(report.sandbox).toMatchObject({ reads: ['~/.config/app'] });
    expect(report.result.stdout).toBe('colour=blue\n');
  });

  it("the home folder itself is no run's folder, even read-only under an allow rule: refused (E511) whatever policy says (a dry run shows it as its decision)", async () => {
    const { t, core } = probeHome();
    writeFileSync(join(t.userHome, 'notes.txt'), 'ordinary\n');
    core.policy.addRule('tool:probe-ro/sh', 'allow');
    expect(core.runs.dryRun({ skill: 'probe-ro', tool: 'sh', args: { script: 'true' }, surface: 'cli', cwd: t.userHome })).toMatchObject({
      decision: 'refuse',
      error: { code: 'E511', message: expect.stringContaining('your home folder') as unknown },
    });
    await expect(probe(core, 'probe-ro', 'cat notes.txt', t.userHome)).rejects.toMatchObject({ code: 'E511' });
  });
});
