/**
 * A closed pipe ends every command quietly (#14 item 9): `skilltray list | head -1` as people type
 * it, and every command of the CLI writing into a pipe whose reader has already gone.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { commands } from '../../../src-main/cli/main.js';
import { findOwner } from '../../../src-main/server/app-link.js';
import { cli } from '../../support/cli.js';
import { skillMd, testHome, writeFiles, writeSkill, type TestHome } from '../../support/temp.js';
import { SKILLS_DIR } from '../packs/bundled-packs.js';
import { waitFor } from '../server/helpers.js';

const BIN = fileURLToPath(new URL('../../../bin/skilltray.js', import.meta.url));

/** Runs the built bin through a real shell pipeline, with the pipeline failing when skilltray does. */
async function piped(t: TestHome, command: string): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const result = await execa('bash', ['-c', `set -o pipefail; ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} ${command}`], {
    env: t.env,
    extendEnv: false,
    reject: false,
  });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The built bin with stdout a pipe whose reader has already exited (bash waits for it before
 * starting skilltray), so its very first write fails with EPIPE, however little it prints.
 */
function intoClosedPipe(t: TestHome, argv: readonly string[]) {
  return execa('bash', ['-c', 'exec 3> >(true); wait $!; exec "$@" >&3', 'bash', process.execPath, BIN, ...argv], {
    env: t.env,
    extendEnv: false,
    cwd: t.work,
    reject: false,
    stdin: 'ignore',
  });
}

describe('a closed pipe', () => {
  /** Enough skills that `list` writes far more than a pipe holds (64 KiB), so the reader leaves first. */
  function manySkills(): TestHome {
    const t = testHome();
    for (let i = 0; i < 900; i++)
      writeSkill(
        t.skills,
        `skill-${i}`,
        skillMd({ name: `skill-${i}`, description: `Skill number ${i}, ${'described at length '.repeat(8)}`, version: '1.0.0' }),
      );
    return t;
  }

  it('ends the command quietly: `list --json | head -c 10` and `list | head -1`', async () => {
    const t = manySkills();
    const json = await piped(t, 'list --json | head -c 10');
    expect(json).toMatchObject({ exitCode: 0, stdout: '{\n  "skill', stderr: '' });
    const text = await piped(t, 'list | head -1');
    expect(text).toMatchObject({ exitCode: 0, stderr: '' });
    expect(text.stdout).toMatch(/^NAME\s+VERSION/);
  });

  /**
   * A command line per command that prints on stdout, and its exit status as if stdout were read.
   * Commands that need an app running print their E807 as JSON on stdout, which the pipe refuses too.
   */
  function lines(notes: string): Record<string, [argv: string[], exitCode: number]> {
    return {
      list: [['list'], 0],
      check: [['check', 'git'], 0],
      describe: [['describe', 'git'], 0],
      roots: [['roots'], 0],
      run: [['run', 'files', 'word_count', '--arg', `path=${notes}`, '--yes'], 0],
      resolve: [['resolve', 'commit-message', 'the parser change'], 0],
      history: [['history'], 0],
      rules: [['rules'], 0],
      remembered: [['remembered'], 0],
      mode: [['mode'], 0],
      pause: [['pause'], 0],
      resume: [['resume'], 0],
      retention: [['retention'], 0],
      limits: [['limits'], 0],
      discover: [['discover', 'show me the git status'], 0],
      attach: [['attach', 'artifact-checksum', '--target-type', 'artifact', '--target-ref', notes, '--yes'], 0],
      outline: [['outline', 'git'], 0],
      show: [['show', 'git', 'git_status'], 0],
      open: [['open', 'git', 'SKILL.md'], 0],
      sources: [['sources', 'skill-authoring'], 0],
      search: [['search', 'git', 'status'], 0],
      build: [['build', 'files'], 0],
      stats: [['stats', 'git'], 0],
      sync: [['sync'], 0],
      approvals: [['approvals', '--json'], 1],
      approve: [['approve', 'no-such-run', '--json'], 1],
      deny: [['deny', 'no-such-run', '--json'], 1],
      token: [['token'], 0],
      mcp: [['mcp'], 0],
      install: [['install', join(SKILLS_DIR, 'git'), '--as', 'git-copy', '--yes'], 0],
      update: [['update', '--json'], 0],
      uninstall: [['uninstall', 'no-such-pack', '--json'], 1],
      packs: [['packs'], 0],
      enable: [['enable', 'git'], 0],
      disable: [['disable', 'git'], 0],
      'trust-key': [['trust-key', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEx4bXBsZQ ada@example.com'], 0],
      connect: [['connect'], 0],
      disconnect: [['disconnect', 'cursor'], 0],
      projects: [['projects'], 0],
      voice: [['voice', '--json'], 0],
      // A folder with no skills, and one that is not trusted: both errors, printed as JSON on stdout.
      'trust-project': [['trust-project', dirname(notes), '--yes', '--json'], 1],
      'untrust-project': [['untrust-project', dirname(notes), '--json'], 1],
      new: [['new', 'piped', '--dir', dirname(notes)], 0],
      doctor: [['doctor'], 0],
      completion: [['completion', 'bash'], 0],
    };
  }

  /** The bundled packs and a file to count and checksum; git's index built for the commands that read it. */
  async function bundledHome(name: string): Promise<{ t: TestHome; notes: string }> {
    const t = testHome({ bundled: SKILLS_DIR });
    writeFiles(t.work, { 'notes.txt': 'one two three\n' });
    if (['show', 'search', 'stats'].includes(name)) expect((await cli(['build', 'git'], t)).code).toBe(0);
    return { t, notes: join(t.work, 'notes.txt') };
  }

  /** Nothing but a sentence may reach stderr: no EPIPE, no stack trace. */
  function expectQuiet(stderr: string): void {
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).not.toMatch(/^\s+at /m);
  }

  it('has a line for every command (serve has its own test below)', () => {
    expect(Object.keys(lines('notes.txt')).sort()).toEqual(
      commands
        .map((c) => c.name)
        .filter((name) => name !== 'serve')
        .sort(),
    );
  });

  it.each([...Object.keys(lines('notes.txt')), '--version', '--help'])('%s exits as if read, saying nothing of the pipe', async (name) => {
    const { t, notes } = await bundledHome(name);
    const [argv, exitCode] = lines(notes)[name] ?? [[name], 0];
    const result = await intoClosedPipe(t, argv);
    expectQuiet(result.stderr);
    expect(result.exitCode, result.stderr).toBe(exitCode);
  });

  it('serve announces itself into the closed pipe, serves on, and stops cleanly', async () => {
    const t = testHome();
    const child = intoClosedPipe(t, ['serve', '--port', '0']);
    await waitFor(async () => (await findOwner(t.home)) ?? undefined, 20_000);
    child.kill('SIGTERM');
    const result = await child;
    expectQuiet(result.stderr);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('SIGTERM: stopping');
  });
});
