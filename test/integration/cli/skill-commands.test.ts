import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixtureSkill } from '../../fixtures/gateway/skill-fixture.js';
import { cli, cliProcess } from '../../support/cli.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';

const TOOL = `
### greet

Greets someone.

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
| who | string | yes | Who |

#### Command

\`\`\`
echo hello <<who>>
\`\`\`
`;

function home() {
  const t = testHome();
  writeSkill(t.skills, 'greeter', skillMd({ name: 'greeter', description: 'Greets. Use when greeting.', version: '1.2.3' }, TOOL));
  writeSkill(t.bundled, 'greeter', skillMd({ name: 'greeter', description: 'Bundled greeter.', version: '1.0.0' }));
  writeSkill(t.skills, 'broken', skillMd({ name: 'wrong', description: 'x' }, TOOL));
  return t;
}

describe('skilltray list', () => {
  it('--json lists every skill with source, trust, hash, tools, status, diagnostics, and the shadowed ones', async () => {
    const t = home();
    const { code, stdout } = await cli(['list', '--json'], t);
    expect(code).toBe(0);
    const data = JSON.parse(stdout);
    expect(data.skills.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ['broken', 'error'],
      ['greeter', 'warnings'],
    ]);
    const greeter = data.skills[1];
    expect(greeter).toMatchObject({
      version: '1.2.3',
      trust: 'user',
      identity: {
        rootKind: 'env',
        path: join(t.skills, 'greeter'),
        trust: 'user',
        manifest: null,
        hides: [{ path: join(t.bundled, 'greeter'), rootKind: 'bundled' }],
      },
      diagnostics: [{ code: 'W421', severity: 'warning' }],
      root: { path: t.skills, kind: 'env' },
      path: join(t.skills, 'greeter'),
      tools: [{ name: 'greet', params: [expect.objectContaining({ name: 'who', type: 'string', required: true })] }],
    });
    expect(greeter.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(data.shadowed).toEqual([
      {
        name: 'greeter',
        winner: { path: join(t.skills, 'greeter'), root: { path: t.skills, kind: 'env' } },
        loser: { path: join(t.bundled, 'greeter'), root: { path: t.bundled, kind: 'bundled' } },
      },
    ]);
  });

  it("shows an Agent Skill's metadata.version as its version, with no warning for the formats it is not", async () => {
    const t = home();
    copyFixtureSkill(t.skills, 'agent-skill');
    const listed = JSON.parse((await cli(['list', '--json'], t)).stdout) as {
      skills: { name: string; version: string | null; status: string; diagnostics: unknown[] }[];
    };
    expect(listed.skills.find((s) => s.name === 'agent-skill')).toMatchObject({ version: '1.0', status: 'ok', diagnostics: [] });
    expect(await cli(['check', 'agent-skill'], t)).toMatchObject({ code: 0 });
  });

  it('prints a table and the shadow note for people', async () => {
    const { code, stdout } = await cli(['list'], home());
    expect(code).toBe(0);
    expect(stdout).toMatch(/^NAME\s+VERSION\s+TRUST\s+STATUS\s+ON\s+TOOLS\s+DESCRIPTION$/m);
    expect(stdout).toMatch(/^greeter\s+1\.2\.3\s+user\s+warnings\s+on\s+1\s+Greets\. Use when greeting\.$/m);
    expect(stdout).toMatch(/^note: greeter in .* hides greeter in .*bundled$/m);
  });
});

