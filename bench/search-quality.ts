/**
 * What people type into a search box, each with the hit that should come first over the bundled
 * packs: a tool, or a skill's section. hits@1 (how many of the twenty put the wanted hit first) is
 * the figure; the goal is at least 18. The CLI, MCP and the browser are held to it by their tests
 * (test/integration/gateway/search-quality.test.ts, test/e2e/search-quality.spec.ts), and
 * `npm run bench -- --only=search-quality` prints it for the core.
 */

/** The hit that should come first: a tool of a skill, or any section of a skill (a given one when `section` is set). */
export interface WantedHit {
  skill: string;
  tool?: string;
  section?: string;
}

export interface QualityQuery {
  query: string;
  wanted: WantedHit;
}

/** The goal: at least this many of the queries put the wanted hit first. */
export const HITS_AT_1_GOAL = 18;

export const SEARCH_QUALITY: readonly QualityQuery[] = [
  { query: 'git log', wanted: { skill: 'git', tool: 'git_log' } },
  { query: 'disk space', wanted: { skill: 'system', tool: 'disk_usage' } },
  { query: 'commit message', wanted: { skill: 'commit-message' } },
  { query: 'who changed this file', wanted: { skill: 'git', tool: 'git_log' } },
  { query: 'how full is my disk', wanted: { skill: 'system', tool: 'disk_usage' } },
  { query: 'memory usage', wanted: { skill: 'system', tool: 'memory_usage' } },
  { query: 'what is listening on a port', wanted: { skill: 'system', tool: 'port_listeners' } },
  { query: 'running processes', wanted: { skill: 'system', tool: 'list_processes' } },
  { query: 'how long has the computer been up', wanted: { skill: 'system', tool: 'system_uptime' } },
  { query: 'ping a host', wanted: { skill: 'network', tool: 'ping_host' } },
  { query: 'resolve a host name', wanted: { skill: 'network', tool: 'resolve_host' } },
  { query: 'first lines of a file', wanted: { skill: 'files', tool: 'file_head' } },
  { query: 'count words in a file', wanted: { skill: 'files', tool: 'word_count' } },
  { query: 'what type of file is this', wanted: { skill: 'files', tool: 'file_type' } },
  { query: 'find files by name', wanted: { skill: 'files', tool: 'find_files' } },
  { query: 'list a folder', wanted: { skill: 'files', tool: 'list_directory' } },
  { query: 'what did I change', wanted: { skill: 'git', tool: 'git_diff' } },
  { query: 'list branches', wanted: { skill: 'git', tool: 'git_branch' } },
  { query: 'sha256 checksum', wanted: { skill: 'artifact-checksum', tool: 'checksum_artifact' } },
  { query: 'frontmatter fields', wanted: { skill: 'skill-authoring', section: '2. Write the frontmatter' } },
];

/** A first hit as every surface reports it (the one result model's fields that say what it is). */
export interface FirstHit {
  skill: string;
  section: string;
  tool: { name: string } | null;
}

/** Whether `hit` is the wanted one. */
export function isWanted(hit: FirstHit | undefined, wanted: WantedHit): boolean {
  if (hit === undefined || hit.skill !== wanted.skill) return false;
  if (wanted.tool !== undefined) return hit.tool?.name === wanted.tool;
  return wanted.section === undefined || hit.section === wanted.section;
}

/** hits@1 over the table, with each miss as `"query" → what came first (want …)`. */
export async function hitsAt1(first: (query: string) => Promise<FirstHit | undefined>): Promise<{ hits: number; n: number; misses: string[] }> {
  const misses: string[] = [];
  let hits = 0;
  for (const { query, wanted } of SEARCH_QUALITY) {
    const hit = await first(query);
    if (isWanted(hit, wanted)) hits++;
    else
      misses.push(
        `"${query}" → ${hit === undefined ? '(nothing)' : `${hit.skill}/${hit.tool?.name ?? hit.section}`} (want ${wanted.skill}/${wanted.tool ?? wanted.section ?? '*'})`,
      );
  }
  return { hits, n: SEARCH_QUALITY.length, misses };
}

/** The line a test or the bench prints: `search hits@1 (CLI): 19/20, goal ≥ 18`. */
export function hitsLine(surface: string, result: { hits: number; n: number }): string {
  return `search hits@1 (${surface}): ${result.hits}/${result.n}, goal ≥ ${HITS_AT_1_GOAL}`;
}
