/** Browser mode end to end: the built UI served by `skilltray serve --web`, driven in Chromium. */
import type { SkillSummary } from '../../src-main/shared/model.js';
import type { RunReport } from '../../src-main/shared/runs.js';
import { chooseFolder, expect, go, screenshot, test } from './fixtures.js';
import { ARM_DELAY_MS } from '../../src-renderer/approvals/approval-keys.js';
import { argvSkill, PRINT_ARGV } from './skills.js';

const quoted = (value: string): string => `"${value}"`;

test('browse and search to a section', async ({ page, app }) => {
  await app.open(page, '#/skills');
  await expect(page.getByRole('link', { name: 'release-notes', exact: true })).toBeVisible();
  await screenshot(page, 'browser');

  await page.getByRole('searchbox', { name: 'Search every skill' }).pressSequentially('zephy', { delay: 30 });
  const results = page.getByRole('region', { name: 'Search results' });
  await expect(results).toHaveAttribute('data-results-for', 'zephy');
  const hit = results.locator('li.hit').filter({ has: page.getByRole('link', { name: 'Zephyrine checklist' }) });
  await expect(hit).toContainText('SKILL.md › Release notes');
  await expect(hit.locator('.snippet mark').first()).toHaveText(/^zephyrine$/i);
  await screenshot(page, 'search');

  await hit.getByRole('link').click();
  await expect(page).toHaveURL(/#\/skills\/release-notes\?section=Zephyrine\+checklist&file=SKILL\.md$/);
  const section = page.getByRole('article', { name: 'Section Zephyrine checklist' });
  await expect(section.getByRole('heading', { name: 'Zephyrine checklist' })).toBeVisible();
  await expect(section.getByRole('table')).toContainText('maintainer');
  await expect(section.getByRole('checkbox').first()).toBeChecked();
  // Back returns to the search as it was left.
  await page.goBack();
  await expect(page.getByRole('searchbox', { name: 'Search every skill' })).toHaveValue('zephy');
});

test('a skill page for a name that is a typo says which skill it may be', async ({ page, app }) => {
  await app.open(page, '#/skills/echo-arg');
  const note = page.getByRole('alert').filter({ hasText: 'could not be loaded' });
  await expect(note).toContainText("error[E001] skill 'echo-arg' not found");
  await expect(note.locator('.did-you-mean')).toHaveText("did you mean 'echo-args'?");
  await screenshot(page, 'did-you-mean');
});

test('Chinese: a part of an unbroken run finds its section; the skill page shows W415 and W408', async ({ page, app }) => {
  await app.open(page, '#/skills');
  await page.getByRole('searchbox', { name: 'Search every skill' }).pressSequentially('适用', { delay: 30 });
  const results = page.getByRole('region', { name: 'Search results' });
  await expect(results).toHaveAttribute('data-results-for', '适用');
  const hit = results.locator('li.hit').filter({ has: page.getByRole('link', { name: '适用场景' }) });
  await expect(hit.getByRole('link').locator('mark')).toHaveText('适用');
  await expect(hit.getByRole('link')).toHaveAttribute('href', /^#\/skills\/zh-quirks\?section=/);
  await screenshot(page, 'search-chinese');

  await go(page, '#/skills/zh-quirks');
  const diagnostics = page.getByRole('list', { name: 'Diagnostics of zh-quirks' });
  await expect(diagnostics).toContainText('W408');
  await expect(diagnostics).toContainText("so hosts read the tools 'Read,' 'Grep'");
  await expect(diagnostics).toContainText('W415');
  await expect(diagnostics).toContainText('metadata.updated is a date');
});

test('run a user tool from its form: the approval shows program and every argument, then the output', async ({ page, app }) => {
  await app.open(page, '#/skills/echo-args');
  const form = page.getByRole('form', { name: 'Run echo' });
  await form.getByLabel(/message/).fill('hello world');
  await form.getByLabel(/count/).fill('2');
  await chooseFolder(form, app.work);
  await form.getByRole('button', { name: 'Run echo' }).click();

  const approval = page.getByRole('article', { name: /echo-args/ });
  await expect(approval.locator('.program')).toHaveText(quoted(process.execPath));
  await expect(approval.locator('.argv .visible-text')).toHaveText([quoted(PRINT_ARGV), quoted('hello world'), quoted('--count'), quoted('2')]);
  const runOnce = approval.getByRole('button', { name: /Run once/ });
  await expect(runOnce).toBeEnabled();
  await screenshot(page, 'approval-inline');
  await runOnce.click();

  await expect(page.getByLabel('Standard output')).toHaveText('["hello world","--count","2"]');
  await expect(page.locator('.badge', { hasText: 'Succeeded' })).toBeVisible();
  await expect(page.getByText('Ran after approval.')).toBeVisible();
});

test('live output streams in while the run goes on, with Cancel, then the result', async ({ page, app }) => {
  await app.open(page, '#/skills/slow-talker');
  await chooseFolder(page.getByRole('form', { name: 'Run echo' }), app.work);
  await page.getByRole('button', { name: 'Run echo' }).click();
  await page
    .getByRole('article', { name: /slow-talker/ })
    .getByRole('button', { name: /Run once/ })
    .click();
  // The tool prints one line and then sleeps for ten minutes: only Cancel ends it within the test.
  await expect(page.getByLabel('Live output')).toHaveText('first-line');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Standard output')).toHaveText('first-line');
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
});

test("an assistant's run appears in the queue; Deny answers the caller with 409 E603", async ({ page, app }) => {
  const pending = app.api('run', { skill: 'assistant-echo', tool: 'echo', args: { message: 'from an assistant' } });
  await app.open(page, '#/approvals');
  const card = page.getByRole('article', { name: /assistant-echo/ });
  await expect(card).toContainText('HTTP API');
  await expect(card.locator('.program')).toHaveText(quoted(process.execPath));
  await expect(card.locator('.argv .visible-text')).toHaveText([quoted(PRINT_ARGV), quoted('from an assistant'), quoted('--count'), quoted('1')]);
  await expect(card.getByRole('button', { name: /Deny/ })).toBeEnabled();
  await screenshot(page, 'approval');

  await card.getByRole('button', { name: /Deny/ }).click();
  const answer = await pending;
  expect(answer.status).toBe(409);
  expect(answer.body).toMatchObject({ ok: false, error: { code: 'E603' } });
  await expect(card).toHaveCount(0);
});

test('shortcuts act only on the focused request, and not in its first moments or after the window regains focus', async ({ page, app }) => {
  const pending = app.api('run', { skill: 'assistant-echo', tool: 'echo', args: { message: 'keyboard' } });
  // Every answer the page sends, in the order it sent them.
  const answers: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/answerApproval')) answers.push((JSON.parse(request.postData() ?? '{}') as { verdict?: string }).verdict ?? '');
  });
  // The page's clock stands still until the test moves it, so "too early" means the same on any machine.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
  await app.open(page, '#/approvals');
  const card = page.getByRole('article', { name: /assistant-echo/ });
  await card.focus();
  // Too early: swallowed.
  await page.keyboard.press('Control+Enter');
  await expect(card.getByRole('button', { name: /Deny/ })).toBeDisabled();
  await page.clock.runFor(ARM_DELAY_MS);
  await expect(card.getByRole('button', { name: /Deny/ })).toBeEnabled();
  // Coming back to the window re-arms the delay: a key meant for the window in front cannot answer.
  await page.evaluate("window.dispatchEvent(new Event('focus'))");
  await expect(card.getByRole('button', { name: /Deny/ })).toBeDisabled();
  await page.keyboard.press('Control+Backspace');
  await page.clock.runFor(ARM_DELAY_MS);
  await expect(card.getByRole('button', { name: /Deny/ })).toBeEnabled();
  // Focus elsewhere: the shortcut does nothing.
  await page.getByRole('link', { name: 'Skills', exact: true }).focus();
  await page.keyboard.press('Control+Backspace');

  await card.focus();
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/answerApproval'));
  await page.keyboard.press('Control+Backspace');
  await answered;
  // Anything the earlier presses had sent would be listed before this answer.
  expect(answers).toEqual(['deny']);
  const answer = await pending;
  expect(answer.status).toBe(409);
  expect(answer.body).toMatchObject({ ok: false, error: { code: 'E603' } });
});

