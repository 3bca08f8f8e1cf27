/**
 * A git source's tree listing (`git ls-tree -r -l -z`, read in 64 KiB chunks) names every path as
 * the commit spells it: a multibyte character split between two chunks is decoded whole.
 */
import { describe, expect, it } from 'vitest';
import { EntryBudget } from '../../../src-main/core/packs/entry-budget.js';
import { listCommit } from '../../../src-main/core/packs/git.js';
import { repoOfEntries } from '../../support/pack-sources.js';
import { tempDir } from '../../support/temp.js';

describe('the git tree listing', () => {
  it('keeps non-ASCII paths whole across the chunks git prints them in (4,000 paths of three-byte characters, about 1.4 MB of listing)', async () => {
    const base = tempDir();
    // Mostly three-byte characters, so a chunk boundary almost always falls inside one.
    const paths = Array.from({ length: 4000 }, (_, i) => `s/${'名前'.repeat(45)}-café-ünïcødé-${i}.md`);
    const { gitDir, commit } = await repoOfEntries(
      base,
      paths.map((path) => ({ mode: '100644', content: 'x', path })),
    );
    const budget = new EntryBudget();
    const items = await listCommit(gitDir, commit, { env: process.env, home: base }, budget);
    expect(budget.findings).toEqual([]);
    expect(items.filter((i) => i.path.includes('\uFFFD')).map((i) => i.path)).toEqual([]);
    expect(items.map((i) => i.path).sort()).toEqual([...paths].sort());
  });
});
