/**
 * Soak: the first search over every skill on a fresh home (issues 22 and 26) builds the catalog of
 * 1,000 generated skills, shows its progress on a terminal's stderr and clears it, finds what it
 * should, and prints how long it took; off a terminal it prints no progress at all.
 */
import { performance } from 'node:perf_hooks';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeCorpus } from '../../../bench/corpus.js';
import { cli } from '../../support/cli.js';
import { testHome } from '../../support/temp.js';

describe('soak: a cold search over 1,000 skills', () => {
  it('shows "indexing N of M" on a terminal while the catalog is built, then the hits', async () => {
    const t = testHome();
    writeCorpus(t.skills, 1000);
    const started = performance.now();
    const result = await cli(['search', 'deploy', '--limit', '3'], t, { tty: true });
    const ms = performance.now() - started;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('\rindexing 1,000 of 1,000 skills for search…');
    expect(result.stderr.match(/\rindexing [\d,]+ of 1,000 skills for search…/g)?.length).toBeGreaterThan(10);
    expect(result.stderr.endsWith('\r\u001b[K')).toBe(true);
    // A tool hit leads: ` 1. skill-N/deploy — tool: …` (the word emphasised on a terminal).
    expect(stripVTControlCharacters(result.stdout)).toMatch(/^ *1\. skill-\d+\/deploy\w* — tool:/m);
    const again = await cli(['search', 'deploy', '--limit', '3'], t, { tty: true });
    expect(again.stderr).toBe('');
    console.log(
      `[soak] cold search over 1,000 generated skills: ${ms.toFixed(0)} ms (load, catalog of every skill, query), progress shown on the terminal and cleared`,
    );
  }, 120_000);

  it('prints no progress when stderr is not a terminal', async () => {
    const t = testHome();
    writeCorpus(t.skills, 60);
    const result = await cli(['search', 'deploy'], t);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});