test('Always allow: the next run of that tool is automatic and history says remembered', async ({ page, app }) => {
  const first = app.api<RunReport>('run', { skill: 'always-echo', tool: 'echo', args: { message: 'one' } });
  await app.open(page, '#/approvals');
  const card = page.getByRole('article', { name: /always-echo/ });
  await card.getByRole('button', { name: /Always allow/ }).click();
  expect((await first).status).toBe(200);
  await expect(card.getByLabel('Standard output')).toContainText('"one"');

  const second = await app.api<RunReport>('run', { skill: 'always-echo', tool: 'echo', args: { message: 'two' } });
  expect(second.status).toBe(200);
  expect(second.body).toMatchObject({ ok: true, value: { decision: { outcome: 'auto', by: 'remembered' } } });
  await expect(page.getByRole('article', { name: /always-echo/ }).filter({ hasText: 'Approval needed' })).toHaveCount(0);

  await go(page, '#/history?skill=always-echo');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('remembered');
  await expect(rows.nth(2)).toContainText('you');
  await screenshot(page, 'history');
});

test('an edit on disk shows without a reload, and the remembered approval lapses', async ({ page, app }) => {
  await app.open(page, '#/skills/editable');
  await expect(page.locator('.lede')).toHaveText('First version of the editable skill.');
  await page.evaluate(() => void ((globalThis as unknown as Record<string, unknown>).sameDocument = true));

  const first = app.api('run', { skill: 'editable', tool: 'echo', args: { message: 'v1' } });
  await go(page, '#/approvals');
  await page
    .getByRole('article', { name: /editable/ })
    .getByRole('button', { name: /Always allow/ })
    .click();
  expect((await first).status).toBe(200);

  await go(page, '#/skills/editable');
  await expect(page.locator('.lede')).toHaveText('First version of the editable skill.');
  app.writeSkill('editable', argvSkill('editable', 'Second version, edited on disk.'));
  await expect(page.locator('.lede')).toHaveText('Second version, edited on disk.');
  expect(await page.evaluate(() => (globalThis as unknown as Record<string, unknown>).sameDocument)).toBe(true);

  const again = app.api('run', { skill: 'editable', tool: 'echo', args: { message: 'v2' } });
  await go(page, '#/approvals');
  const asked = page.getByRole('article', { name: /editable/ }).filter({ hasText: 'Approval needed' });
  await expect(asked).toBeVisible();
  await expect(asked.locator('.argv .visible-text').nth(1)).toHaveText(quoted('v2'));
  await asked.getByRole('button', { name: /Deny/ }).click();
  expect((await again).status).toBe(409);
});

