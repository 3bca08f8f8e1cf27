/**
 * `skilltray completion bash|zsh|fish`, asked by the real shells: the bash script sourced in bash
 * and asked with COMP_WORDS as bash fills them; the zsh script parsed (`zsh -n`) and its function
 * asked with zsh's words and CURRENT; the fish script parsed (`fish -n`) and asked with `complete
 * -C`. Skill and tool names come from the skilltray on PATH (the built bin), as they would.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { toolNamesAt } from '../../../src-main/core/skills/tool-names.js';
import { cliProcess } from '../../support/cli.js';
import { skillMd, tempDir, testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { loadPacks } from '../packs/bundled-packs.js';

const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'skilltray.js');

const TOOLS = `
### greet

Say hello.

#### Parameters

| Name | Type | Required | Description |
|---|---|---|---|
| name | string | yes | Who |

#### Command

\`\`\`
echo <<name>>
\`\`\`

### wave

Wave.

#### Command

\`\`\`
echo wave
\`\`\`
`;

/** A home with a skill of the person's, `skilltray` on PATH as the built bin, and the three scripts written out. */
async function setup(): Promise<{ t: TestHome; env: NodeJS.ProcessEnv; scripts: Record<'bash' | 'zsh' | 'fish', string> }> {
  const t = testHome();
  writeSkill(t.skills, 'hello', skillMd({ name: 'hello', description: 'Greets. Use when greeting.' }, TOOLS));
  const bin = join(tempDir(), 'bin');
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'skilltray'));
  const env = { ...t.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  const scripts = { bash: '', zsh: '', fish: '' };
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const { code, stdout } = await cliProcess(['completion', shell], env);
    expect(code).toBe(0);
    scripts[shell] = join(tempDir(), `skilltray.${shell}`);
    writeFileSync(scripts[shell], `${stdout}\n`);
  }
  return { t, env, scripts };
}

/** Runs `shell -c script` and returns its stdout lines. */
async function ask(shell: string, script: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const { stdout, stderr, exitCode } = await execa(shell, ['-c', script], { env, extendEnv: false, reject: false });
  expect(stderr, script).toBe('');
  expect(exitCode).toBe(0);
  return stdout.split('\n');
}

describe('skilltray completion', () => {
  it('bash: commands, options, option values, skills and their tools, as bash asks for them', async () => {
    const { env, scripts } = await setup();
    const cases: [string[], string][] = [
      [['skilltray', 'ru'], 'run rules'],
      [['skilltray', 'run', 'he'], 'hello'],
      [['skilltray', 'run', 'hello', ''], 'greet wave'],
      [['skilltray', 'run', '--cwd', '/tmp', 'hello', 'w'], 'wave'],
      [['skilltray', 'run', 'hello', 'greet', '--dr'], '--dry-run'],
      [['skilltray', 'run', 'hello', 'greet', '--ex'], '--example'],
      [['skilltray', 'list', '--status', 'w'], 'warnings'],
      [['skilltray', 'check', '--w'], '--watch'],
      [['skilltray', 'new', 'x', '--t'], '--tool'],
      [['skilltray', 'describe', 'hel'], 'hello'],
      [['skilltray', 'completion', ''], 'bash zsh fish'],
    ];
    const script = [
      `source ${scripts.bash}`,
      't() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _skilltray; echo "${COMPREPLY[*]}"; }',
      ...cases.map(([words]) => `t ${words.map((w) => `'${w}'`).join(' ')}`),
      'complete -p skilltray',
    ].join('\n');
    const lines = await ask('bash', script, env);
    expect(lines).toEqual([...cases.map(([, expected]) => expected), 'complete -o default -F _skilltray skilltray']);
  });

  it('zsh: the script parses, and its function offers what zsh then filters', async () => {
    const { env, scripts } = await setup();
    await ask('zsh', `zsh -n ${scripts.zsh}`, env);
    const stubs = [
      'compdef() { : }',
      'compadd() { local -a a; a=("$@"); print -r -- "${(j: :)a[${a[(i)--]}+1,-1]}" }',
      '_describe() { local e; local -a out; for e in ${(P)4}; do out+=("${e%%:*}"); done; print -r -- "${(j: :)out}" }',
      '_files() { print FILES }',
    ];
    const cases: [string[], string][] = [
      [['skilltray', 'run', 'hello', ''], 'greet wave'],
      [['skilltray', 'list', '--status', 'w'], 'ok warnings error'],
      [['skilltray', 'completion', ''], 'bash zsh fish'],
      [['skilltray', 'open', 'hello', ''], 'FILES'],
    ];
    const script = [
      ...stubs,
      `source ${scripts.zsh}`,
      't() { words=("$@"); CURRENT=$#words; _skilltray }',
      ...cases.map(([words]) => `t ${words.map((w) => `'${w}'`).join(' ')}`),
      "words=(skilltray ''); CURRENT=2; _skilltray",
    ].join('\n');
    const lines = await ask('zsh', [script, "t skilltray run ''"].join('\n'), env);
    expect(lines.slice(0, cases.length)).toEqual(cases.map(([, expected]) => expected));
    expect(lines[cases.length]?.split(' ')).toEqual(expect.arrayContaining(['run', 'new', 'doctor', 'completion', 'check']));
    // Skills as the bin finds them: the person's, and the bundled packs beside it.
    expect(lines[cases.length + 1]?.split(' ')).toEqual(expect.arrayContaining(['hello', 'git', 'system']));
  });

  it('fish: the script parses, and complete -C offers commands, skills, tools and options', async () => {
    const { env, scripts } = await setup();
    await ask('fish', `fish -n ${scripts.fish}`, env);
    const offered = async (line: string) =>
      (await ask('fish', `source ${scripts.fish}; complete -C '${line}'`, env)).map((candidate) => candidate.split('\t')[0]).filter((c) => c !== '');
    expect(await offered('skilltray ru')).toEqual(['rules', 'run']);
    expect(await offered('skilltray run he')).toEqual(['hello']);
    expect(await offered('skilltray run hello ')).toEqual(['greet', 'wave']);
    expect(await offered('skilltray run hello greet --dry')).toEqual(['--dry-run']);
    expect(await offered('skilltray list --status ')).toEqual(['error', 'ok', 'warnings']);
  });

  it('--tools reads the tools from the headings as the loader does, for every bundled pack; --skills lists every root', async () => {
    for (const skill of loadPacks().list()) expect(toolNamesAt(skill.dir), skill.name).toEqual(skill.tools.map((tool) => tool.name));
    const { env } = await setup();
    const skills = await cliProcess(['completion', '--skills'], env);
    const names = skills.stdout.split('\n');
    expect(names).toEqual(expect.arrayContaining(['hello', 'git', 'system']));
    expect(names).toEqual([...names].sort());
    expect((await cliProcess(['completion'], env)).stderr).toMatch(/^error\[E101\]: completion needs a shell: bash, zsh, fish/);
    expect((await cliProcess(['completion', 'tcsh'], env)).stderr).toMatch(/^error\[E100\]: the shell must be one of bash, zsh, fish, got 'tcsh'/);
  });
});
