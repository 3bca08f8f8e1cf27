/**
 * Voice in the browser UI, with Chromium's fake microphone playing espeak-ng saying "deny": the card
 * shows the request's code; with voice turned on in Settings, the approvals screen says the request
 * and listens (a visible "listening" state, Esc stops it and keeps nothing), and what the microphone
 * heard goes to answerApprovalByVoice: "deny" denies the run. Screenshots at 1280 and 390 px.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumExecutable } from '../../scripts/system-deps.js';
import { argvSkill } from './skills.js';
import { SCREENSHOTS, expect, go, test, type ApiAnswer, type RunningApp } from './fixtures.js';

// The microphone's sound, made before the browser starts: "deny" once, then silence.
const microphone = join(mkdtempSync(join(tmpdir(), 'skilltray-voice-')), 'deny.wav');
execFileSync('espeak-ng', ['-v', 'en-us', '-w', microphone, 'deny']);

test.use({
  launchOptions: {
    executablePath: (await chromiumExecutable()) ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${microphone}%noloop`,
    ],
  },
  permissions: ['microphone'],
});

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Asks for the writing tool as an assistant would; resolves when the person answers. */
function ask(app: RunningApp): Promise<ApiAnswer> {
  return app.api('run', { skill: 'voice-echo', tool: 'echo', args: { message: 'said aloud' }, cwd: app.work });
}

test('the card shows its code; with voice on it listens, Esc stops it, and a spoken "deny" denies', async ({ app, page }) => {
  test.setTimeout(120_000);
  app.writeSkill('voice-echo', argvSkill('voice-echo'));
  await expect.poll(async () => (await app.api('describe', { skill: 'voice-echo' })).status).toBe(200);
  const first = ask(app);
  await app.open(page, '#/approvals');
  const card = page.locator('article.approval').first();
  await expect(card.locator('.approval-code')).toHaveText(/^Code \d \d \d$/);
  // Voice is off: nothing listens, and nothing offers to.
  await expect(card.locator('.voice-line')).toHaveCount(0);
  await shot(page, 'voice-code-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'voice-code-390');
  await page.setViewportSize({ width: 1280, height: 860 });

  await go(page, '#/settings');
  const toggle = page.getByRole('switch', { name: 'Speak approvals and hear answers' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('heading', { name: 'Voice' }).scrollIntoViewIfNeeded();
  await shot(page, 'voice-settings-1280');

  // The approvals screen says the request and listens: Esc stops it, and the request still waits.
  await go(page, '#/approvals');
  const listening = card.locator('.voice-listening');
  await expect(listening).toBeVisible({ timeout: 20_000 });
  await expect(listening).toContainText(/Listening… say “run \w+ \w+ \w+” or “deny”/);
  await shot(page, 'voice-listening-1280');
  await page.keyboard.press('Escape');
  await expect(card.locator('.voice-line')).toContainText('Answer aloud: say');
  await expect(card.getByRole('button', { name: 'Answer by voice' })).toBeVisible();

  // Answer by voice: the microphone says "deny", and the run is denied.
  await page.setViewportSize({ width: 390, height: 844 });
  await card.getByRole('button', { name: 'Answer by voice' }).click();
  await expect(listening).toBeVisible();
  await shot(page, 'voice-listening-390');
  const answered = await first;
  expect(answered.status).toBe(409);
  expect(answered.body).toMatchObject({ ok: false, error: { code: 'E603' } });
  const [run] = ((await app.api('history', { skill: 'voice-echo' })).body as { ok: true; value: { actor: string; channel: string }[] }).value;
  expect(run).toMatchObject({ actor: 'browser (voice)', channel: 'assistant' });
});
