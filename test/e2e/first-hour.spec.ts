/**
 * A new user's first screens in browser mode, at a phone-sized 360 px and a desktop 1280 px: search
 * that leads with the tool and reads as text, filters folded on a narrow screen, a skill page that
 * leads with its tools, an approval sentence in plain code, a palette that starts with everyday
 * tools, honest Settings, and a run form that asks where to run until it knows. Screenshots go to
 * test-results/screenshots/first-hour-*.png.
 */
import { fileURLToPath } from 'node:url';
import type { PendingEntry } from '../../src-main/shared/runs.js';
import { chooseFolder, expect, go, screenshot, test, type RunningApp } from './fixtures.js';

/** A folder outside /tmp for runs to start in: this checkout. */
const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The id of `skill`'s pending approval, if one waits. */
async function pendingId(app: RunningApp, skill: string): Promise<string | undefined> {
  const pending = (await app.api<PendingEntry[]>('approvals')).body;
  return pending.ok ? pending.value.find((p) => p.skill === skill)?.id : undefined;
}

const SIZES = [
  { width: 360, height: 640 },
  { width: 1280, height: 860 },
];

test('searching "git log" shows the git_log tool first with its Run button, no card titled only "Command", no Markdown in snippets', async ({ page, app }) => {
  await app.open(page, '#/skills');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await go(page, '#/skills');
    await page.getByRole('searchbox', { name: 'Search every skill' }).fill('git log');
    const results = page.getByRole('region', { name: 'Search results' });
    await expect(results).toHaveAttribute('data-results-for', 'git log');
    const first = results.locator('li.hit').first();
    await expect(first).toHaveAttribute('data-tool', 'git_log');
    await expect(first.locator('.hit-link')).toHaveText('git_log');
    await expect(first.getByRole('button', { name: 'Run git git_log' })).toBeVisible();
    await expect(first.locator('.hit-summary')).toHaveText('List recent commits, newest first, one per line: short hash, date, author and subject.');
    await expect(first.locator('.hit-where')).toHaveText('optional count (whole number, default 10), path (text), repo (text, default .)');
    for (const title of await results.locator('.hit-link').allTextContents()) expect(title).not.toMatch(/^Command$/);
    for (const text of await results.locator('.snippet').allTextContents()) expect(text).not.toMatch(/```|#{2,}|\*\*|\[MATCH\]|\|/);
    await screenshot(page, `first-hour-search-git-log-${size.width}`);
  }
});

test('below 600 px the filters fold behind one button, so the first skills are on the first screen', async ({ page, app }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await app.open(page, '#/skills');
  const toggle = page.getByRole('button', { name: /^Filters/ });
  const filters = page.getByRole('group', { name: 'Filters' });
  await expect(toggle).toBeVisible();
  await expect(filters).toBeHidden();
  await expect(page.locator('.skill-row').first()).toBeInViewport();
  await screenshot(page, 'first-hour-skills-360', { fullPage: false });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(filters).toBeVisible();
  await filters.getByLabel('Role').selectOption('utility');
  await toggle.click();
  await expect(toggle).toHaveText(/Filters · 1 on/);
  await page.setViewportSize({ width: 1280, height: 860 });
  await expect(toggle).toBeHidden();
  await expect(filters).toBeVisible();
  await filters.getByRole('button', { name: 'Clear filters' }).click();
});

test('a skill page leads with its tool forms; metadata follows, and cards with nothing to say are left out', async ({ page, app }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await app.open(page, '#/skills/echo-args');
  await expect(page.locator('.skill-main h2').first()).toHaveText('Tools');
  const headings = await page.locator('.skill-main h2').allTextContents();
  expect(headings.slice(0, 2)).toEqual(['Tools', 'About']);
  // A user skill without classification or requirements: no "none", no "not stated".
  expect(headings).not.toContain('Classification');
  expect(headings).not.toContain('Requirements');
  await expect(page.locator('.skill-main')).not.toContainText(/not stated/);
  await expect(page.getByRole('form', { name: 'Run echo' })).toBeInViewport({ ratio: 0.05 });
  await screenshot(page, 'first-hour-skill-page-360', { fullPage: false });
  // A classification that says only what the Read-only fact already says is no card either.
  app.writeSkill(
    'quiet-reader',
    '---\nname: quiet-reader\ndescription: Reads quietly.\nmetadata:\n  classification:\n    effect_mode: read_only\n---\n# Quiet reader\n',
  );
  await expect.poll(async () => (await app.api('describe', { skill: 'quiet-reader' })).status).toBe(200);
  await go(page, '#/skills/quiet-reader');
  await expect(page.getByRole('heading', { name: 'About' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Classification' })).toHaveCount(0);
  // A skill that has them still shows them.
  await go(page, '#/skills/git');
  await expect(page.getByRole('heading', { name: 'Classification' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Requirements' })).toBeVisible();
});

test("the approval sentence shows the command as code, without backticks or shell quoting, marking exactly the caller's values", async ({ page, app }) => {
  app.writeSkill(
    'greeter',
    '---\nname: greeter\ndescription: Greets someone.\n---\n# Greeter\n\n### greet\n\nSays hello.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| name | string | yes | whom |\n\n#### Command\n\n```\necho Hello, <<name>>!\n```\n',
  );
  await expect.poll(async () => (await app.api('describe', { skill: 'greeter' })).status).toBe(200);
  const answered = app.api('run', { skill: 'greeter', tool: 'greet', args: { name: "Ada Lovelace's" }, cwd: app.work });
  await page.setViewportSize({ width: 400, height: 640 });
  await app.open(page, '#/approvals');
  const card = page.getByRole('article', { name: /greeter/ });
  const sentence = card.getByRole('heading');
  await expect(sentence).toHaveText(/^An HTTP client asks to run echo Hello, Ada Lovelace's! in \S+ — /);
  await expect(sentence.locator('code.sentence-command')).toHaveText("echo Hello, Ada Lovelace's!");
  // The caller chose the name; the skill wrote the comma and the "!".
  await expect(sentence.locator('mark.supplied')).toHaveText(["Ada Lovelace's"]);
  await expect(card.locator('.command-line mark.supplied')).toHaveText(["Ada Lovelace's"]);
  await expect(sentence.locator('.command-arg-spaced')).toHaveText(["Ada Lovelace's!"]);
  await screenshot(page, 'first-hour-approval-sentence-400', { fullPage: false });
  await app.api('answerApproval', { id: await pendingId(app, 'greeter'), verdict: 'deny' });
  expect((await answered).body).toMatchObject({ ok: false, error: { code: 'E603' } });
});

test('the empty palette offers everyday tools (no sidecar), the tools run lately first; what it found says why in plain words', async ({ page, app }) => {
  // Run once, approved if it asks (a home under /tmp is not contained, so even a bundled read-only tool asks here).
  let settled = false;
  const ran = app.api('run', { skill: 'system', tool: 'memory_usage', cwd: REPO }).finally(() => (settled = true));
  let id: string | undefined;
  await expect.poll(async () => settled || (id = await pendingId(app, 'system')) !== undefined).toBe(true);
  if (id !== undefined) await app.api('answerApproval', { id, verdict: 'once' });
  expect((await ran).body).toMatchObject({ ok: true });
  await app.open(page, '#/skills');
  await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  const options = dialog.getByRole('option');
  await expect(options.first()).toContainText('memory_usage');
  const all = await options.allTextContents();
  expect(all.some((text) => text.includes('checksum_artifact'))).toBe(false);
  await screenshot(page, 'first-hour-palette-empty', { fullPage: false });
  await dialog.getByRole('combobox', { name: 'Command palette' }).fill('how full is my disk');
  await expect(dialog.getByRole('listbox', { name: 'Results' })).toHaveAttribute('data-results-for', 'how full is my disk');
  await expect(options.first()).toContainText('disk_usage');
  const skill = dialog.getByRole('option').filter({ hasText: /^Skillsystem/ });
  await expect(skill.locator('.palette-detail')).toHaveText(/^mentions “full” and “disk” \(tool disk_usage\)/);
  await expect(dialog).not.toContainText(/relevance \d/);
  await screenshot(page, 'first-hour-palette-disk', { fullPage: false });
  await page.keyboard.press('Escape');
});

test('Settings: the rule example names a tool that exists; the global shortcut, a desktop control, is not offered in a browser', async ({ page, app }) => {
  await app.open(page, '#/settings');
  await expect(page.getByLabel('Pattern')).toHaveAttribute('placeholder', 'tool:git/git_status');
  await expect(page.getByRole('heading', { name: 'Rules' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Command palette' })).toHaveCount(0);
  await expect(page.getByLabel('Global shortcut')).toHaveCount(0);
});

test("a run form asks where to run until the skill has run; then it starts from the skill's last folder", async ({ page, app }) => {
  app.writeSkill('folder-echo', (await import('./skills.js')).argvSkill('folder-echo'));
  await expect.poll(async () => (await app.api('describe', { skill: 'folder-echo' })).status).toBe(200);
  await app.open(page, '#/skills/folder-echo');
  const form = page.getByRole('form', { name: 'Run echo' });
  await form.getByLabel(/message/).fill('here');
  const folder = form.getByLabel(/Folder to run in/);
  await expect(folder).toBeVisible();
  await expect(folder).toHaveValue('');
  await expect(form.getByText('folder-echo has not run yet: choose the folder it runs in first.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Run echo' })).toBeDisabled();
  await chooseFolder(form, app.work);
  await form.getByRole('button', { name: 'Run echo' }).click();
  const approval = page.getByRole('article', { name: /folder-echo/ });
  await approval.getByRole('button', { name: /Run once/ }).click();
  await expect(page.getByLabel('Standard output')).toHaveText('["here","--count","1"]');
  await page.reload();
  await expect(page.getByRole('form', { name: 'Run echo' }).getByLabel(/Folder to run in/)).toHaveValue(app.work);
  await expect(page.getByRole('form', { name: 'Run echo' }).getByRole('button', { name: 'Run echo' })).toBeDisabled();
  await page
    .getByRole('form', { name: 'Run echo' })
    .getByLabel(/message/)
    .fill('again');
  await expect(page.getByRole('form', { name: 'Run echo' }).getByRole('button', { name: 'Run echo' })).toBeEnabled();
});