describe('skilltray check', () => {
  it('exits 1 on errors, says first that Skilltray will not run the skill, then which formats each diagnostic breaks', async () => {
    const t = home();
    const { code, stdout } = await cli(['check', 'broken'], t);
    expect(code).toBe(1);
    expect(stdout).toContain(
      "error[E407] SKILL.md:2 name 'wrong' does not match directory 'broken' (Skilltray will not run this skill; also breaks: gibb.eri.sh, Kode, Agent Skills/Claude)",
    );
    // A Skilltray skill with a tool needs no version: gibb.eri.sh's rule binds only gibb.eri.sh's folder.
    expect(stdout).not.toContain('W402');
    expect(stdout).toMatch(/1 skill checked: 1 error, 0 warnings$/m);
  });

  it('checks a directory of skills by path, without installing them', async () => {
    const t = home();
    const { code, stdout } = await cli(['check', '.', '--json'], t, { cwd: t.skills });
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.skills.map((s: { name: string }) => s.name)).toEqual(['broken', 'greeter']);
    // The greeter found by path is the loaded one, which hides the bundled greeter (W421), as by name.
    expect(report).toMatchObject({ errors: 1, warnings: 1 });
    expect(report.skills[1].diagnostics.map((d: { code: string }) => d.code)).toEqual(['W421']);
  });

  it('exits 0 for a clean skill given by path', async () => {
    const t = home();
    const { code } = await cli(['check', join(t.skills, 'greeter')], t);
    expect(code).toBe(0);
  });

  it("gives gibb.eri.sh's own skills the same diagnostics by path, by name and in list (no W410 in its folder)", async () => {
    const t = testHome();
    const gibbRoot = join(t.userHome, '.local', 'share', 'gibb.eri.sh', 'skills');
    mkdirSync(gibbRoot, { recursive: true });
    cpSync(join(import.meta.dirname, '..', '..', 'fixtures', 'gibberish-skills'), gibbRoot, { recursive: true });
    const listed = JSON.parse((await cli(['list', '--json'], t)).stdout) as { skills: { name: string; diagnostics: unknown[] }[] };
    for (const name of ['files', 'git', 'summarize']) {
      const byPath = JSON.parse((await cli(['check', join(gibbRoot, name), '--json'], t)).stdout) as { skills: { diagnostics: { code: string }[] }[] };
      const byName = JSON.parse((await cli(['check', name, '--json'], t)).stdout) as { skills: { diagnostics: unknown[] }[] };
      expect(byPath.skills[0]?.diagnostics).toEqual(listed.skills.find((s) => s.name === name)?.diagnostics);
      expect(byName.skills[0]?.diagnostics).toEqual(byPath.skills[0]?.diagnostics);
      expect(byPath.skills[0]?.diagnostics.map((d) => d.code)).not.toContain('W410');
    }
  });

  it('a folder whose skill file is SKILL.MD or skill.md is listed and checked with E422, not skipped without a word', async () => {
    const t = testHome();
    writeFileSync(join(t.skills, 'upper.md'), 'not a folder');
    for (const [name, file] of [
      ['upper', 'SKILL.MD'],
      ['lower', 'skill.md'],
    ] as const) {
      mkdirSync(join(t.skills, name), { recursive: true });
      writeFileSync(join(t.skills, name, file), skillMd({ name, description: 'Misnamed.' }, '# Hi\n'));
    }
    const listed = JSON.parse((await cli(['list', '--json'], t)).stdout) as {
      skills: { name: string; status: string; diagnostics: { code: string; message: string }[] }[];
    };
    const found = listed.skills.filter((s) => s.name === 'upper' || s.name === 'lower');
    expect(found.map((s) => [s.name, s.status, s.diagnostics.map((d) => d.code)])).toEqual([
      ['lower', 'error', ['E422']],
      ['upper', 'error', ['E422']],
    ]);
    expect(found[1]?.diagnostics[0]?.message).toBe(
      "the skill's file is named 'SKILL.MD', not SKILL.md: Skilltray and most hosts read SKILL.md only (names are case-sensitive here); rename it to SKILL.md",
    );
    const checked = await cli(['check', t.skills, '--json'], t);
    expect(checked.code).toBe(1);
    expect((JSON.parse(checked.stdout) as { skills: { name: string }[] }).skills.map((s) => s.name)).toEqual(['lower', 'upper']);
    expect((await cli(['check', join(t.skills, 'upper')], t)).stdout).toContain("error[E422] SKILL.md:1 the skill's file is named 'SKILL.MD'");
  });

  it('E001 for an unknown name, E010 for a directory without SKILL.md', async () => {
    const t = home();
    expect(await cli(['check', 'nothing'], t)).toMatchObject({ code: 1, stderr: "error[E001]: skill 'nothing' not found\n" });
    const e010 = await cli(['check', t.home], t);
    expect(e010).toMatchObject({ code: 1, stderr: `error[E010]: not a valid skill: '${t.home}' (missing SKILL.md)\n` });
  });
});

describe('skilltray describe', () => {
  it('--json gives the skill whole', async () => {
    const { code, stdout } = await cli(['describe', 'greeter', '--json'], home());
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      name: 'greeter',
      frontmatter: { name: 'greeter', version: '1.2.3' },
      tools: [{ name: 'greet', command: 'echo hello <<who>>' }],
      requires: { bins: [], env: [] },
      classification: null,
    });
  });
});

