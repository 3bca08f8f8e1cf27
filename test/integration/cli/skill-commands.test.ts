import { cpSync, mkdirSync } from 'node:fs';
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
      ['greeter', 'ok'],
    ]);
    const greeter = data.skills[1];
    expect(greeter).toMatchObject({
      version: '1.2.3',
      trust: 'user',
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

  it('shows an Agent Skill\'s metadata.version as its version, with no warning for the formats it is not', async () => {
    const t = home();
    copyFixtureSkill(t.skills, 'agent-skill');
    const listed = JSON.parse((await cli(['list', '--json'], t)).stdout) as { skills: { name: string; version: string | null; status: string; diagnostics: unknown[] }[] };
    expect(listed.skills.find((s) => s.name === 'agent-skill')).toMatchObject({ version: '1.0', status: 'ok', diagnostics: [] });
    expect(await cli(['check', 'agent-skill'], t)).toMatchObject({ code: 0 });
  });

  it('prints a table and the shadow note for people', async () => {
    const { code, stdout } = await cli(['list'], home());
    expect(code).toBe(0);
    expect(stdout).toMatch(/^NAME\s+VERSION\s+TRUST\s+STATUS\s+ON\s+TOOLS\s+DESCRIPTION$/m);
    expect(stdout).toMatch(/^greeter\s+1\.2\.3\s+user\s+ok\s+on\s+1\s+Greets\. Use when greeting\.$/m);
    expect(stdout).toMatch(/^note: greeter in .* hides greeter in .*bundled$/m);
  });
});

describe('skilltray check', () => {
  it('exits 1 on errors and says which formats each diagnostic breaks', async () => {
    const t = home();
    const { code, stdout } = await cli(['check', 'broken'], t);
    expect(code).toBe(1);
    expect(stdout).toContain("error[E407] SKILL.md:2 name 'wrong' does not match directory 'broken' (breaks: gibb.eri.sh, Kode, Agent Skills/Claude)");
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
    expect(report).toMatchObject({ errors: 1, warnings: 0 });
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

describe('command-line errors (E100, E101): plain sentences, then the usage line', () => {
  it.each([
    [['list', '--bogus'], "error[E100]: invalid option: '--bogus'\nusage: skilltray list [options]\nsee 'skilltray list --help' for its options and examples\n"],
    [['list', '--bogus=1'], "error[E100]: invalid option: '--bogus'\nusage: skilltray list [options]\nsee 'skilltray list --help' for its options and examples\n"],
    [['check'], "error[E101]: check needs <skill-or-path>\nusage: skilltray check <skill-or-path> [options]\nsee 'skilltray check --help' for its options and examples\n"],
    [['describe', 'a', 'b'], "error[E101]: unexpected argument 'b'\nusage: skilltray describe <skill> [options]\nsee 'skilltray describe --help' for its options and examples\n"],
    [['list', '--json=yes'], "error[E100]: --json takes no value\nusage: skilltray list [options]\nsee 'skilltray list --help' for its options and examples\n"],
    [['list', '--limit'], "error[E100]: --limit needs a value: --limit <n>\nusage: skilltray list [options]\nsee 'skilltray list --help' for its options and examples\n"],
    [['frobnicate'], "error[E101]: unknown command 'frobnicate'\nsee 'skilltray --help' for the commands\n"],
    [['serach', 'x'], "error[E101]: unknown command 'serach'; did you mean 'search'?\nsee 'skilltray --help' for the commands\n"],
  ])('%j', async (argv, stderr) => {
    const outcome = await cli(argv, home());
    expect(outcome).toMatchObject({ code: 1, stderr });
  });

  it('never wraps a sentence in "invalid option: \'…\'"', async () => {
    const t = home();
    for (const argv of [['show', 'greeter'], ['search'], ['list', '--role', 'boss'], ['history', '--limit', 'x'], ['run', 'greeter'], ['outline', 'greeter', '--level', '9']]) {
      const { code, stderr } = await cli(argv, t);
      expect(code, argv.join(' ')).toBe(1);
      expect(stderr, argv.join(' ')).toMatch(/^error\[E10[01]\]: /);
      expect(stderr, argv.join(' ')).not.toContain("invalid option: '-");
      expect(stderr, argv.join(' ')).not.toMatch(/invalid option: '[^-]/);
    }
  });

  it('with --json the error is also data on stdout', async () => {
    const { stdout } = await cli(['describe', 'nope', '--json'], home());
    expect(JSON.parse(stdout)).toEqual({ error: { code: 'E001', kind: 'skill_not_found', message: "skill 'nope' not found", details: { skill: 'nope' } } });
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
