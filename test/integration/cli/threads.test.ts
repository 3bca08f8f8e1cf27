/**
 * SKILLTRAY_THREADS: a cold load and a first search on helper threads answer byte for byte as on
 * one thread (over enough skills that helpers start), and a value that is not a thread count is E100.
 */
import { describe, expect, it } from 'vitest';
import { cliProcessBytes } from '../../support/cli.js';
import { testHome } from '../../support/temp.js';
import { writeVariedSkills } from '../../support/varied-skills.js';

/** Each command on a fresh home (nothing parsed or indexed before it), with `threads`. */
async function coldOutputs(threads: string): Promise<string[]> {
  const outputs: string[] = [];
  for (const argv of [
    ['list', '--json'],
    ['check', '--json'],
    ['search', 'page', '--json'],
    ['search', '适用', '--json'],
  ]) {
    const home = testHome();
    writeVariedSkills(home.skills, 100);
    const { code, stdout, stderr } = await cliProcessBytes(argv, { ...home.env, SKILLTRAY_THREADS: threads });
    outputs.push(`${argv.join(' ')} → ${code}\n${stdout.toString('utf8').replaceAll(home.home, '<home>').replaceAll(home.skills, '<skills>')}${stderr}`);
  }
  return outputs;
}

describe('SKILLTRAY_THREADS', () => {
  it('gives the same answers on helper threads as on one', async () => {
    const one = await coldOutputs('1');
    expect(one.join('\n')).toContain('W415');
    expect(await coldOutputs('2')).toEqual(one);
  });

  it('refuses a value that is not a thread count, with E100', async () => {
    const home = testHome();
    for (const bad of ['0', 'two', '1.5', '65']) {
      const { code, stderr } = await cliProcessBytes(['list'], { ...home.env, SKILLTRAY_THREADS: bad });
      expect(code, bad).not.toBe(0);
      expect(stderr).toContain(`error[E100]: SKILLTRAY_THREADS must be an integer between 1 and 64, got '${bad}'`);
    }
  });
});
