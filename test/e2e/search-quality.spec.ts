/**
 * The search quality table (bench/search-quality.ts) in the browser: each query typed into the
 * skills screen's search box, as a person types it (the last word still a prefix), and the first
 * hit shown read from the page. Prints hits@1 and must reach the goal, as the CLI and MCP do.
 */
import { HITS_AT_1_GOAL, hitsAt1, hitsLine } from '../../bench/search-quality.js';
import { expect, test } from './fixtures.js';

test('search quality in the browser: hits@1 of the twenty queries', async ({ page, app }) => {
  await app.open(page, '#/skills');
  const box = page.getByRole('searchbox', { name: 'Search every skill' });
  const results = page.getByRole('region', { name: 'Search results' });
  const result = await hitsAt1(async (query) => {
    await box.fill(query);
    await expect(results).toHaveAttribute('data-results-for', query);
    await expect(results).toHaveAttribute('aria-busy', 'false');
    const first = results.locator('li.hit').first();
    if ((await first.count()) === 0) return undefined;
    const [skill, tool, section] = await Promise.all([first.getAttribute('data-skill'), first.getAttribute('data-tool'), first.getAttribute('data-section')]);
    return { skill: skill ?? '', section: section ?? tool ?? '', tool: tool === null ? null : { name: tool } };
  });
  console.log([hitsLine('browser', result), ...result.misses.map((m) => `  miss: ${m}`)].join('\n'));
  expect(result.hits).toBeGreaterThanOrEqual(HITS_AT_1_GOAL);
});
