import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AssistantChange } from '../../src-main/shared/connect.js';
import { SCREENSHOTS, expect, test } from './fixtures.js';

const CURSOR_CONFIG = '{\n  // my servers\n  "mcpServers": {\n    "other": { "command": "npx", "args": ["-y", "other-server"] } // keep\n  }\n}\n';

test('Settings › Assistants lists the clients found, shows the change first, connects, and says it works', async ({ page, app }) => {
  // Fixture clients in serve's own temporary HOME: Cursor with a server of its own, and Codex with no config yet.
  mkdirSync(join(app.user, '.cursor'), { recursive: true });
  mkdirSync(join(app.user, '.codex'), { recursive: true });
  const cursorFile = join(app.user, '.cursor', 'mcp.json');
  writeFileSync(cursorFile, CURSOR_CONFIG);
  await app.open(page, '#/settings');
  const section = page.getByRole('region', { name: 'Assistants' });
  const cursor = section.getByRole('listitem', { name: 'Cursor' });
  await expect(cursor).toContainText('not connected');
  await expect(cursor).toContainText(cursorFile);
  await expect(section.getByRole('listitem', { name: 'Codex' })).toContainText('not connected');
  await expect(section).toContainText('Not found here: Claude Desktop, Claude Code, VS Code, Windsurf, Zed, goose.');

  await cursor.getByRole('button', { name: 'Connect Cursor' }).click();
  const change = cursor.getByRole('group', { name: 'Connect Cursor: the change' });
  const diff = change.getByLabel(`Change to ${cursorFile}`);
  await expect(diff).toContainText('+    "skilltray": {');
  await expect(diff).toContainText('"other": { "command": "npx", "args": ["-y", "other-server"] } // keep');
  expect(readFileSync(cursorFile, 'utf8')).toBe(CURSOR_CONFIG);
  await section.screenshot({ path: join(SCREENSHOTS, 'assistants-diff-1280.png') });

  await change.getByRole('button', { name: 'Connect Cursor' }).click();
  await expect(cursor.getByText('works', { exact: true })).toBeVisible();
  await expect(cursor.locator('.badge').first()).toHaveText('connected');
  await expect(change).toHaveCount(0);
  const written = readFileSync(cursorFile, 'utf8');
  expect(written).toContain('"skilltray": {');
  expect(written).toContain('// keep');
  expect(readFileSync(`${cursorFile}.skilltray.bak`, 'utf8')).toBe(CURSOR_CONFIG);
  await section.screenshot({ path: join(SCREENSHOTS, 'assistants-connected-1280.png') });

  await page.setViewportSize({ width: 360, height: 780 });
  await cursor.getByRole('button', { name: 'Disconnect Cursor' }).click();
  await expect(cursor.getByRole('group', { name: 'Disconnect Cursor: the change' })).toContainText('-    "skilltray": {');
  await section.screenshot({ path: join(SCREENSHOTS, 'assistants-360.png') });
  const width = await section.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(width.scroll).toBeLessThanOrEqual(width.client);
  await cursor.getByRole('group', { name: 'Disconnect Cursor: the change' }).getByRole('button', { name: 'Disconnect Cursor' }).click();
  await expect(cursor).toContainText('not connected');
  expect(readFileSync(cursorFile, 'utf8')).toBe(CURSOR_CONFIG);
  // The same operations over the API answer the same way the pane showed.
  const again = await app.api<AssistantChange>('disconnectAssistant', { client: 'cursor', dry_run: true });
  expect(again.body).toMatchObject({ ok: true, value: { changed: false } });
});

test('Settings › Assistants says when a client holds your own token, and connecting again takes it away', async ({ page, app }) => {
  // Codex's entry as `connect --transport http` wrote it before assistants had tokens of their own.
  mkdirSync(join(app.user, '.codex'), { recursive: true });
  const codexFile = join(app.user, '.codex', 'config.toml');
  writeFileSync(codexFile, `[mcp_servers.skilltray]\nurl = "${app.url}/mcp"\nhttp_headers = { Authorization = "Bearer ${app.token}" }\n`);
  await app.open(page, '#/settings');
  const codex = page.getByRole('region', { name: 'Assistants' }).getByRole('listitem', { name: 'Codex' });
  await expect(codex.locator('.badge').first()).toHaveText('outdated');
  await expect(codex).toContainText('Its entry holds your own token, so Codex can act as you');
  await codex.screenshot({ path: join(SCREENSHOTS, 'assistants-person-token-1280.png') });

  await codex.getByRole('button', { name: 'Connect Codex', exact: true }).click();
  await codex.getByRole('group', { name: 'Connect Codex: the change' }).getByRole('button', { name: 'Connect Codex', exact: true }).click();
  await expect(codex.locator('.badge').first()).toHaveText('connected');
  await expect(codex).not.toContainText('holds your own token');
  expect(readFileSync(codexFile, 'utf8')).not.toContain(app.token);
});

test('an assistant asks with a token of its own: the approval names it, and its token answers nothing of the person’s', async ({ page, app }) => {
  mkdirSync(join(app.user, '.claude'), { recursive: true });
  const connected = await app.api('connectAssistant', { client: 'claude-code', transport: 'http' });
  expect(connected.body).toMatchObject({ ok: true, value: { works: true } });
  const written = readFileSync(join(app.user, '.claude.json'), 'utf8');
  expect(written).not.toContain(app.token);
  const token = (/Bearer (sta_[\w-]+)/.exec(written) as RegExpExecArray)[1] as string;
  const asAssistant = (operation: string, input: unknown) =>
    fetch(`${app.url}/api/${operation}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(input),
    });

  const pending = asAssistant('run', { skill: 'assistant-echo', tool: 'echo', args: { message: 'from claude code' } });
  await app.open(page, '#/approvals');
  const card = page.getByRole('article', { name: /assistant-echo/ });
  await expect(card.getByRole('heading').first()).toContainText('An HTTP client (claude-code) asks to run');
  await expect(card).toContainText('HTTP API (http, assistant claude-code)');
  await card.screenshot({ path: join(SCREENSHOTS, 'approval-assistant-1280.png') });
  const queue = (await app.api<{ id: string; args: { message: string } }[]>('approvals')).body;
  const id = queue.ok ? (queue.value.find((p) => p.args.message === 'from claude code')?.id as string) : '';
  const selfApproved = await asAssistant('answerApproval', { id, verdict: 'once' });
  expect(selfApproved.status).toBe(403);
  await expect(card).toBeVisible();

  await card.getByRole('button', { name: /Deny/ }).click();
  expect((await pending).status).toBe(409);
  const run = await app.api<{ assistant: string | null; decidedBy: string }>('getRun', { id });
  expect(run.body).toMatchObject({ ok: true, value: { assistant: 'claude-code', decidedBy: 'user' } });
  await app.api('disconnectAssistant', { client: 'claude-code' });
});
