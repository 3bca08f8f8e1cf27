/**
 * Where a tool's network leads, as the person sees it: the approval names every host of its list
 * (badge and list), and once it ran, the run's page lists the connections its proxy refused.
 * The tool is curl, reaching one loopback listener it lists and one it does not, for real.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, go, screenshot, test } from './fixtures.js';

const servers: Server[] = [];
async function listener(): Promise<number> {
  const server = createServer((_req, res) => res.end('reached\n'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}
test.afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

const skill = (allowed: number, other: number): string => `---
name: status-check
description: Fetch two status pages. Use when checking a service.
version: 1.0.0
read_only: true
network: ["127.0.0.1:${allowed}", "*.example.org"]
---

### fetch

Fetches both pages.

#### Parameters

| Name | Type | Required | Description |
|---|---|---|---|
| path | string | yes | the page |

#### Command

\`\`\`
curl -sS http://127.0.0.1:${allowed}/<<path>> http://127.0.0.1:${other}/<<path>>
\`\`\`
`;

test('the approval lists the hosts a tool may reach, and its run lists what was refused', async ({ page, app }) => {
  const allowed = await listener();
  const other = await listener();
  app.writeSkill('status-check', skill(allowed, other));
  await expect.poll(async () => (await app.api('describe', { skill: 'status-check' })).status).toBe(200);
  // A project folder of its own: a run never works in a home folder or in Skilltray's.
  const work = join(app.user, 'status-work');
  mkdirSync(work, { recursive: true });
  const answered = app.api<{ id: string }>('run', { skill: 'status-check', tool: 'fetch', args: { path: 'health' }, cwd: work });

  await page.setViewportSize({ width: 400, height: 600 });
  await app.open(page, '#/approvals');
  const card = page.getByRole('article', { name: /curl/ }).first();
  await expect(card.getByRole('heading')).toHaveText(new RegExp(`— read-only, network to 127\\.0\\.0\\.1:${allowed}, \\*\\.example\\.org\\.$`));
  await expect(card.locator('.badge')).toHaveText(['user', 'read-only', `network: 127.0.0.1:${allowed}, *.example.org`]);
  await expect(card.locator('.network-reach')).toContainText('Can reach only');
  await expect(card.locator('.network-reach .chip')).toHaveText([`127.0.0.1:${allowed}`, '*.example.org']);
  await screenshot(page, 'approval-network-list-400x600', { fullPage: false });
  await card.getByRole('button', { name: /Run once/ }).click();

  const report = await answered;
  expect(report.body).toMatchObject({ ok: true, value: { networkDenied: [{ host: '127.0.0.1', port: other, count: 1 }] } });
  const id = report.body.ok ? report.body.value.id : '';
  await page.setViewportSize({ width: 1280, height: 800 });
  await go(page, `#/history/${id}`);
  const refused = page.locator('.refused-connections li');
  await expect(refused).toHaveText([`127.0.0.1:${other} — not in the skill's network list`]);
  await expect(page.locator('.run-details .network-reach .chip')).toHaveText([`127.0.0.1:${allowed}`, '*.example.org']);
  await screenshot(page, 'history-network-refused');
});
