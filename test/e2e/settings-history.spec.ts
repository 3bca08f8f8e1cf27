import { join } from 'node:path';
import Database from 'better-sqlite3';
import { stateNotices } from '../../src-main/shared/error-messages/state.js';
import type { Notice, Settings } from '../../src-main/shared/runs.js';
import { expect, screenshot, test } from './fixtures.js';

test('Settings shows history retention and what history holds; a change is saved to the owner', async ({ page, app }) => {
  await app.open(page, '#/settings');
  const section = page.getByRole('region', { name: 'History' });
  await expect(section.getByLabel('Keep output for (days)')).toHaveValue('30');
  await expect(section.getByLabel('Keep at most (MiB of output)')).toHaveValue('100');
  await expect(section).toContainText(/History holds \d+ runs?, /);
  await section.getByLabel('Keep output for (days)').fill('14');
  await section.getByLabel('Keep at most (MiB of output)').fill('250');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await app.api<Settings>('settings')).body).toMatchObject({ value: { retention: { outputDays: 14, outputMaxMb: 250 } } });
  await section.getByRole('button', { name: 'Apply now' }).click();
  await expect(section).toContainText('Last checked');
  await screenshot(page, 'settings-history');
  await app.api('setRetention', { output_days: 30, output_max_mb: 100 });
  await expect(section.getByLabel('Keep output for (days)')).toHaveValue('30');
});

test('a recovered state.db is told on every screen until dismissed', async ({ page, app }) => {
  // What a recovery leaves behind, written as another process would (WAL lets it beside the running owner).
  const db = new Database(join(app.home, 'state.db'));
  db.prepare('INSERT INTO notices (code, message, details, created_at) VALUES (?, ?, NULL, ?)').run(
    'E901',
    'state.db was damaged (database disk image is malformed) and was moved to state.db.corrupt-2026-01-01T09-00-00-000Z; a new one holds what could still be read: 2 rules, 1 remembered approval, your settings, 812 runs of history (some could not be read).',
    Date.now(),
  );
  db.close();
  await app.open(page, '#/history');
  const banner = page.getByRole('status').filter({ hasText: 'state.db was damaged' });
  await expect(banner).toContainText('E901');
  await screenshot(page, 'notice-recovered');
  await banner.getByRole('button', { name: 'Dismiss notice E901' }).click();
  await expect(banner).toHaveCount(0);
  expect((await app.api<Notice[]>('notices')).body).toEqual({ ok: true, value: [] });
});

test('a recovery that failed part way is said as an alert, not a status, until dismissed', async ({ page, app }) => {
  // The notice a failed recovery writes (stateNotices.recoveryFailed), put in as another process would.
  const notice = stateNotices.recoveryFailed('database disk image is malformed', 'state.db.corrupt-2026-01-01T09-00-00-000Z', 'disk I/O error');
  const db = new Database(join(app.home, 'state.db'));
  db.prepare('INSERT INTO notices (code, message, details, created_at) VALUES (?, ?, ?, ?)').run(
    notice.code,
    notice.message,
    JSON.stringify(notice.details),
    Date.now(),
  );
  db.close();
  await app.open(page, '#/skills');
  const banner = page.getByRole('alert').filter({ hasText: 'recovering what it held failed' });
  await expect(banner).toContainText('E906');
  await expect(banner).toContainText('may all be lost');
  await screenshot(page, 'notice-recovery-failed');
  await banner.getByRole('button', { name: 'Dismiss notice E906' }).click();
  await expect(banner).toHaveCount(0);
  expect((await app.api<Notice[]>('notices')).body).toEqual({ ok: true, value: [] });
});