test('a broken skill shows its diagnostics: code, file, line and message', async ({ page, app }) => {
  const listed = await app.api<{ skills: SkillSummary[] }>('list', {});
  if (!listed.body.ok) throw new Error('list failed');
  const broken = listed.body.value.skills.find((s) => s.name === 'broken-skill');
  const diagnostic = broken?.diagnostics.find((d) => d.severity === 'error');
  if (!broken || !diagnostic) throw new Error('broken-skill should load with an error diagnostic');

  await app.open(page, '#/skills');
  const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'broken-skill', exact: true }) });
  await expect(row.locator('.badge', { hasText: 'broken' })).toBeVisible();
  const shown = row.getByRole('list', { name: 'Diagnostics of broken-skill' }).getByRole('listitem').filter({ hasText: diagnostic.code });
  await expect(shown).toContainText(`SKILL.md:${diagnostic.line}`);
  await expect(shown).toContainText(diagnostic.message);

  await row.getByRole('link', { name: 'broken-skill', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Diagnostics' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Diagnostics of broken-skill' })).toContainText(diagnostic.code);

  // A broken tool: its diagnostic under it, Run disabled with the core's reason, before anyone clicks.
  await go(page, '#/skills/broken-tool');
  const form = page.getByRole('form', { name: 'Run echo' });
  await expect(page.getByRole('list', { name: 'Diagnostics of echo' })).toContainText('undeclared');
  await expect(form.getByRole('status')).toContainText('Cannot run');
  await expect(form.getByRole('button', { name: 'Run echo' })).toBeDisabled();
});

