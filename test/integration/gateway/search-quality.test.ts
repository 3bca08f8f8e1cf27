/**
 * The search quality table (bench/search-quality.ts) through the CLI and MCP, on a fresh home over
 * the bundled packs: twenty queries people type, each wanting one hit first. Each surface prints
 * its hits@1 and must reach the goal; the browser's is test/e2e/search-quality.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { HITS_AT_1_GOAL, hitsAt1, hitsLine, type FirstHit } from '../../../bench/search-quality.js';
import type { SearchResult } from '../../../src-main/shared/gateway.js';
import { cliProcess } from '../../support/cli.js';
import { testHome } from '../../support/temp.js';
import { REPO_SKILLS } from '../contract/fixture.js';
import { callTool, startMcp, structured } from '../mcp/mcp-session.js';

describe('search quality: hits@1 of the table', () => {
  it('the CLI (skilltray search "<query>" --json)', async () => {
    const t = testHome({ bundled: REPO_SKILLS });
    const result = await hitsAt1(async (query): Promise<FirstHit | undefined> => {
      const { code, stdout } = await cliProcess(['search', query, '--json', '--limit', '3'], t.env);
      expect(code, query).toBe(0);
      return (JSON.parse(stdout) as SearchResult).results[0];
    });
    console.log([hitsLine('CLI', result), ...result.misses.map((m) => `  miss: ${m}`)].join('\n'));
    expect(result.hits).toBeGreaterThanOrEqual(HITS_AT_1_GOAL);
  });

  it('MCP (search_all)', async () => {
    const t = testHome({ bundled: REPO_SKILLS });
    const session = await startMcp(t.env);
    const result = await hitsAt1(
      async (query) => (structured(await callTool(session, 'search_all', { query, limit: 3 })) as unknown as SearchResult).results[0],
    );
    console.log([hitsLine('MCP', result), ...result.misses.map((m) => `  miss: ${m}`)].join('\n'));
    expect(result.hits).toBeGreaterThanOrEqual(HITS_AT_1_GOAL);
  });
});
