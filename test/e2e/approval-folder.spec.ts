/**
 * Where an Always holds, chosen in the approval: in the run's folder by default; "in any folder" is
 * offered only to a read-only tool, and a tool that may write says it is remembered in its folder
 * only. The same card in the tray popup (360×560) and the approval window (1280×800); the remembered
 * list says where each holds. Screenshots go to test-results/screenshots/.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import type { DryRun, Remembered } from '../../src-main/shared/runs.js';
import { SCREENSHOTS, expect, go, screenshot, test, type RunningApp } from './fixtures.js';

/** Folders outside /tmp (a sandboxed run sees its own /tmp), removed after the test. */
let made: string[] = [];
test.afterEach(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made = [];
});

function folders(): [string, string] {
  const parent = join(dirname(SCREENSHOTS), 'folders');
  mkdirSync(parent, { recursive: true });
  const base = realpathSync(mkdtempSync(join(parent, 'run-')));
  made.push(base);
  const [one, two] = [join(base, 'one'), join(base, 'two')];
  for (const dir of [one, two]) {
    mkdirSync(dir);
    writeFileSync(join(dir, 'file.txt'), 'x\n');
  }
  return [one, two];
}

async function skill(app: RunningApp, name: string, command: string, readOnly: boolean): Promise<void> {
  app.writeSkill(
    name,
    `---\nname: ${name}\ndescription: The ${name} skill.\nversion: 1.0.0\nread_only: ${readOnly}\n---\n\n### go\n\nRuns it.\n\n#### Parameters\n\nNone.\n\n#### Command\n\n\`\`\`\n${command}\n\`\`\`\n`,
  );
  await expect.poll(async () => (await app.api('describe', { skill: name })).status).toBe(200);
}

async function remembered(app: RunningApp, name: string): Promise<Remembered | undefined> {
  const listed = await app.api<Remembered[]>('remembered');
  return listed.body.ok ? listed.body.value.find((r) => r.skill === name) : undefined;
}

async function decision(app: RunningApp, name: string, cwd: string): Promise<DryRun> {
  const dry = await app.api<DryRun>('dryRun', { skill: name, tool: 'go', cwd });
  if (!dry.body.ok) throw new Error(dry.body.error.message);
  return dry.body.value;
}

const cardOf = (page: Page, name: string) => page.getByRole('article', { name: new RegExp(name) });

test('a read-only tool offers "in any folder"; chosen in the tray popup, it then runs unasked in another folder', async ({ page, app }) => {
  await skill(app, 'folder-peek', 'ls', true);
  const [one, two] = folders();
  const answered = app.api('run', { skill: 'folder-peek', tool: 'go', cwd: one });
  await page.setViewportSize({ width: 360, height: 560 });
  await app.open(page, '#/tray');
  const card = cardOf(page, 'folder-peek');
  const scope = card.getByRole('group', { name: 'Always applies' });
  await expect(scope.getByRole('radio', { name: 'in this folder' })).toBeChecked();
  await expect(scope.getByRole('radio', { name: 'in any folder' })).not.toBeChecked();
  for (const name of [/Run once/, /Always allow/, /Deny/]) await expect(card.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
  await expect(scope).toBeInViewport({ ratio: 1 });
  await scope.getByRole('radio', { name: 'in any folder' }).check();
  await expect(card.getByRole('button', { name: /Run once/ })).toBeEnabled();
  await screenshot(page, 'approval-folder-tray-360x560', { fullPage: false });
  await card.getByRole('button', { name: /Always allow/ }).click();
  expect((await answered).body).toMatchObject({ ok: true, value: { result: { stdout: 'file.txt\n' } } });

  expect(await remembered(app, 'folder-peek')).toMatchObject({ folder: null });
  expect(await decision(app, 'folder-peek', two)).toMatchObject({ decision: 'auto' });
  await expect(page.getByRole('list', { name: 'Remembered approvals' }).getByRole('listitem').filter({ hasText: 'folder-peek' })).toContainText(
    'in any folder',
  );
});

test('a tool that may write is remembered in its folder only, and asks again in another folder', async ({ page, app }) => {
  await skill(app, 'folder-note', 'sh -c "echo noted >> notes.txt"', false);
  const [one, two] = folders();
  const answered = app.api('run', { skill: 'folder-note', tool: 'go', cwd: one });
  await page.setViewportSize({ width: 1280, height: 800 });
  await app.open(page, '#/approvals');
  const card = cardOf(page, 'folder-note');
  await expect(card.locator('p.expiry')).toHaveText('Always applies in this folder only');
  await expect(card.getByRole('radio', { name: 'in any folder' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: /Run once/ })).toBeEnabled();
  await screenshot(page, 'approval-folder-queue-1280x800', { fullPage: false });
  await card.getByRole('button', { name: /Always allow/ }).click();
  expect((await answered).body).toMatchObject({ ok: true, value: { result: { exitCode: 0 } } });

  expect(await remembered(app, 'folder-note')).toMatchObject({ folder: one });
  expect(await decision(app, 'folder-note', one)).toMatchObject({ decision: 'auto' });
  expect(await decision(app, 'folder-note', two)).toMatchObject({
    decision: 'ask',
    reason: expect.stringContaining(`you allowed it in ${one}, and this run is in ${two}`),
  });
  await go(page, '#/tray');
  await expect(page.getByRole('list', { name: 'Remembered approvals' }).getByRole('listitem').filter({ hasText: 'folder-note' })).toContainText(`in ${one}`);
});

/** Who `files` is now: the bundled skill, or a user skill hiding it. */
async function filesTrust(app: RunningApp): Promise<string | null> {
  const described = await app.api<{ trust: string }>('describe', { skill: 'files' });
  return described.body.ok ? described.body.value.trust : null;
}

test('an approval says when the skill hides another of its name', async ({ page, app }) => {
  // A user skill named like a bundled one hides it (W421); it is taken away again after the test.
  await skill(app, 'files', 'ls', true);
  await expect.poll(() => filesTrust(app)).toBe('user');
  const [one] = folders();
  try {
    const answered = app.api('run', { skill: 'files', tool: 'go', cwd: one });
    await page.setViewportSize({ width: 360, height: 560 });
    await app.open(page, '#/tray');
    const card = cardOf(page, 'files');
    await expect(card.locator('.approval-warning')).toContainText('It hides the skill of the same name in the bundled skills (');
    await expect(card.getByRole('button', { name: /Run once/ })).toBeEnabled();
    await screenshot(page, 'approval-hides-tray-360x560', { fullPage: false });
    await card.getByRole('button', { name: /Deny/ }).click();
    expect((await answered).body).toMatchObject({ ok: false, error: { code: 'E603' } });
  } finally {
    rmSync(join(app.skills, 'files'), { recursive: true, force: true });
    await expect.poll(() => filesTrust(app)).toBe('bundled');
  }
});