test('a tool form shows the defaults from its Command, its description as Markdown, and what the policy will do', async ({ page, app }) => {
  await app.open(page, '#/skills/git');
  const log = page.getByRole('region', { name: 'git_log' });
  await expect(log.getByLabel(/count/)).toHaveAttribute('placeholder', '10');
  await expect(log.getByLabel(/repo/)).toHaveAttribute('placeholder', '.');
  await expect(log.getByLabel(/^path/)).not.toHaveAttribute('placeholder');
  // `staged` in git_diff's description is code, not backticks.
  await expect(page.getByRole('region', { name: 'git_diff' }).locator('.markdown code', { hasText: 'staged' })).toBeVisible();
  await expect(log.getByRole('status')).toContainText(/Asks you first|Runs without asking/);
  // Read-only is said once, as approvals go by it.
  await expect(page.locator('dt', { hasText: /^Read-only$/ })).toHaveCount(1);
  await expect(page.locator('dt', { hasText: /^Effect$/ })).toHaveCount(0);
  // git is read_only and its classification agrees, so no note; network's classification says otherwise.
  await expect(page.locator('.fact-note')).toHaveCount(0);
  // git never ran here, so the form asks where to run before Run is enabled.
  await expect(log.getByRole('button', { name: 'Run git_log' })).toBeDisabled();
  await chooseFolder(log.getByRole('form', { name: 'Run git_log' }), app.work);
  await expect(log.getByRole('button', { name: 'Run git_log' })).toBeEnabled();
  await go(page, '#/skills/network');
  await expect(page.locator('.fact-note')).toContainText('effect read_only');
});

test('the tray window: pending count, browser, mode and pause; no desktop-only controls in a browser', async ({ page, app }) => {
  await page.setViewportSize({ width: 380, height: 560 });
  await app.open(page, '#/tray');
  await expect(page.getByRole('link', { name: /No approvals waiting/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open skill browser' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Global' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Pause all runs' })).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('button', { name: 'Open skills folder' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Quit Skilltray' })).toHaveCount(0);
  await screenshot(page, 'tray');

  // Mode and pause round-trip through the app and come back as settings events.
  await page.getByRole('radio', { name: 'Dev' }).check();
  await expect.poll(async () => (await app.api<{ mode: string }>('settings')).body).toMatchObject({ value: { mode: 'Dev' } });
  await page.getByRole('switch', { name: 'Pause all runs' }).click();
  await expect(page.getByRole('switch', { name: 'Pause all runs' })).toHaveAttribute('aria-checked', 'true');
  await app.api('setPaused', { paused: false });
  await app.api('setMode', { mode: 'Global' });
  await expect(page.getByRole('switch', { name: 'Pause all runs' })).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('radio', { name: 'Global' })).toBeChecked();
});

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });

  test('follows the system', async ({ page, app }) => {
    await app.open(page, '#/skills');
    await expect(page.getByRole('link', { name: 'release-notes', exact: true })).toBeVisible();
    const background = await page.evaluate(() => {
      const g = globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string }; document: { body: unknown } };
      return g.getComputedStyle(g.document.body).backgroundColor;
    });
    expect(background).toBe('rgb(14, 16, 20)');
    await screenshot(page, 'browser-dark');
  });
});
