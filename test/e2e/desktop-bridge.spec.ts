/**
 * The desktop app's path, as far as it runs without an Electron binary: the built UI in Chromium
 * talking over its IPC transport (`window.skilltray`, as the preload exposes it) to main's real IPC
 * handlers over a real core. Only Electron's ipcRenderer/ipcMain pipe is replaced, by a Playwright
 * binding; the page is served over loopback HTTP only so it has an origin (it never calls /api).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { SkilltrayCore } from '../../src-main/core/api.js';
import { resolveConfig } from '../../src-main/core/config.js';
import { ipcHandlers } from '../../src-main/electron/ipc-handlers.js';
import { startHttpServer, type RunningServer } from '../../src-main/server/http.js';
import { ipcChannel, type OperationName, type ServerEvent, type WindowRoute } from '../../src-main/shared/contract.js';
import { argvSkill, PRINT_ARGV } from './skills.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The frame main sees for the app's own page (the sender check itself is tested in test/integration/desktop). */
const APP_FRAME = { url: 'app://skilltray/index.html', parent: null };

let base: string;
let core: SkilltrayCore;
let server: RunningServer;
const opened: WindowRoute[] = [];
let foldersOpened = 0;
let handlers: ReturnType<typeof ipcHandlers>;
let forward: ((event: ServerEvent) => void) | null = null;

test.beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'skilltray-desktop-'));
  const dirs = { home: join(base, 'home'), user: join(base, 'user'), skills: join(base, 'skills'), work: join(base, 'work') };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.skills, 'desk-echo'));
  writeFileSync(join(dirs.skills, 'desk-echo', 'SKILL.md'), argvSkill('desk-echo', 'Prints what desk-echo receives.'));
  const env = { PATH: process.env.PATH, HOME: dirs.user, SKILLTRAY_HOME: dirs.home, SKILLTRAY_SKILLS_PATH: dirs.skills };
  core = new SkilltrayCore(resolveConfig({ env, bundledDir: join(ROOT, 'skills') }), { autoBuild: true });
  server = await startHttpServer({ core, owner: 'app', version: '0.0.0-test', webDir: join(ROOT, 'dist', 'web') });
  handlers = ipcHandlers(
    core,
    { surface: 'ui', caller: { kind: 'person' }, cwd: dirs.user, approval: { kind: 'broker' }, owner: 'app', version: '0.0.0-test' },
    {
      openWindow: (route) => void opened.push(route),
      openSkillsFolder: async () => void foldersOpened++,
      quit: () => undefined,
    },
  );
  core.on('event', (event) => forward?.(event));
});

test.afterAll(async () => {
  await server.close();
  await core.close();
  rmSync(base, { recursive: true, force: true });
});

/** Opens the UI with the preload's API in place, wired to main's handlers and the core's events. */
async function openDesktop(page: Page, route: string): Promise<void> {
  await page.exposeBinding('__skilltrayInvoke', (_source, operation: OperationName, input: unknown) => {
    const handler = handlers.get(ipcChannel(operation));
    return handler ? handler(APP_FRAME, input) : { ok: false, error: { code: 'E806', kind: 'route_not_found', message: `no operation '${operation}'` } };
  });
  await page.addInitScript(() => {
    const listeners = new Set<(event: unknown) => void>();
    const bridge = globalThis as unknown as Record<string, unknown>;
    bridge.__skilltrayEmit = (event: unknown) => listeners.forEach((listener) => listener(event));
    bridge.skilltray = {
      invoke: (operation: string, input: unknown) => (bridge.__skilltrayInvoke as (o: string, i: unknown) => Promise<unknown>)(operation, input),
      onEvent: (listener: (event: unknown) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      platform: 'linux',
    };
  });
  forward = (event) =>
    void page.evaluate((e) => (globalThis as unknown as { __skilltrayEmit(e: unknown): void }).__skilltrayEmit(e), event).catch(() => undefined);
  await page.goto(`${server.url}/${route}`);
}

test('the desktop UI runs a tool over IPC: the approval arrives as an event, is answered over IPC, the output follows', async ({ page }) => {
  await openDesktop(page, '#/skills/desk-echo');
  const form = page.getByRole('form', { name: 'Run echo' });
  await form.getByLabel(/message/).fill('from the tray');
  // desk-echo never ran: the form asks where.
  await form.getByLabel(/Folder to run in/).fill(join(base, 'work'));
  await form.getByRole('button', { name: 'Run echo' }).click();

  const approval = page.getByRole('article', { name: /desk-echo/ });
  await expect(approval.locator('.argv .visible-text')).toHaveText([`"${PRINT_ARGV}"`, '"from the tray"', '"--count"', '"1"']);
  await approval.getByRole('button', { name: /Run once/ }).click();
  await expect(page.getByLabel('Standard output')).toHaveText('["from the tray","--count","1"]');

  const [run] = core.runs.history({ skill: 'desk-echo' });
  expect(run).toMatchObject({ surface: 'ui', outcome: 'approved', actor: 'tray', status: 'succeeded' });
});

test('the tray window opens the app’s windows and the skills folder through the desktop commands, not by navigating', async ({ page }) => {
  await openDesktop(page, '#/tray');
  await page.getByRole('link', { name: 'Open skill browser' }).click();
  await expect.poll(() => opened).toContain('skills');
  await expect(page).toHaveURL(/#\/tray$/);
  await page.getByRole('link', { name: /Search or run a tool/ }).click();
  await expect.poll(() => opened).toContain('palette');
  await expect(page).toHaveURL(/#\/tray$/);
  await page.getByRole('button', { name: 'Open skills folder' }).click();
  await expect.poll(() => foldersOpened).toBe(1);
  await expect(page.getByRole('button', { name: 'Quit' })).toBeVisible();
});

test('the palette shortcut is a desktop setting: recorded from a key press, kept by the app', async ({ page }) => {
  await openDesktop(page, '#/settings');
  const field = page.getByLabel('Global shortcut');
  await expect(field).toHaveValue('Ctrl+Shift+Space');
  await field.focus();
  await page.keyboard.press('Alt+Shift+KeyK');
  await expect(field).toHaveValue('Alt+Shift+K');
  // The Settings page has more than one form: these buttons are the palette section's.
  // The voice section's answer shortcuts have a Turn off and a Default of their own.
  const palette = page.getByRole('region', { name: 'Command palette' });
  await palette.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => core.preferences.settings().paletteShortcut).toBe('Alt+Shift+K');
  await palette.getByRole('button', { name: 'Turn off' }).click();
  await expect(field).toHaveValue('None');
  await palette.getByRole('button', { name: /Default/ }).click();
  await expect(field).toHaveValue('Ctrl+Shift+Space');
  expect(() => core.preferences.setPaletteShortcut('K')).toThrow(expect.objectContaining({ code: 'E617' }));
});
