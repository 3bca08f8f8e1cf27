/**
 * The launcher: the command palette from the keyboard over the bundled packs (intent → tool → run →
 * output), and search results people can scan (`git status` finds the git_status tool first, both
 * words marked, as typed and as complete words).
 */
import { fileURLToPath } from 'node:url';
import { chooseFolder, expect, screenshot, test } from './fixtures.js';

/** A Git repository to look at: this checkout. */
const REPO = fileURLToPath(new URL('../..', import.meta.url));

test('the palette from the keyboard: an intent, its tool, the form with defaults, the run and its output', async ({ page, app }) => {
  await app.open(page, '#/skills');
  await expect(page.getByRole('link', { name: 'release-notes', exact: true })).toBeVisible();
  await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  const input = dialog.getByRole('combobox', { name: 'Command palette' });
  await expect(input).toBeFocused();
  await screenshot(page, 'palette-open', { fullPage: false });

  await page.keyboard.type('show me the git status');
  const results = dialog.getByRole('listbox', { name: 'Results' });
  await expect(results).toHaveAttribute('data-results-for', 'show me the git status');
  // The active option is the first tool: the one discover's best skill lists first.
  const active = results.getByRole('option', { selected: true });
  await expect(active).toContainText('git');
  await expect(active).toContainText('git_status');
  await screenshot(page, 'palette-results', { fullPage: false });

  await page.keyboard.press('Enter');
  const form = dialog.getByRole('form', { name: 'Run git_status' });
  const repo = form.getByLabel(/repo/);
  await expect(repo).toBeFocused();
  // The default is shown where the value goes.
  await expect(repo).toHaveAttribute('placeholder', '.');
  // git never ran here: the palette asks for the folder it runs in (the box shows the tool that folder only), and the repo stays '.'.
  await expect(form.getByRole('button', { name: 'Run git_status' })).toBeDisabled();
  await chooseFolder(form, REPO);
  await expect(form.getByRole('status')).toContainText(/Asks you first|Runs without asking/);
  await screenshot(page, 'palette-form', { fullPage: false });
  await page.keyboard.press('Enter');

  const card = dialog.getByRole('article', { name: /git/ });
  const output = dialog.getByLabel('Standard output');
  await expect(card.or(output)).toBeVisible();
  if (await card.isVisible()) {
    // The request takes focus; once armed, the keyboard answers it.
    await expect(card).toBeFocused();
    await expect(card.getByRole('button', { name: /Run once/ })).toBeEnabled();
    await screenshot(page, 'palette-approval', { fullPage: false });
    await page.keyboard.press('Control+Enter');
  }
  await expect(output).toContainText('## ');
  await expect(output).toBeFocused();
  await screenshot(page, 'palette-output', { fullPage: false });

  // Esc steps back to the results, then closes the palette.
  await page.keyboard.press('Escape');
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('show me the git status');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('search for git status: the tool first, both words marked, as typed and as complete words; Run opens its form', async ({ page, app }) => {
  await app.open(page, '#/skills');
  const box = page.getByRole('searchbox', { name: 'Search every skill' });
  const results = page.getByRole('region', { name: 'Search results' });
  for (const [typed, mode] of [
    ['git status', 'prefix'],
    ['git status ', 'full'],
    ['git stat', 'prefix'],
  ] as const) {
    await box.fill(typed);
    await expect(results).toHaveAttribute('data-results-for', typed.trim());
    await expect(results).toHaveAttribute('data-results-mode', mode);
    const first = results.locator('li.hit').first();
    await expect(first.getByRole('link').first()).toHaveText('git_status');
    await expect(first.locator('.hit-link mark')).toHaveText(['git', 'status']);
    await expect(first.getByRole('button', { name: 'Run git git_status' })).toBeVisible();
    // Every word is marked in the snippets too, and they read as text, not Markdown.
    const snippets = results.locator('.snippet');
    await expect(snippets.first().locator('mark')).not.toHaveCount(0);
    for (const text of await snippets.allTextContents()) expect(text).not.toMatch(/[#`|]|\[MATCH\]/);
    if (mode === 'full') await screenshot(page, 'search-git-status');
  }
  const marks = (await results.locator('.snippet mark').allTextContents()).map((m) => m.toLowerCase());
  expect(marks).toEqual(expect.arrayContaining(['git', 'stat']));

  await results.getByRole('button', { name: 'Run git git_status' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  await expect(dialog.getByRole('form', { name: 'Run git_status' }).getByLabel(/repo/)).toBeFocused();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // The palette ranks the same way.
  await page.keyboard.press('Control+K');
  await page.keyboard.type('git status');
  const option = dialog.getByRole('option', { selected: true });
  await expect(dialog.getByRole('listbox', { name: 'Results' })).toHaveAttribute('data-results-for', 'git status');
  await expect(option).toContainText('git_status');
  await expect(option.locator('mark')).toHaveText(['git', 'status']);
});

test("the palette says when discover's best match sits in another role: also: artifact-checksum, a sidecar", async ({ page, app }) => {
  await app.open(page, '#/skills');
  await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  const input = dialog.getByRole('combobox', { name: 'Command palette' });
  const results = dialog.getByRole('listbox', { name: 'Results' });
  const also = dialog.getByRole('list', { name: 'Better matches in another role' });
  // discover ranks the bundled sidecar above every direct match, and says so beside them.
  await input.fill('verify the sha256 of my release tarball');
  await expect(results).toHaveAttribute('data-results-for', 'verify the sha256 of my release tarball');
  const answer = (await app.api<{ also: { name: string; score: number }[] }>('discover', { intent: 'verify the sha256 of my release tarball', limit: 5 })).body;
  const first = answer.ok ? answer.value.also[0] : undefined;
  expect(first?.name).toBe('artifact-checksum');
  await expect(also.getByRole('listitem').first()).toHaveText(`also: artifact-checksum, a sidecar, ${first?.score.toFixed(2)}`);
  await expect(also).toBeInViewport();
  await screenshot(page, 'palette-also', { fullPage: false });
  // A query whose best match is a direct one has no such line.
  await input.fill('git status');
  await expect(results).toHaveAttribute('data-results-for', 'git status');
  await expect(also).toHaveCount(0);
  // The line leads to the skill.
  await input.fill('verify the sha256 of my release tarball');
  await also.getByRole('link', { name: 'artifact-checksum' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'artifact-checksum' })).toBeVisible();
});
