/**
 * Edit storm (issue 22): while an editor rewrites a skill's SKILL.md — truncated, half-written,
 * briefly absent while a temp file is renamed over it — the watching registry keeps its last good
 * parse, an HTTP and a CLI search of the skill answer from it, never E001, and a CLI list lists it. A failure that
 * outlasts the rewrite is reported, and a skill folder actually deleted goes away.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../../src-main/core/skills/fingerprint.js';
import type { SkillChange } from '../../../src-main/core/skills/registry.js';
import { cli } from '../../support/cli.js';
import { waitForFsAge } from '../../support/fs-clock.js';
import { skillMd, writeSkill } from '../../support/temp.js';
import { testHome } from '../../support/temp.js';
import { serverHome } from '../server/helpers.js';

const ROUNDS = 25;

const notes = (description: string): string =>
  skillMd({ name: 'notes', description, version: '1.0.0' }, '# Deploy\n\nShip the release with the deploy checklist.\n');

/** The states an editor's save passes through, each left as it is while the skill is read. */
const BAD_STATES: [string, (file: string) => void][] = [
  ['truncated', (file) => writeFileSync(file, '')],
  ['half-written', (file) => writeFileSync(file, notes('before').slice(0, 12))],
  ['absent (rename-over)', (file) => rmSync(file)],
];

const failed = (change: SkillChange): boolean => change.kind !== 'removed' && change.skill.diagnostics.some((d) => d.severity === 'error');

describe('soak: an edit storm on one skill', () => {
  it('keeps serving the last good parse while SKILL.md is mid-rewrite; a lasting failure and a deletion still show', { timeout: 120_000 }, async () => {
    const t = testHome();
    const dir = writeSkill(t.skills, 'notes', notes('before'));
    const file = join(dir, 'SKILL.md');
    // A settled parse in the parse cache, which a fresh CLI process falls back to.
    await waitForFsAge(t.skills, [file, dir], SETTLE_MS);
    expect((await cli(['build', 'notes'], t)).code).toBe(0);
    const { core, call } = await serverHome({}, t);
    await core.registry.watch();
    const changes: SkillChange[] = [];
    core.registry.on('change', (change) => {
      if (change.name === 'notes') changes.push(change);
    });

    let httpSearches = 0;
    let cliSearches = 0;
    let cliLists = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [state, enter] of BAD_STATES) {
        enter(file);
        // What the watcher's reload does once the writes pause, done now, in this state.
        expect(core.registry.reload('notes'), state).toBeNull();
        expect(core.library.getSkill('notes').description, state).toBe('before');
        if (round % 5 === 0) {
          const http = await call('search', { skill: 'notes', query: 'deploy' });
          // What the search finds is the index's business (rebuilt from the files as they are); the skill is found.
          expect(http.envelope, `${state}: ${JSON.stringify(http.envelope).slice(0, 300)}`).toMatchObject({ ok: true });
          httpSearches++;
          const fromCli = await cli(['search', 'notes', 'deploy'], t);
          expect(fromCli.code, `${state}: ${fromCli.stderr}`).toBe(0);
          // Not the fallback for a name no skill has (every skill searched instead): the search stayed in 'notes',
          // and stderr says at most that it did and found nothing there (issue 39.4).
          expect(fromCli.stderr, state).not.toContain('no skill is named');
          for (const line of fromCli.stderr.split('\n').filter((l) => l !== ''))
            expect(line, state).toMatch(/^note: 'notes' names a skill|^no results for "deploy" in skill 'notes'/);
          cliSearches++;
          // A fresh CLI process loading every skill lists it too, as it was last read whole.
          const listed = await cli(['list', '--json'], t);
          expect(listed.code, `${state}: ${listed.stderr}`).toBe(0);
          const skills = (JSON.parse(listed.stdout) as { skills: { name: string; description: string }[] }).skills;
          expect(skills.find((skill) => skill.name === 'notes')?.description, state).toBe('before');
          cliLists++;
        }
      }
      // The editor's save: a temp file renamed over SKILL.md.
      writeFileSync(join(dir, '.SKILL.md.swp'), notes('before'));
      renameSync(join(dir, '.SKILL.md.swp'), file);
    }
    expect(changes.filter((change) => change.kind === 'removed' || failed(change))).toEqual([]);

    const saved = new Promise<SkillChange>((resolve) =>
      core.registry.on('change', (c) => c.name === 'notes' && c.kind === 'changed' && c.skill.description === 'after' && resolve(c)),
    );
    writeFileSync(file, notes('after'));
    await saved;

    // Broken for good: reported once the rewrite has had its time to settle.
    const broken = new Promise<SkillChange>((resolve) => core.registry.on('change', (c) => c.name === 'notes' && failed(c) && resolve(c)));
    writeFileSync(file, 'name: notes\n');
    await broken;

    const removed = new Promise<SkillChange>((resolve) => core.registry.on('change', (c) => c.name === 'notes' && c.kind === 'removed' && resolve(c)));
    rmSync(dir, { recursive: true });
    await removed;
    expect(() => core.library.getSkill('notes')).toThrow(/not found/);
    console.log(
      `[soak] edit storm: ${ROUNDS} rounds of truncate, half-write, unlink and rename-over; ${httpSearches} HTTP and ${cliSearches} CLI searches all answered, and ${cliLists} CLI lists listed it, from the last good parse`,
    );
  });
});