describe('the second corpus: odd names, dates, commas, every frontmatter field (test/fixtures/corpus)', () => {
  const CORPUS = join(import.meta.dirname, '..', '..', 'fixtures', 'corpus');
  function corpusHome() {
    const t = testHome();
    cpSync(CORPUS, t.skills, { recursive: true });
    return t;
  }

  it('describe prints license, compatibility, allowed-tools and metadata in that order after classification, empty ones left out', async () => {
    const t = testHome();
    writeSkill(
      t.skills,
      'full',
      skillMd(
        'name: full\ndescription: Has every field.\nmetadata:\n  author: ada\n  empty: ""\n  classification:\n    role: utility\n  updated: "2026-03-05"\nallowed-tools: Read Grep\ncompatibility: Needs git 2.40\nlicense: MIT',
      ),
    );
    const { code, stdout } = await cli(['describe', 'full'], t);
    expect(code).toBe(0);
    const fields = stdout.split('\n').filter((line) => /^(classification|license|compatibility|allowed-tools|metadata):|^ {2}\w+: /.test(line));
    expect(fields).toEqual([
      'classification: role utility, invocation -, effect -, targets []',
      'license:        MIT',
      'compatibility:  Needs git 2.40',
      'allowed-tools:  Read Grep',
      'metadata:',
      '  author: ada',
      '  updated: 2026-03-05',
    ]);
    const bare = (await cli(['describe', 'zh-notes'], corpusHome())).stdout;
    expect(bare).toContain('license:        MIT\n');
    expect(bare).not.toMatch(/^(compatibility|allowed-tools|metadata):/m);
  });

  it('a skill whose folder starts with - is the skill after the command, with or without --; list and check warn (W440)', async () => {
    const t = corpusHome();
    const described = await cli(['describe', '-x'], t);
    expect(described).toMatchObject({ code: 0, stderr: '' });
    expect(described.stdout).toMatch(/^-x\n/);
    expect((await cli(['describe', '--', '-x'], t)).stdout).toBe(described.stdout);
    expect(JSON.parse((await cli(['describe', '-x', '--json'], t)).stdout)).toMatchObject({ name: '-x' });
    expect((await cli(['outline', '-x'], t)).stdout).toContain('Dash');
    expect((await cli(['sources', '-x'], t)).stdout).toContain('SKILL.md');
    expect((await cli(['run', '-x', 'go', '--dry-run'], t)).stderr).toBe("error[E506]: tool 'go' not found in skill '-x'; it has no tools\n");
    expect((await cli(['rules', 'unsandbox', '-x', '--json'], t)).code).toBe(0);
    expect((await cli(['check', '-x'], t)).stdout).toMatch(/warning\[W440\] SKILL\.md:1 the folder's name '-x' starts with '-'/);
    expect((await cli(['list'], t)).stdout).toMatch(
      /^warning: -x starts with '-', which other hosts' command lines read as an option \(W440\); rename its folder$/m,
    );
    // An option the command has stays an option; a long one always is.
    expect((await cli(['describe', '-h'], t)).stdout).toMatch(/^Usage: skilltray describe/);
    expect(await cli(['describe', '--x'], t)).toMatchObject({ code: 1, stderr: expect.stringContaining("error[E100]: invalid option: '--x'") });
  });

  it('search finds a part of an unbroken run of Chinese, and the whole run still', async () => {
    const t = corpusHome();
    await cli(['build', '--all'], t);
    for (const query of ['适用', '适用场景', '行动']) {
      const { code, stdout } = await cli(['search', query, '--json'], t);
      expect(code, query).toBe(0);
      expect((JSON.parse(stdout) as { results: { skill: string; section: string }[] }).results[0], query).toMatchObject({
        skill: 'zh-notes',
        section: '适用场景',
      });
    }
  });

  it('check reports unquoted dates in metadata (W415) and comma-separated allowed-tools (W408)', async () => {
    const t = corpusHome();
    const dated = await cli(['check', 'dated-metadata'], t);
    expect(dated.code).toBe(0);
    expect(dated.stdout).toContain('warning[W415] SKILL.md:6 metadata.updated is a date, not a string');
    expect(dated.stdout).toContain('quote it as written, stamp: "2026-03-05T10:00:00Z"');
    expect(dated.stdout).not.toContain('metadata.quoted');
    expect((await cli(['check', 'comma-tools'], t)).stdout).toContain(
      "warning[W408] SKILL.md:4 allowed-tools separates tools with commas, so hosts read the tools 'Read,' 'Grep,'",
    );
  });
});

describe('command-line errors (E100, E101): plain sentences, then the usage line', () => {
  it.each([
    [
      ['list', '--bogus'],
      "error[E100]: invalid option: '--bogus'\nusage: skilltray list [options]\nsee 'skilltray list --help' for its options and examples\n",
    ],
    [
      ['list', '--bogus=1'],
      "error[E100]: invalid option: '--bogus'\nusage: skilltray list [options]\nsee 'skilltray list --help' for its options and examples\n",
    ],
    [
      ['check'],
      "error[E101]: check needs <skill-or-path>\nusage: skilltray check <skill-or-path> [options]\nsee 'skilltray check --help' for its options and examples\n",
    ],
    [
      ['describe', 'a', 'b'],
      "error[E101]: unexpected argument 'b'\nusage: skilltray describe <skill> [options]\nsee 'skilltray describe --help' for its options and examples\n",
    ],
    [['list', '--json=yes'], "error[E100]: --json takes no value\nusage: skilltray list [options]\nsee 'skilltray list --help' for its options and examples\n"],
    [
      ['list', '--limit'],
      "error[E100]: --limit needs a value: --limit <n>\nusage: skilltray list [options]\nsee 'skilltray list --help' for its options and examples\n",
    ],
    [['frobnicate'], "error[E101]: unknown command 'frobnicate'\nsee 'skilltray --help' for the commands\n"],
    [['serach', 'x'], "error[E101]: unknown command 'serach'; did you mean 'search'?\nsee 'skilltray --help' for the commands\n"],
  ])('%j', async (argv, stderr) => {
    const outcome = await cli(argv, home());
    expect(outcome).toMatchObject({ code: 1, stderr });
  });

  it('never wraps a sentence in "invalid option: \'…\'"', async () => {
    const t = home();
    for (const argv of [
      ['show', 'greeter'],
      ['search'],
      ['list', '--role', 'boss'],
      ['history', '--limit', 'x'],
      ['run', 'greeter'],
      ['outline', 'greeter', '--level', '9'],
    ]) {
      const { code, stderr } = await cli(argv, t);
      expect(code, argv.join(' ')).toBe(1);
      expect(stderr, argv.join(' ')).toMatch(/^error\[E10[01]\]: /);
      expect(stderr, argv.join(' ')).not.toContain("invalid option: '-");
      expect(stderr, argv.join(' ')).not.toMatch(/invalid option: '[^-]/);
    }
  });

  it('with --json the error is also data on stdout', async () => {
    const { stdout } = await cli(['describe', 'nope', '--json'], home());
    expect(JSON.parse(stdout)).toEqual({
      error: { code: 'E001', kind: 'skill_not_found', message: "skill 'nope' not found", details: { skill: 'nope', did_you_mean: [] } },
    });
  });
});

describe('an unknown skill or tool name: did you mean', () => {
  it('suggests the skill a typo or other capitals meant, on describe, run and check alike', async () => {
    const t = home();
    expect(await cli(['describe', 'greeterr'], t)).toMatchObject({ code: 1, stderr: "error[E001]: skill 'greeterr' not found; did you mean 'greeter'?\n" });
    expect((await cli(['run', 'Greeter', 'greet', '--arg', 'who=x', '--dry-run'], t)).stderr).toBe(
      "error[E001]: skill 'Greeter' not found; did you mean 'greeter'?\n",
    );
    expect((await cli(['check', 'greter'], t)).stderr).toBe("error[E001]: skill 'greter' not found; did you mean 'greeter'?\n");
  });

  it('finds a skill by the name its SKILL.md declares and says which folder holds it', async () => {
    const t = home();
    const { code, stderr, stdout } = await cli(['describe', 'wrong', '--json'], t);
    expect(code).toBe(1);
    expect(stderr).toBe(`error[E001]: skill 'wrong' not found; did you mean 'broken' (its SKILL.md says name: wrong; folder ${join(t.skills, 'broken')})?\n`);
    expect(JSON.parse(stdout).error.details.did_you_mean).toEqual([{ name: 'broken', dir: join(t.skills, 'broken'), declared_name: 'wrong' }]);
  });

  it('suggests the tool of a skill, and nothing for a name far from every one', async () => {
    const t = home();
    expect((await cli(['run', 'greeter', 'gret', '--arg', 'who=x', '--dry-run'], t)).stderr).toBe(
      "error[E506]: tool 'gret' not found in skill 'greeter'; it has greet; did you mean 'greet'?\n",
    );
    expect((await cli(['describe', 'zzzzzz'], t)).stderr).toBe("error[E001]: skill 'zzzzzz' not found\n");
  });
});

describe('the skilltray bin', () => {
  it('runs as a real process with the same output and exit codes', async () => {
    const t = home();
    const ok = await cliProcess(['list', '--json'], t.env);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).skills.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['broken', 'greeter']));
    const bad = await cliProcess(['list', '--nope'], t.env);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error\[E100\]: invalid option: '--nope'\n/) });
  });
});
