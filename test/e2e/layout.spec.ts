/**
 * Layouts that hold: every route at the tray's 360 and 400 px and at 1280 px, with nothing wider
 * than the window (no sideways scroll), and a screenshot of each at 400 and 1280, light and dark.
 */
import type { Page } from '@playwright/test';
import type { RunReport } from '../../src-main/shared/runs.js';
import { expect, go, screenshot, test, type RunningApp } from './fixtures.js';

/** Every screen, by a name for its screenshot, with what must be on it before it is measured. */
const ROUTES: { name: string; hash: string; ready: (page: Page) => Promise<void> }[] = [
  { name: 'skills', hash: '#/skills', ready: (p) => expect(p.getByRole('link', { name: 'release-notes', exact: true })).toBeVisible() },
  {
    name: 'search',
    hash: '#/skills?q=git%20status',
    ready: (p) => expect(p.getByRole('region', { name: 'Search results' })).toHaveAttribute('data-results-for', 'git status'),
  },
  { name: 'skill', hash: '#/skills/git', ready: (p) => expect(p.getByRole('form', { name: 'Run git_status' })).toBeVisible() },
  { name: 'skill-broken', hash: '#/skills/broken-skill', ready: (p) => expect(p.getByRole('heading', { name: 'Diagnostics' })).toBeVisible() },
  {
    name: 'section',
    hash: '#/skills/git?section=git_log&file=SKILL.md',
    ready: (p) => expect(p.getByRole('article', { name: 'Section git_log' }).getByRole('table')).toBeVisible(),
  },
  { name: 'file', hash: '#/skills/git?open=SKILL.md', ready: (p) => expect(p.getByRole('article', { name: 'File SKILL.md' })).toBeVisible() },
  {
    name: 'approvals',
    hash: '#/approvals',
    ready: (p) => expect(p.getByRole('article', { name: /layout-echo/ }).getByRole('button', { name: /Deny/ })).toBeEnabled(),
  },
  { name: 'history', hash: '#/history', ready: (p) => expect(p.getByRole('table').getByRole('row').nth(1)).toBeVisible() },
  { name: 'history-run', hash: '#/history/RUN', ready: (p) => expect(p.getByRole('heading', { name: 'Output' })).toBeVisible() },
  { name: 'packs', hash: '#/packs', ready: (p) => expect(p.getByRole('form', { name: 'Install a pack' })).toBeVisible() },
  { name: 'settings', hash: '#/settings', ready: (p) => expect(p.getByRole('heading', { name: 'Skill roots' })).toBeVisible() },
  { name: 'tray', hash: '#/tray', ready: (p) => expect(p.getByRole('link', { name: 'Open skill browser' })).toBeVisible() },
  { name: 'palette', hash: '#/palette', ready: (p) => expect(p.getByRole('combobox', { name: 'Command palette' })).toBeFocused() },
  { name: 'missing', hash: '#/nowhere', ready: (p) => expect(p.getByRole('heading', { name: /Nothing at/ })).toBeVisible() },
];

const WIDTHS = [360, 400, 1280];
const SHOTS = new Set([400, 1280]);

/** How far the page and each element overflow sideways (what a person would have to scroll). */
async function sidewaysOverflow(page: Page): Promise<{ page: { scrollWidth: number; clientWidth: number }; widest: string[] }> {
  return page.evaluate(() => {
    const g = globalThis as unknown as {
      document: {
        documentElement: { scrollWidth: number; clientWidth: number };
        querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): { right: number; width: number }; tagName: string; className: unknown }>;
      };
      innerWidth: number;
    };
    const root = g.document.documentElement;
    const widest: string[] = [];
    for (const el of Array.from(g.document.querySelectorAll('body *'))) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > root.clientWidth + 0.5)
        widest.push(`${el.tagName.toLowerCase()}.${String(el.className)} right=${Math.round(box.right)}`);
    }
    return { page: { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth }, widest: widest.slice(0, 8) };
  });
}

async function setUp(app: RunningApp): Promise<{ run: string; pending: Promise<unknown> }> {
  app.writeSkill(
    'layout-echo',
    `---\nname: layout-echo\ndescription: Waits in the queue while the layouts are measured.\nversion: 1.0.0\n---\n# layout-echo\n\n### echo\n\nPrints \`its\` arguments.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| message | string | yes | What to say |\n\n#### Command\n\n\`\`\`\n${process.execPath} -e "console.log(process.argv[1])" <<message>>\n\`\`\`\n`,
  );
  // A run that finished, for the history screens; a request that waits, for the queue.
  const done = await app.api<RunReport>('run', { skill: 'system', tool: 'system_uptime' });
  if (!done.body.ok) throw new Error(`system_uptime did not run: ${JSON.stringify(done.body)}`);
  await expect.poll(async () => (await app.api<{ name: string }[]>('list', {})).body).toMatchObject({ ok: true });
  await expect.poll(async () => JSON.stringify((await app.api('describe', { skill: 'layout-echo' })).body.ok)).toBe('true');
  const pending = app.api('run', { skill: 'layout-echo', tool: 'echo', args: { message: `a long argument ${'x'.repeat(120)} that has to wrap` } });
  return { run: done.body.value.id, pending };
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`every route in ${scheme}`, () => {
    test.use({ colorScheme: scheme });

    test(`nothing scrolls sideways at ${WIDTHS.join(', ')} px`, async ({ page, app }) => {
      test.setTimeout(240_000);
      const { run, pending } = await setUp(app);
      await app.open(page, '#/skills');
      for (const route of ROUTES) {
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: width < 1000 ? 560 : 860 });
          await go(page, route.hash.replace('RUN', run));
          await route.ready(page);
          const measured = await sidewaysOverflow(page);
          expect.soft(measured.page.scrollWidth, `${route.name} at ${width} px: ${measured.widest.join(', ')}`).toBeLessThanOrEqual(measured.page.clientWidth);
          if (SHOTS.has(width)) await screenshot(page, `layout-${route.name}-${width}-${scheme}`);
        }
      }
      const queued = await app.api<{ id: string }[]>('approvals');
      if (queued.body.ok) for (const entry of queued.body.value) await app.api('answerApproval', { id: entry.id, verdict: 'deny' });
      await pending;
    });
  });
}
