/**
 * Skills people really write (issue 40): no crash and no folder skipped without a word across the
 * development corpus. CI has no corpus, so this runs on the sample committed under
 * test/fixtures/real-dev-sample; point SKILLTRAY_DEV_CORPUS at the extracted corpus (a folder of
 * `<owner+repo>` roots) to run it on every skill, which takes minutes.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, type CliOutcome } from '../../support/cli.js';
import { testHome, type TestHome } from '../../support/temp.js';

const SAMPLE = join(import.meta.dirname, '..', '..', 'fixtures', 'real-dev-sample');
const given = process.env.SKILLTRAY_DEV_CORPUS;
const corpus = given !== undefined && given !== '' && existsSync(given) && statSync(given).isDirectory() ? given : SAMPLE;
const whole = corpus !== SAMPLE;

/** The corpus's roots: its folders. */
const roots = readdirSync(corpus, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
  .map((entry) => join(corpus, entry.name));

/** The skill folders of a root: every visible folder (the corpus holds nothing else). */
const foldersOf = (root: string): string[] =>
  readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => join(root, entry.name));

/** A home whose skill roots are the corpus's. */
function corpusHome(): TestHome {
  const t = testHome();
  const skills = roots.join(delimiter);
  return { ...t, env: { ...t.env, SKILLTRAY_SKILLS_PATH: skills }, config: (extra = {}) => t.config({ SKILLTRAY_SKILLS_PATH: skills, ...extra }) };
}

/** An answer, not a crash: exit 0, or 1 with a coded error or diagnostics, never the internal error. */
function answered(outcome: CliOutcome, what: string): void {
  expect([0, 1], `${what}: ${outcome.stderr}`).toContain(outcome.code);
  expect(outcome.stderr, what).not.toMatch(/E999|TypeError|RangeError|at .+:\d+:\d+/);
}

interface Listed {
  skills: { name: string; path: string; status: string; diagnostics: { code: string }[] }[];
}

describe(`real skills (${whole ? 'the whole development corpus' : 'its committed sample'})`, () => {
  it('lists every folder of every root, each a skill with its diagnostics: none skipped, none dropped', { timeout: whole ? 600_000 : 60_000 }, async () => {
    const t = corpusHome();
    const list = await cli(['list', '--json'], t);
    answered(list, 'list');
    const listed = (JSON.parse(list.stdout) as Listed).skills;
    const paths = new Set(listed.map((skill) => skill.path));
    const folders = roots.flatMap(foldersOf);
    expect(folders.filter((folder) => !paths.has(folder))).toEqual([]);
    for (const skill of listed) expect(['ok', 'warnings', 'error'], skill.name).toContain(skill.status);
    // Every root checked by path answers for each of its folders.
    for (const root of roots) {
      const checked = await cli(['check', root, '--json'], t);
      answered(checked, `check ${root}`);
      expect((JSON.parse(checked.stdout) as { skills: unknown[] }).skills).toHaveLength(foldersOf(root).length);
    }
    if (!whole)
      expect(listed.flatMap((skill) => skill.diagnostics.map((d) => d.code))).toEqual(expect.arrayContaining(['E405', 'E407', 'W408', 'W415', 'W422']));
  });

  it('a first search over every skill, and each skill read every way, answer without a crash', { timeout: whole ? 1_800_000 : 120_000 }, async () => {
    const t = corpusHome();
    const listed = (JSON.parse((await cli(['list', '--json'], t)).stdout) as Listed).skills.filter((skill) =>
      roots.some((root) => skill.path.startsWith(root)),
    );
    const all = await cli(['search', 'deploy', '--json'], t);
    answered(all, 'search deploy');
    expect((JSON.parse(all.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    answered(await cli(['search', '任务'], t), 'search 任务');
    // The whole corpus: its first search is the test; the sample: every read of every skill too.
    for (const skill of whole ? [] : listed) {
      for (const argv of [
        ['describe', skill.name],
        ['outline', skill.name],
        ['sources', skill.name],
        ['build', skill.name],
        ['search', skill.name, 'skill'],
        ['search', skill.name, 'xyzzy'],
      ]) {
        const outcome = await cli(argv, t);
        answered(outcome, argv.join(' '));
        // A skill with errors is built and read all the same: only E011 (no name or description) refuses a build.
        if (argv[0] !== 'build') expect(outcome.code, `${argv.join(' ')}: ${outcome.stderr}`).toBe(0);
      }
      const firstHeading = (JSON.parse((await cli(['outline', skill.name, '--json'], t)).stdout) as { headings: { text: string }[] }).headings[0]?.text ?? null;
      if (firstHeading !== null) {
        const shown = await cli(['show', skill.name, firstHeading], t);
        expect(shown.code, `show ${skill.name} ${firstHeading}: ${shown.stderr}`).toBe(0);
      }
    }
  });
});
