/**
 * A phone-sized window (390×844), each checked at a desktop 1280×800 too: a run picked in History
 * shows in view and Back returns to the list where it was; the palette with an approval leaves the
 * card's answers on screen and its command readable; Settings › Assistants shows a Connect diff in
 * view; filters in the address that mean nothing say so instead of showing nothing. Screenshots go to
 * test-results/screenshots/phone-*.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../../src-main/shared/runs.js';
import { argvSkill } from './skills.js';
import { chooseFolder, expect, go, screenshot, test, type RunningApp } from './fixtures.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const SIZES = [PHONE, DESKTOP];

/** Writes a user skill and waits until the app has loaded it. */
async function skill(app: RunningApp, name: string): Promise<void> {
  app.writeSkill(name, argvSkill(name));
  await expect.poll(async () => (await app.api('describe', { skill: name })).status).toBe(200);
}

test('a run picked in History shows in view with focus; Back returns to the list where it was', async ({ page, app }) => {
  await skill(app, 'phone-history');
  // Runs that need nobody: an allow rule for this skill alone, removed again so no other scenario meets it.
  const rule = await app.api<{ id: number }>('addRule', { pattern: 'skill:phone-history', effect: 'allow' });
  if (!rule.body.ok) throw new Error(JSON.stringify(rule.body));
  for (let i = 0; i < 8; i += 1) {
    const ran = await app.api<RunReport>('run', { skill: 'phone-history', tool: 'echo', args: { message: `run ${i}` }, cwd: app.work });
    expect(ran.body).toMatchObject({ ok: true });
  }
  await app.api('removeRule', { id: rule.body.value.id });

  await app.open(page, '#/history?skill=phone-history');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await go(page, '#/history?skill=phone-history');
    const rows = page.getByRole('table').getByRole('link', { name: 'phone-history / echo' });
    await expect(rows).toHaveCount(8);
    const picked = rows.nth(5);
    await picked.scrollIntoViewIfNeeded();
    await picked.click();
    const detail = page.getByRole('article', { name: 'phone-history echo' });
    const title = detail.getByRole('heading', { level: 2 });
    await expect(title).toBeFocused();
    await expect(title).toBeInViewport();
    await expect(detail.getByRole('heading', { name: 'Decision' })).toBeInViewport();
    if (size === PHONE) await screenshot(page, 'phone-history-detail-390', { fullPage: false });
    else await screenshot(page, 'phone-history-detail-1280', { fullPage: false });

    await page.goBack();
    await expect(page).toHaveURL(/#\/history\?skill=phone-history$/);
    await expect(detail).toHaveCount(0);
    await expect(picked).toBeInViewport();
    await expect(picked).toBeFocused();
  }
  // The detail's own way back does the same.
  await page.setViewportSize(PHONE);
  await page.getByRole('table').getByRole('link', { name: 'phone-history / echo' }).nth(6).click();
  await expect(page.getByRole('article', { name: 'phone-history echo' })).toBeVisible();
  await page.getByRole('link', { name: /All runs/ }).click();
  await expect(page).toHaveURL(/#\/history\?skill=phone-history$/);
  await expect(page.getByRole('table').getByRole('link', { name: 'phone-history / echo' }).nth(6)).toBeInViewport();
});

test('the palette with an approval: the answers on screen without scrolling, the command readable', async ({ page, app }) => {
  await skill(app, 'phone-palette');
  await app.open(page, '#/skills');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.keyboard.press('Control+K');
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    await dialog.getByRole('combobox', { name: 'Command palette' }).fill('phone-palette');
    await dialog.getByRole('option').filter({ hasText: 'phone-palette' }).filter({ hasText: 'echo' }).first().click();
    const form = dialog.getByRole('form', { name: 'Run echo' });
    await form.getByLabel(/message/).fill(`from the palette at ${size.width} px`);
    await chooseFolder(form, app.work);
    await form.getByRole('button', { name: 'Run echo' }).click();

    const card = dialog.getByRole('article', { name: /phone-palette/ });
    await expect(card).toBeFocused();
    for (const name of [/Run once/, /Always allow/, /Deny/]) await expect(card.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
    await expect(card.getByRole('button', { name: /Run once/ })).toBeEnabled();
    // The command reads whole, on screen, at a size meant to be read.
    const command = card.locator('code.sentence-command');
    await expect(command).toBeInViewport({ ratio: 1 });
    expect(
      await command.evaluate((el) =>
        parseFloat((globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } }).getComputedStyle(el).fontSize),
      ),
    ).toBeGreaterThanOrEqual(13);
    // The palette takes the window on a phone, so nothing is hidden behind its frame.
    const frame = await dialog.boundingBox();
    if (size === PHONE) expect(frame?.height ?? 0).toBeGreaterThanOrEqual(PHONE.height - 2);
    await screenshot(page, `phone-palette-approval-${size.width}`, { fullPage: false });

    await card.getByRole('button', { name: /Deny/ }).click();
    await expect(dialog.getByText(/denied/i).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
});

test('Settings › Assistants › Connect opens its diff in view', async ({ page, app }) => {
  // Every client found, so Cursor's row sits among many; Cursor with a server of its own and no Skilltray.
  for (const dir of ['.cursor', '.codex', '.claude', '.codeium/windsurf', '.config/zed', '.config/goose', '.vscode'])
    mkdirSync(join(app.user, dir), { recursive: true });
  const cursorFile = join(app.user, '.cursor', 'mcp.json');
  writeFileSync(cursorFile, '{\n  "mcpServers": {\n    "other": { "command": "npx", "args": ["-y", "other-server"] }\n  }\n}\n');
  await app.open(page, '#/settings');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    const section = page.getByRole('region', { name: 'Assistants' });
    const cursor = section.getByRole('listitem', { name: 'Cursor' });
    const connect = cursor.getByRole('button', { name: 'Connect Cursor' });
    // The button at the window's bottom edge: where a person taps it after scrolling down to it.
    await connect.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await connect.click();
    const change = cursor.getByRole('group', { name: 'Connect Cursor: the change' });
    await expect(change).toBeFocused();
    await expect(change.getByLabel(`Change to ${cursorFile}`)).toBeInViewport();
    await expect(change.getByRole('button', { name: 'Connect Cursor' })).toBeInViewport({ ratio: 1 });
    await expect(change.getByLabel(`Change to ${cursorFile}`)).toContainText('+    "skilltray": {');
    await screenshot(page, `phone-connect-diff-${size.width}`, { fullPage: false });
    await change.getByRole('button', { name: 'Cancel' }).click();
    await expect(change).toHaveCount(0);
    await expect(connect).toBeFocused();
  }
});

