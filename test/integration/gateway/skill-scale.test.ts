import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { outlineSkill } from '../../../src-main/core/gateway/outline.js';
import { showSection } from '../../../src-main/core/gateway/show.js';
import { buildIndex } from '../../../src-main/core/search/index.js';
import { searchSkill } from '../../../src-main/core/search/query.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';

const FILES = 400;
const SECTIONS = 12;

describe('one large skill (400 reference files, ~5,000 sections)', () => {
  it('builds, checks and answers within budgets', { timeout: 120_000 }, () => {
    const files: Record<string, string> = { 'SKILL.md': '---\nname: big\ndescription: a large skill\n---\n# Big\n\nEntry point.\n' };
    for (let f = 0; f < FILES; f++) {
      const body = Array.from({ length: SECTIONS }, (_, s) => `## Topic ${f}-${s}\n\nThe kernel ${s % 2 === 0 ? 'launches' : 'schedules'} work item ${f * SECTIONS + s} on stream ${s}.\n\n### Detail ${f}-${s}\n\nMemory note ${s}.\n`).join('\n');
      files[`references/part-${String(f).padStart(3, '0')}.md`] = `# Part ${f}\n\n${body}`;
    }
    const base = tempDir();
    const dir = makeSkill(base, 'big', files);
    const runtime = join(base, 'runtime', 'big');

    let start = performance.now();
    const built = buildIndex(dir, runtime);
    const buildMs = performance.now() - start;
    expect(built).toMatchObject({ status: 'created', files: FILES + 1 });

    start = performance.now();
    expect(buildIndex(dir, runtime).status).toBe('up-to-date');
    const upToDateMs = performance.now() - start;

    start = performance.now();
    const hits = searchSkill(dir, runtime, 'kernel launches');
    const searchMs = performance.now() - start;
    expect(hits.results).toHaveLength(10);

    start = performance.now();
    expect(showSection(dir, runtime, { section: 'topic 399-11' }).file).toBe('references/part-399.md');
    const showMs = performance.now() - start;

    start = performance.now();
    expect(outlineSkill(dir).headings.length).toBe(1 + FILES * (1 + 2 * SECTIONS));
    const outlineMs = performance.now() - start;

    appendFileSync(join(dir, 'references', 'part-000.md'), '\n## Late addition\n');
    start = performance.now();
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'rebuilt', reason: 'stale' });
    const rebuildMs = performance.now() - start;

    console.log(
      `skill of ${FILES + 1} files, ${built.sections} sections: build ${buildMs.toFixed(0)} ms, up-to-date check ${upToDateMs.toFixed(0)} ms, ` +
        `search ${searchMs.toFixed(1)} ms, show ${showMs.toFixed(1)} ms, outline ${outlineMs.toFixed(0)} ms, stale rebuild ${rebuildMs.toFixed(0)} ms`,
    );
    // Search and show hash the sources to check staleness, so they cost about an up-to-date check.
    expect(searchMs).toBeLessThan(upToDateMs * 3 + 200);
    expect(buildMs).toBeLessThan(30_000);
  });
});
