/**
 * One `skilltray serve --web` per worker (a real process over a fresh temp SKILLTRAY_HOME, HOME and
 * SKILLTRAY_SKILLS_PATH holding the test skills), pages that forward their console to the test log,
 * and a screenshot of the page when a test fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import type { Envelope, OperationName } from '../../src-main/shared/contract.js';
import { SKILLS } from './skills.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the named screenshots of the scenarios go. */
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

export interface ApiAnswer<T = unknown> {
  status: number;
  body: Envelope<T>;
}

export interface RunningApp {
  /** `http://127.0.0.1:PORT` */
  url: string;
  token: string;
  home: string;
  skills: string;
  /** serve's HOME: where the assistants' config folders of a test go (never the person's own). */
  user: string;
  /** A project folder for runs to work in (the workspace guard refuses the home and skill roots). */
  work: string;
  /** The environment serve runs with: another `skilltray` process given it (an MCP bridge) finds serve as the owner. */
  env: NodeJS.ProcessEnv;
  /** Calls an operation over HTTP with the person's token (as curl with `<home>/token` would), JSON body. */
  api<T = unknown>(operation: OperationName, input?: unknown): Promise<ApiAnswer<T>>;
  /** Writes `<skills>/<name>/SKILL.md`. */
  writeSkill(name: string, text: string): void;
  /** Opens the UI at `route` with the token in the fragment, as `serve --web` prints it. */
  open(page: Page, route?: string): Promise<void>;
}

async function waitForLine(child: ChildProcess, pattern: RegExp, ms: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`serve did not print ${pattern} within ${ms} ms; it printed:\n${seen}`)), ms);
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve(match);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening; it printed:\n${seen}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export const test = base.extend<{ forwardConsole: void }, { app: RunningApp }>({
  app: [
    // Playwright reads a fixture's dependencies from this destructuring: a worker fixture with none needs `{}`.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const base = mkdtempSync(join(tmpdir(), 'skilltray-e2e-'));
      const dirs = { home: join(base, 'home'), user: join(base, 'user'), skills: join(base, 'skills'), work: join(base, 'work') };
      for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
      const writeSkill = (name: string, text: string): void => {
        mkdirSync(join(dirs.skills, name), { recursive: true });
        writeFileSync(join(dirs.skills, name, 'SKILL.md'), text);
      };
      for (const [name, text] of Object.entries(SKILLS)) writeSkill(name, text);

      const env = {
        PATH: process.env.PATH,
        HOME: dirs.user,
        SKILLTRAY_HOME: dirs.home,
        SKILLTRAY_SKILLS_PATH: dirs.skills,
        XDG_DATA_HOME: join(dirs.user, '.local', 'share'),
      };
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'skilltray.js'), 'serve', '--port', '0', '--web'], {
        cwd: base,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[serve] ${chunk.toString()}`));
      try {
        const [, url] = await waitForLine(child, /Skilltray API on (http:\/\/127\.0\.0\.1:\d+)/, 30_000);
        const token = readFileSync(join(dirs.home, 'token'), 'utf8').trim();
        const app: RunningApp = {
          url: url as string,
          token,
          home: dirs.home,
          skills: dirs.skills,
          user: dirs.user,
          work: dirs.work,
          env,
          writeSkill,
          api: async <T>(operation: OperationName, input: unknown = {}) => {
            const response = await fetch(`${url}/api/${operation}`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify(input),
            });
            return { status: response.status, body: (await response.json()) as Envelope<T> };
          },
          open: async (page, route = '#/') => {
            await page.goto(`${url}/#token=${encodeURIComponent(token)}`);
            await expect(page).not.toHaveURL(/token=/);
            if (route !== '#/') await go(page, route);
          },
        };
        await use(app);
      } finally {
        await stop(child);
        rmSync(base, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  forwardConsole: [
    async ({ page }, use, testInfo) => {
      page.on('console', (message) => console.log(`[page ${message.type()}] ${message.text()}`));
      page.on('pageerror', (error) => console.log(`[page error] ${error.stack ?? error.message}`));
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        const path = testInfo.outputPath('failure.png');
        await page.screenshot({ path, fullPage: true });
        await testInfo.attach('failure', { path, contentType: 'image/png' });
      }
    },
    { auto: true },
  ],
});

export { expect };

/** Moves the page to `hash` the way a link does: same document, no reload. */
export async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((target) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = target;
  }, hash);
}

/** Saves a named screenshot into test-results/screenshots/: the whole page, or what the window shows (`fullPage: false`, for dialogs). */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // From the top, so the sticky bar sits where a person sees it.
  if (fullPage) await page.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** Fills a tool form's folder, which it asks for when its skill never ran (later runs start from the last one). */
export async function chooseFolder(form: Locator, dir: string): Promise<void> {
  const field = form.getByLabel(/Folder to run in/);
  // The form opens the folder by itself once it knows the skill never ran: open it only if it stays shut.
  await expect(async () => {
    if (!(await field.isVisible())) await form.locator('summary', { hasText: /^Folder to run in/ }).click();
    await expect(field).toBeVisible({ timeout: 1000 });
  }).toPass();
  await field.fill(dir);
}
