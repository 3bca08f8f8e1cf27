/**
 * Search-as-you-type in the browser UI over 1,000 generated skills, in the skill browser's search
 * box and in the command palette: from a keystroke to the results showing that query's answers
 * (in-page performance.now(): keydown → the DOM commit that sets `data-results-for`), against the
 * raw `searchAll` call over HTTP for the same prefixes, measured in the same run. The palette asks
 * discover and searchAll together, so its figure includes discover. Needs `npm run build:web`;
 * drives Debian's Chromium.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser, type Locator, type Page } from '@playwright/test';
import type { BenchFixtures } from './fixtures.js';
import type { Figure } from './measure.js';
import { cliEnv, ROOT, startServe, stopServe } from './processes.js';

const CHROMIUM = '/usr/bin/chromium';
/** What the UI asks for per query (SEARCH_LIMIT in src-renderer/skills/use-search.ts). */
const UI_LIMIT = 40;
/** The UI's debounce after a keystroke (SEARCH_DEBOUNCE_MS), part of what a person waits. */
const UI_DEBOUNCE_MS = 40;
/** Typed one character at a time; every keystroke that changes the trimmed query is measured. */
const PHRASE = 'deploy review summarize calendar audit';

// The page's globals as this file (compiled for Node, without DOM types) sees them.
interface Attributes {
  getAttribute(name: string): string | null;
}
interface PageGlobals {
  document: { body: unknown; querySelector(selector: string): Attributes | null };
  addEventListener(type: string, listener: () => void, capture: boolean): void;
  MutationObserver: new (callback: (records: { target: Partial<Attributes> }[]) => void) => { observe(node: unknown, options: object): void };
  performance: { now(): number };
  __bench: { keys: number[]; commits: Record<string, number> };
  __benchListening?: boolean;
}

/** Runs in the page: key-down times, and when each `data-results-for` value first reaches the DOM; a second call starts over. */
function instrument(): void {
  const g = globalThis as unknown as PageGlobals;
  g.__bench = { keys: [], commits: {} };
  if (g.__benchListening) return;
  g.__benchListening = true;
  g.addEventListener('keydown', () => g.__bench.keys.push(g.performance.now()), true);
  new g.MutationObserver((records) => {
    const now = g.performance.now();
    for (const record of records) {
      const value = record.target.getAttribute?.('data-results-for');
      if (typeof value === 'string' && !(value in g.__bench.commits)) g.__bench.commits[value] = now;
    }
  }).observe(g.document.body, { subtree: true, attributes: true, attributeFilter: ['data-results-for'] });
}

/** Runs in the page: whether the results list shows `query`'s hits. */
function shows(query: string): boolean {
  return (globalThis as unknown as PageGlobals).document.querySelector('[data-results-for]')?.getAttribute('data-results-for') === query;
}

function medianOf(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Every prefix typed: the trimmed query after each keystroke that changes it. */
export function typedQueries(phrase: string): string[] {
  const queries: string[] = [];
  for (let i = 1; i <= phrase.length; i++) {
    const query = phrase.slice(0, i).trim();
    if (query !== (queries[queries.length - 1] ?? '')) queries.push(query);
  }
  return queries;
}

/** Types PHRASE into `box` one key at a time; each key's time until the page shows that query's answers. */
async function keystrokes(page: Page, box: Locator): Promise<number[]> {
  // Warm up the page, the connection and the catalog with a query of its own, then clear it.
  await box.pressSequentially('warm', { delay: 20 });
  await page.waitForFunction(shows, 'warm');
  await box.fill('');
  await page.evaluate(instrument);
  const times: number[] = [];
  for (const char of PHRASE) {
    const before = await page.evaluate(() => (globalThis as unknown as PageGlobals).__bench.keys.length);
    await page.keyboard.type(char);
    const value = (await box.inputValue()).trim();
    if (char === ' ') continue;
    await page.waitForFunction(shows, value, { timeout: 30_000 });
    const [key, commit] = await page.evaluate(
      ([index, query]) => {
        const bench = (globalThis as unknown as PageGlobals).__bench;
        return [bench.keys[index] as number, bench.commits[query] as number] as const;
      },
      [before, value] as const,
    );
    times.push(commit - key);
  }
  return times;
}

export async function uiBench(dir: string, fixtures: BenchFixtures): Promise<Figure[]> {
  if (!existsSync(join(ROOT, 'dist', 'web', 'index.html'))) throw new Error('the UI bench needs the built UI: run npm run build:web');
  if (!existsSync(CHROMIUM)) throw new Error(`the UI bench drives Debian's Chromium at ${CHROMIUM}; install it (apt-get install chromium)`);
  const { root } = await fixtures.skills(1000);
  const { child, url, token } = await startServe(cliEnv(dir, root), { web: true });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const searchAll = async (query: string): Promise<void> => {
      const response = await fetch(`${url}/api/searchAll`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, prefix: true, limit: UI_LIMIT }),
      });
      const body = (await response.json()) as { ok: boolean };
      if (!body.ok) throw new Error(`searchAll '${query}' failed: ${JSON.stringify(body)}`);
    };

    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${url}/#token=${encodeURIComponent(token)}`);
    const box = page.getByRole('searchbox', { name: 'Search every skill' });
    await box.waitFor();
    const queries = typedQueries(PHRASE);
    const ui = await keystrokes(page, box);

    await page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#/palette';
    });
    const palette = page.getByRole('combobox', { name: 'Command palette' });
    await palette.waitFor();
    const inPalette = await keystrokes(page, palette);

    for (const query of queries.slice(0, 3)) await searchAll(query);
    const raw: number[] = [];
    for (const query of queries) {
      const start = performance.now();
      await searchAll(query);
      raw.push(performance.now() - start);
    }
    return [
      {
        name: 'search-as-you-type in the UI, 1,000 skills',
        ms: medianOf(ui),
        baseline: 'searchAll over HTTP, same prefixes',
        baselineMs: medianOf(raw),
        note: `keystroke → results in the DOM, median of ${ui.length} keystrokes, includes the ${UI_DEBOUNCE_MS} ms debounce`,
      },
      {
        name: 'palette keystroke → rendered results, 1,000 skills',
        ms: medianOf(inPalette),
        baseline: 'searchAll over HTTP, same prefixes',
        baselineMs: medianOf(raw),
        note: `discover + searchAll → tools, skills and sections in the DOM, median of ${inPalette.length} keystrokes, includes the ${UI_DEBOUNCE_MS} ms debounce`,
      },
    ];
  } finally {
    await browser?.close();
    await stopServe(child);
  }
}