test('a filter in the address that means nothing says so; broken is another word for error', async ({ page, app }) => {
  await app.open(page, '#/skills');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await go(page, '#/skills?health=broken');
    await expect(page.getByRole('link', { name: 'broken-skill', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'release-notes', exact: true })).toHaveCount(0);
    await expect(page).toHaveURL(/health=error/);

    const unknown: [string, RegExp][] = [
      ['#/skills?health=bogus', /unknown filter health=bogus; try error, warnings, ok/],
      ['#/skills?role=chef', /unknown filter role=chef; try procedure, utility, sidecar/],
      ['#/skills?status=gold', /unknown filter status=gold; try \S/],
      ['#/skills?source=moon', /unknown filter source=moon; try trust:bundled, trust:user, /],
      ['#/skills?offered=maybe', /unknown filter offered=maybe; try 1/],
      ['#/skills?helth=error', /unknown filter helth; try q, offered, source, role, status, health/],
    ];
    for (const [hash, said] of unknown) {
      await go(page, hash);
      const note = page.getByRole('status').filter({ hasText: said });
      await expect(note, hash).toBeVisible();
      await expect(note).toBeInViewport();
      // The list is not emptied by a filter nobody can satisfy: every skill shows, and the note says why.
      await expect(page.getByRole('link', { name: 'release-notes', exact: true })).toBeVisible();
      await expect(page.getByText('No skill matches these filters.')).toHaveCount(0);
    }
    await screenshot(page, `phone-unknown-filter-${size.width}`, { fullPage: false });

    await go(page, '#/history?status=failure&surface=fax');
    await expect(page.getByRole('status').filter({ hasText: /unknown filter status=failure; try pending, running, succeeded, failed/ })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /unknown filter surface=fax; try cli, http, mcp, ui, browser/ })).toBeVisible();
  }
});
