/**
 * A new user's first commands, from a fresh home, through the real `skilltray` bin over the bundled
 * packs: the read commands just work (they build what they need), `search` takes unquoted words,
 * `--strict` keeps skillc's E002 for harnesses, and `--help` groups the commands in plain words.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_GROUPS } from '../../../src-main/cli/help.js';
import { commands } from '../../../src-main/cli/main.js';
import { SLOW_INDEXING_BYTES } from '../../../src-main/cli/search-text.js';
import { cli, cliProcess } from '../../support/cli.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';
import { REPO_SKILLS } from '../contract/fixture.js';

/** A fresh home over the checkout's bundled packs, as `npm install` leaves a new user. */
const fresh = () => testHome({ bundled: REPO_SKILLS });

describe('the first commands on a fresh home', () => {
  it('show and search work before anything was built; --strict (or SKILLTRAY_STRICT=1) answers E002, "not built yet"', async () => {
    const t = fresh();
    const strict = await cliProcess(['show', 'system', 'disk_usage', '--strict'], t.env);
    expect(strict).toMatchObject({ code: 1, stderr: "error[E002]: search index not built yet; run 'skilltray build system' to build it" });
    expect(await cliProcess(['search', 'git', 'log'], { ...t.env, SKILLTRAY_STRICT: '1' })).toMatchObject({
      code: 1,
      stderr: "error[E002]: search index not built yet; run 'skilltray build git' to build it",
    });

    const shown = await cliProcess(['show', 'system', 'disk_usage'], t.env);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toMatch(/^### disk_usage\n\nShow the size, used and available space of the machine's disks/);

    const inGit = await cliProcess(['search', 'git', 'log'], t.env);
    expect(inGit).toMatchObject({ code: 0, stderr: '' });
    expect(inGit.stdout.split('\n')[0]).toBe(' 1. git/git_log — tool: List recent commits, newest first, one per line: short hash, date, author and subject.');

    const disk = await cliProcess(['search', 'disk', 'space'], t.env);
    expect(disk).toMatchObject({ code: 0, stderr: 'note: no skill is named \'disk\', so every skill was searched for "disk space"' });
    expect(disk.stdout.split('\n').slice(0, 2)).toEqual([
      " 1. system/disk_usage — tool: Show the size, used and available space of the machine's disks in human units (K, M, G, T): file systems on disks and network shares, not the memory-backed one…",
      '    optional path (text) · skilltray run system disk_usage',
    ]);
  });

  it('search "git log" prints the git_log tool first, plain text with no Markdown and no 0.00 score', async () => {
    const t = fresh();
    const { code, stdout } = await cliProcess(['search', 'git log'], t.env);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^ 1\. git\/git_log — tool: /);
    expect(stdout).not.toMatch(/#{2,}|```|\(score|0\.00/);
    // The tool is found by what a caller sees of it: its fixed safety flags neither match nor show.
    expect(lines.slice(0, 3).join('\n')).not.toMatch(/core\.fsmonitor|showSignature|-c /);
    expect(stdout).not.toMatch(/^ ?\d+\. \S+: Command \(/m);
  });

  it('a read that must index a lot first says so on stderr; a quick one says nothing', async () => {
    const t = testHome();
    writeSkill(t.skills, 'small', skillMd({ name: 'small', description: 'Small.' }, '# Small\n\nA few words.\n'));
    const pages = Math.ceil(SLOW_INDEXING_BYTES / 4000) + 1;
    const big: Record<string, string> = {};
    for (let i = 0; i < pages; i++) big[`pages/page-${i}.md`] = `# Page ${i}\n\n${'lorem ipsum dolor sit amet '.repeat(150)}\n`;
    writeSkill(t.skills, 'big', skillMd({ name: 'big', description: 'Big.' }, '# Big\n\nMany pages.\n'), big);
    expect(await cli(['show', 'small', 'Small'], t)).toMatchObject({ code: 0, stderr: '' });
    const slow = await cli(['show', 'big', 'Page 1'], t);
    expect(slow.code).toBe(0);
    expect(slow.stderr).toMatch(/^indexing 'big' for search \(\d+ MB to read; later reads reuse the index\)…\n$/);
    expect((await cli(['show', 'big', 'Page 2'], t)).stderr).toBe('');
  });
});

describe('skilltray --help', () => {
  it('groups every command (Run, Find, Packs, Approvals & rules, Serve & connect, Skill authors) in plain words, once each', async () => {
    const { stdout } = await cliProcess(['--help'], fresh().env);
    expect(COMMAND_GROUPS.map(([group]) => group)).toEqual(['Run', 'Find', 'Packs', 'Approvals & rules', 'Serve & connect', 'Skill authors']);
    for (const [group] of COMMAND_GROUPS) expect(stdout).toContain(`\n${group}:\n`);
    const grouped = COMMAND_GROUPS.flatMap(([, list]) => list.map(([name]) => name));
    expect([...grouped].sort()).toEqual(commands.map((c) => c.name).sort());
    expect(stdout).not.toMatch(/RFC|ADR/);
  });

  it("no command's summary or option names a spec: RFC and ADR numbers are for the docs", () => {
    for (const command of commands) {
      const text = [command.summary, ...(command.notes ?? []), ...Object.values(command.options).map((o) => o.description)].join('\n');
      expect(text, command.name).not.toMatch(/RFC|ADR/);
    }
  });
});
