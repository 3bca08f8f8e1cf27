// End-to-end tests of browser mode: Chromium against `skilltray serve --web` (dist/node and dist/web
// are rebuilt by the global setup when older than their sources). Playwright's own Chromium where it
// is installed, else Debian's; Playwright never downloads one here (npm test's preflight says what is missing).
import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './scripts/system-deps.js';

const executablePath = (await chromiumExecutable()) ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/global-setup.ts',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One server per worker; the scenarios share it, each with its own skills.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
    trace: 'off',
  },
});
