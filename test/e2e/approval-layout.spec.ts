/**
 * The approval a person answers all day: its sentence, its badges, and its three answers on screen
 * without scrolling at every size from the tray popup (360×560) to a desktop window (1280×800), for
 * the git tool with its long argv. The answers ignore input for a moment after the request appears
 * and again whenever the window regains focus. Screenshots go to test-results/screenshots/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { SCREENSHOTS, expect, go, test, type ApiAnswer, type RunningApp } from './fixtures.js';

const GIT_SKILL = fileURLToPath(new URL('../../skills/git/SKILL.md', import.meta.url));

/** The bundled git pack as a user skill: same long commands, but a user skill asks. */
async function userGit(app: RunningApp): Promise<void> {
  app.writeSkill('git-review', readFileSync(GIT_SKILL, 'utf8').replace(/^name: git$/m, 'name: git-review'));
  await expect.poll(async () => (await app.api('describe', { skill: 'git-review' })).status).toBe(200);
}

/** A project folder beside Skilltray's home, its path as long: where a run may work (never in Skilltray's own home). */
function project(app: RunningApp): string {
  const dir = join(dirname(app.home), 'work');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Asks for git_log with caller values, as an assistant would; resolves when the person answers. */
function askForLog(app: RunningApp): Promise<ApiAnswer> {
  return app.api('run', {
    skill: 'git-review',
    tool: 'git_log',
    args: { count: 5, path: 'src/approvals/approval-card.tsx', repo: project(app) },
    cwd: project(app),
  });
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

const SIZES = [
  { width: 360, height: 560 },
  { width: 400, height: 600 },
  { width: 1280, height: 800 },
];

test('the answers are on screen without scrolling at 360×560, 400×600 and 1280×800, in the queue and the tray popup', async ({ page, app }) => {
  await userGit(app);
  const answered = askForLog(app);
  await app.open(page, '#/approvals');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const route of ['#/approvals', '#/tray'] as const) {
      await go(page, route);
      const card = page.getByRole('article', { name: /git -C/ }).first();
      await expect(card).toBeVisible();
      for (const name of [/Run once/, /Always allow/, /Deny/]) await expect(card.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
      await expect(card.getByRole('button', { name: /Run once/ })).toBeEnabled();
      await expect(card.getByRole('radio', { name: 'for this session' })).toBeInViewport();
      // Always holds in this folder unless the person widens it; a read-only tool may be allowed in any folder.
      await expect(card.getByRole('radio', { name: /^in this folder/ })).toBeChecked();
      await expect(card.getByRole('radio', { name: 'in any folder' })).toBeInViewport();
      await expect(card.getByRole('radio', { name: 'in any folder' })).toBeEnabled();
      await shot(page, `approval-${route === '#/tray' ? 'tray' : 'queue'}-${size.width}x${size.height}`);
    }
  }
  await page.setViewportSize({ width: 400, height: 600 });
  await go(page, '#/approvals');
  const card = page.getByRole('article', { name: /git -C/ }).first();
  await card.getByRole('button', { name: /Deny/ }).click();
  expect((await answered).body).toMatchObject({ ok: false, error: { code: 'E603' } });
});

test('the sentence, the caller’s values, the folded safety flags and the exact argv', async ({ page, app }) => {
  await userGit(app);
  const answered = askForLog(app);
  await page.setViewportSize({ width: 400, height: 600 });
  await app.open(page, '#/approvals');
  const card = page.getByRole('article', { name: /git -C/ }).first();
  const heading = await card.getByRole('heading').textContent();
  // The command is code in the sentence: no backticks, no shell quoting; the caller's values marked there too.
  expect(heading).toMatch(/^An HTTP client asks to run git -C \S+ log -n 5 [^`']* in \S+ — read-only, no network\.$/);
  await expect(card.getByRole('heading').locator('code.sentence-command mark.supplied').first()).toHaveText(project(app));
  expect(heading).toContain(` in ${project(app)} — `);
  // The badges come from the profile policy chose: read-only, never "may change things".
  await expect(card.locator('.badge')).toHaveText(['user', 'read-only', 'no network']);
  await expect(card.locator('.command-line mark.supplied')).toHaveText([project(app), '5', 'src/approvals/approval-card.tsx']);
  const safety = card.locator('details.approval-safety');
  await expect(safety.locator('summary')).toHaveText('8 safety flags the skill always adds');
  await expect(safety.locator('.chip').first()).toBeHidden();
  const exact = card.locator('details.approval-exact');
  await expect(exact.locator('.argv')).toBeHidden();
  await exact.locator('summary').click();
  await expect(exact.locator('.argv .visible-text')).toHaveCount(17);
  await expect(exact.locator('.argv-supplied .visible-text')).toHaveText([`"${project(app)}"`, '"5"', '"src/approvals/approval-card.tsx"']);
  await shot(page, 'approval-exact-argv-400x600');
  await card.getByRole('button', { name: /Deny/ }).click();
  await answered;
});

test('the answers ignore input at first and again each time the window regains focus', async ({ page, app }) => {
  await userGit(app);
  const answered = askForLog(app);
  await app.open(page, '#/approvals');
  const once = page
    .getByRole('article', { name: /git -C/ })
    .first()
    .getByRole('button', { name: /Run once/ });
  await expect(once).toBeDisabled();
  await expect(once).toBeEnabled();
  // Another window was in front; this one comes back: the buttons disarm, then arm again.
  await page.evaluate(() => {
    const page = globalThis as unknown as { dispatchEvent: (event: unknown) => void; Event: new (type: string) => unknown };
    page.dispatchEvent(new page.Event('focus'));
  });
  await expect(once).toBeDisabled();
  await expect(once).toBeEnabled();
  await page
    .getByRole('article', { name: /git -C/ })
    .first()
    .getByRole('button', { name: /Deny/ })
    .click();
  await answered;
});

test('history says who answered, and that a withdrawn request was not a denial', async ({ page, app }) => {
  await userGit(app);
  const answered = askForLog(app);
  await app.open(page, '#/approvals');
  await page
    .getByRole('article', { name: /git -C/ })
    .first()
    .getByRole('button', { name: /Deny/ })
    .click();
  const denied = await answered;
  expect(denied.body).toMatchObject({ ok: false, error: { code: 'E603' } });
  const runId = denied.body.ok ? '' : String(denied.body.error.details?.runId);
  await go(page, `#/history/${runId}`);
  await expect(page.locator('.decision-sentence')).toHaveText(/^Denied by you in the (Skilltray app|browser)\.$/);
  // The caller goes away before anyone answers: withdrawn, not denied.
  const controller = new AbortController();
  const abandoned = fetch(`${app.url}/api/run`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ skill: 'git-review', tool: 'git_status', cwd: project(app) }),
    signal: controller.signal,
  }).catch(() => null);
  await expect.poll(async () => ((await app.api<unknown[]>('approvals')).body as { ok: true; value: unknown[] }).value.length).toBe(1);
  controller.abort();
  await abandoned;
  await expect
    .poll(
      async () =>
        ((await app.api<{ decidedBy: string }[]>('history', { limit: 1 })).body as { ok: true; value: { decidedBy: string; id: string }[] }).value[0]
          ?.decidedBy,
    )
    .toBe('caller');
  const [withdrawn] = ((await app.api<{ id: string }[]>('history', { limit: 1 })).body as { ok: true; value: { id: string }[] }).value;
  await go(page, `#/history/${withdrawn?.id ?? ''}`);
  await expect(page.locator('.decision-sentence')).toHaveText('Withdrawn by the caller before anyone answered (the caller went away; nobody denied it).');
  await shot(page, 'history-withdrawn');
});
