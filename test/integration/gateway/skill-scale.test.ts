import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outlineSkill } from '../../../src-main/core/gateway/outline.js';
import { showSection } from '../../support/index-reads.js';
import { buildIndex } from '../../../src-main/core/search/skill-index.js';
import { searchSkill } from '../../support/index-reads.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';

const FILES = 400;
const SECTIONS = 12;

// How fast building, checking and searching a large skill are is measured by `npm run bench`.
describe('one large skill (400 reference files, ~5,000 sections)', () => {
  it('builds, finds itself up to date, answers search, show and outline, and rebuilds when a file changes', { timeout: 120_000 }, () => {
    const files: Record<string, string> = { 'SKILL.md': '---\nname: big\ndescription: a large skill\n---\n# Big\n\nEntry point.\n' };
    for (let f = 0; f < FILES; f++) {
      const body = Array.from(
        { length: SECTIONS },
        (_, s) =>
          `## Topic ${f}-${s}\n\nThe kernel ${s % 2 === 0 ? 'launches' : 'schedules'} work item ${f * SECTIONS + s} on stream ${s}.\n\n### Detail ${f}-${s}\n\nMemory note ${s}.\n`,
      ).join('\n');
      files[`references/part-${String(f).padStart(3, '0')}.md`] = `# Part ${f}\n\n${body}`;
    }
    const base = tempDir();
    const dir = makeSkill(base, 'big', files);
    const runtime = join(base, 'runtime', 'big');

    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'created', files: FILES + 1 });
    expect(buildIndex(dir, runtime).status).toBe('up-to-date');
    expect(searchSkill(dir, runtime, 'kernel launches').results).toHaveLength(10);
    expect(showSection(dir, runtime, { section: 'topic 399-11' }).file).toBe('references/part-399.md');
    expect(outlineSkill(dir).headings.length).toBe(1 + FILES * (1 + 2 * SECTIONS));

    appendFileSync(join(dir, 'references', 'part-000.md'), '\n## Late addition\n');
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'rebuilt', reason: 'stale' });
  });
});
