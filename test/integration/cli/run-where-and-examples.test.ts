/**
 * Issue 39.2 and `run --example N`: a dry run from a folder no run may start in (the home) still
 * shows what would run, says it would be refused and what to pass instead; `--no-cwd` runs a tool
 * that needs no files in an empty folder of its own; a tool's own Examples are runnable by number.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.js';
import { skillMd, testHome, writeSkill, type TestHome } from '../../support/temp.js';

const HELLO = `
### greet

Say hello to someone.

#### Parameters

| Name | Type | Required | Description |
|---|---|---|---|
| name | string | yes | Who to greet |
| loud | boolean | no | Shout |

#### Command

\`\`\`
echo Hello, <<name>>! <<loud:--loud>>
\`\`\`

#### Examples

\`\`\`
User: say hello to Ada
Call: greet {"name": "Ada"}
User: shout hello to Grace
Call: greet {"name": "Grace", "loud": true}
User: greet Linus, gibb.eri.sh style
<start_function_call>call:greet{name:<escape>Linus Torvalds<escape>,loud:false}<end_function_call>
Call: greet {"name": "Ada"
\`\`\`
`;

function home(): TestHome {
  const t = testHome();
  writeSkill(t.skills, 'hello', skillMd({ name: 'hello', description: 'Greets someone by name. Use when asked to say hello.' }, HELLO));
  return t;
}

describe('a run from the home folder (issue 39.2)', () => {
  it('--dry-run still shows the program and arguments, says the run would be refused there, and what to pass instead', async () => {
    const t = home();
    const { code, stdout } = await cli(['run', 'hello', 'greet', '--arg', 'name=Ada', '--dry-run'], t, { cwd: t.userHome });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^program {3}\/\S+\/echo$/m);
    expect(stdout).toContain('  arg 1     "Hello,"\n  arg 2     "Ada!"\n');
    expect(stdout).toContain(`cwd       ${t.userHome}\n`);
    expect(stdout).toMatch(new RegExp(`^decision  refuse \\(E511\\): a tool cannot run in '${t.userHome}': it is your home folder`, 'm'));
    expect(stdout).toContain('or pass --cwd <that folder>; a tool that needs no files runs in an empty folder of its own with --no-cwd');
    const json = JSON.parse((await cli(['run', 'hello', 'greet', '--arg', 'name=Ada', '--dry-run', '--json'], t, { cwd: t.userHome })).stdout);
    expect(json).toMatchObject({
      decision: 'refuse',
      error: { code: 'E511', kind: 'workspace_refused' },
      command: { program: 'echo', args: ['Hello,', 'Ada!'] },
    });
  });

  it('the run itself is refused with E511 and the same hint; --no-cwd runs it in an empty folder of its own', async () => {
    const t = home();
    const refused = await cli(['run', 'hello', 'greet', '--arg', 'name=Ada', '--yes'], t, { cwd: t.userHome });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error\[E511\]: a tool cannot run in '.*': it is your home folder/);
    expect(refused.stderr).toContain('hint: run it from the folder of the project or files it should work on, or pass --cwd <that folder>');
    const ran = await cli(['run', 'hello', 'greet', '--arg', 'name=Ada', '--yes', '--no-cwd'], t, { cwd: t.userHome });
    expect(ran).toMatchObject({ code: 0, stdout: 'Hello, Ada!\n' });
    const dry = JSON.parse((await cli(['run', 'hello', 'greet', '--arg', 'name=Ada', '--no-cwd', '--dry-run', '--json'], t, { cwd: t.userHome })).stdout);
    expect(dry.command.cwd).toMatch(/skilltray-no-folder-/);
    expect(dry.decision).toBe('ask');
    expect((await cli(['run', 'hello', 'greet', '--no-cwd', '--cwd', t.work], t)).stderr).toMatch(
      /^error\[E100\]: --cwd and --no-cwd cannot be given together/,
    );
  });
});

describe('run --example N', () => {
  it("runs the tool's own example calls by number, in Skilltray's form and gibb.eri.sh's", async () => {
    const t = home();
    const dry = async (n: number) =>
      JSON.parse((await cli(['run', 'hello', 'greet', '--example', String(n), '--dry-run', '--json'], t, { cwd: t.work })).stdout);
    expect((await dry(1)).command.args).toEqual(['Hello,', 'Ada!']);
    expect((await dry(2)).command.args).toEqual(['Hello,', 'Grace!', '--loud']);
    expect((await dry(3)).command.args).toEqual(['Hello,', 'Linus Torvalds!']);
    const ran = await cli(['run', 'hello', 'greet', '--example', '2', '--yes'], t, { cwd: t.work });
    expect(ran).toMatchObject({ code: 0, stdout: 'Hello, Grace! --loud\n' });
  });

  it('a number with no example is E520 listing the examples there are; one that cannot be read is E521; --example with --arg is E100', async () => {
    const t = home();
    const missing = await cli(['run', 'hello', 'greet', '--example', '9', '--dry-run'], t, { cwd: t.work });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      'error[E520]: tool \'greet\' has no example 9; its examples: 1. {"name":"Ada"} (User: say hello to Ada); 2. {"name":"Grace","loud":true} (User: shout hello to Grace); 3. {"name":"Linus Torvalds","loud":false} (User: greet Linus, gibb.eri.sh style); 4. Call: greet {"name": "Ada"',
    );
    const broken = await cli(['run', 'hello', 'greet', '--example', '4', '--dry-run'], t, { cwd: t.work });
    expect(broken.stderr).toMatch(/^error\[E521\]: example 4 of tool 'greet' cannot be run: the arguments are not JSON/);
    const both = await cli(['run', 'hello', 'greet', '--example', '1', '--arg', 'name=Bo', '--dry-run'], t, { cwd: t.work });
    expect(both.stderr).toMatch(/^error\[E100\]: --example gives the arguments itself/);
    expect((await cli(['run', 'hello', 'greet', '--example', '0'], t)).stderr).toMatch(/^error\[E100\]: --example must be at least 1/);
  });
});
