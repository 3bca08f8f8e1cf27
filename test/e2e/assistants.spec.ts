import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AssistantChange } from '../../src-main/shared/connect.js';
import { SCREENSHOTS, expect, test } from './fixtures.js';
import { argvSkill } from './skills.js';

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

test('Settings › Assistants shows what each client sees, kept current as it runs and as skills are turned off', async ({ page, app }) => {
  mkdirSync(join(app.user, '.claude'), { recursive: true });
  mkdirSync(join(app.user, '.cursor'), { recursive: true });
  writeFileSync(join(app.user, '.cursor', 'mcp.json'), '{}\n');
  expect((await app.api('connectAssistant', { client: 'claude-code', transport: 'http' })).body).toMatchObject({ ok: true });
  expect((await app.api('connectAssistant', { client: 'cursor' })).body).toMatchObject({ ok: true });
  const token = (/Bearer (sta_[\w-]+)/.exec(readFileSync(join(app.user, '.claude.json'), 'utf8')) as RegExpExecArray)[1] as string;
  const asClaude = async <T>(operation: string, input: unknown): Promise<T> => {
    const response = await fetch(`${app.url}/api/${operation}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { ok: boolean; value: T };
    expect(body.ok, JSON.stringify(body)).toBe(true);
    return body.value;
  };
  app.writeSkill('live-echo', argvSkill('live-echo'));
  await expect.poll(async () => (await app.api('describe', { skill: 'live-echo' })).status).toBe(200);
  const rule = await app.api<{ id: number }>('addRule', { pattern: 'skill:live-echo', effect: 'allow' });

  await page.setViewportSize({ width: 390, height: 844 });
  await app.open(page, '#/settings');
  const section = page.getByRole('region', { name: 'Assistants' });
  const claude = section.getByRole('listitem', { name: 'Claude Code' });
  await claude.getByRole('button', { name: 'What Claude Code sees' }).click();
  const sees = claude.getByRole('definition');
  // Its entry, with the handshake the listing does, and the tools it lists.
  await expect(sees.nth(0)).toContainText('Claude Code calls Skilltray’s /mcp URL');
  await expect(sees.nth(0).getByText('works', { exact: true })).toBeVisible();
  await expect(sees.nth(0)).toContainText(/MCP tools: .*\brun\b/);
  await expect(sees.nth(1)).toContainText('Its own assistant token, issued to claude-code');
  // Offered: the very skills its own list answers when it asks what is offered.
  const offered = claude.getByRole('list', { name: 'Skills offered to Claude Code' });
  const listed = await asClaude<{ skills: { name: string }[] }>('listBrief', { offered_only: true });
  await expect(offered.getByRole('link')).toHaveText(listed.skills.map((s) => s.name));
  // Its runs: those asked as claude-code (an earlier scenario's, if any), none of the person's.
  const runs = claude.getByRole('list', { name: 'Runs of Claude Code' });
  const own = await asClaude<{ id: string }[]>('history', {});
  if (own.length === 0) await expect(sees.nth(3)).toContainText('No runs asked as claude-code yet.');
  else await expect(runs.getByRole('listitem')).toHaveCount(Math.min(own.length, 10));

  // It runs: the run shows up without a reload.
  await asClaude('run', { skill: 'live-echo', tool: 'echo', args: { message: 'from claude code' }, cwd: app.work });
  await expect(runs.getByRole('listitem')).toHaveCount(Math.min(own.length + 1, 10));
  await expect(runs.getByRole('listitem').first()).toContainText('live-echo / echo');
  await expect(runs.getByRole('listitem').first()).toContainText('succeeded');
  // The person turns the skill off: it is offered no more, at once; and back on.
  await app.api('setSkillEnabled', { skill: 'live-echo', enabled: false });
  await expect(offered.getByRole('link', { name: 'live-echo', exact: true })).toHaveCount(0);
  await app.api('setSkillEnabled', { skill: 'live-echo', enabled: true });
  await expect(offered.getByRole('link', { name: 'live-echo', exact: true })).toBeVisible();
  await claude.scrollIntoViewIfNeeded();
  await claude.screenshot({ path: join(SCREENSHOTS, 'assistants-sees-390.png') });
  const width = await section.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(width.scroll).toBeLessThanOrEqual(width.client);

  // Cursor over stdio: no token of its own, the bridge's shared name.
  const cursor = section.getByRole('listitem', { name: 'Cursor' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await cursor.getByRole('button', { name: 'What Cursor sees' }).click();
  await expect(cursor.getByRole('definition').nth(0).getByText('works', { exact: true })).toBeVisible();
  await expect(cursor.getByRole('definition').nth(1)).toContainText('No token of its own: it starts the stdio bridge (skilltray mcp)');
  await expect(cursor.getByRole('definition').nth(3)).toContainText(/No runs asked as mcp yet|The latest asked as mcp/);
  await section.screenshot({ path: join(SCREENSHOTS, 'assistants-sees-1280.png') });

  if (rule.body.ok) await app.api('removeRule', { id: rule.body.value.id });
  await app.api('disconnectAssistant', { client: 'claude-code' });
  await app.api('disconnectAssistant', { client: 'cursor' });
});
