/**
 * SKILLTRAY_THREADS: a cold load and a first search on helper threads answer byte for byte as on
 * one thread (over enough skills that helpers start: MIN_INPUTS), and a value that is not a thread
 * count is E100.
 */
import { describe, expect, it } from 'vitest';
import { MIN_INPUTS } from '../../../src-main/core/parallel.js';
import { cliProcessBytes } from '../../support/cli.js';
import { tempDir, testHome } from '../../support/temp.js';
import { writeVariedSkills } from '../../support/varied-skills.js';

/** Each command over the skills in `skills`, on a fresh home (nothing parsed or indexed before it), with `threads`. */
async function coldOutputs(skills: string, threads: string): Promise<string[]> {
  const outputs: string[] = [];
  for (const argv of [
    ['list', '--json'],
    ['check', '--json'],
    ['search', 'page', '适用', '--json'],
  ]) {
    const home = testHome();
    const { code, stdout, stderr } = await cliProcessBytes(argv, { ...home.env, SKILLTRAY_SKILLS_PATH: skills, SKILLTRAY_THREADS: threads });
    outputs.push(`${argv.join(' ')} → ${code}\n${stdout.toString('utf8').replaceAll(home.home, '<home>')}${stderr}`);
  }
  return outputs;
}

describe('SKILLTRAY_THREADS', () => {
  it('gives the same answers on helper threads as on one', async () => {
    const skills = tempDir();
    const { dirs } = writeVariedSkills(skills, Math.ceil(MIN_INPUTS / 5));
    expect(dirs.length).toBeGreaterThanOrEqual(MIN_INPUTS);
    const one = await coldOutputs(skills, '1');
    expect(one.join('\n')).toContain('W415');
    expect(await coldOutputs(skills, '2')).toEqual(one);
  }, 180_000);

  it('refuses a value that is not a thread count, with E100 and no usage line (the command line is not at fault)', async () => {
    const home = testHome();
    for (const bad of ['0', 'two', '1.5', '65']) {
      const { code, stderr } = await cliProcessBytes(['list'], { ...home.env, SKILLTRAY_THREADS: bad });
      expect(code, bad).not.toBe(0);
      expect(stderr, bad).toBe(`error[E100]: SKILLTRAY_THREADS must be an integer between 1 and 64, got '${bad}'\n`);
    }
  });
});
