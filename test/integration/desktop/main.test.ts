/**
 * The tray app's main process as it starts, over a stand-in `electron` module (Electron cannot run
 * here): main.ts runs for real against a real core and HTTP API, and the test plays Electron —
 * creating web contents, sending IPC from a given frame, asking for permissions, quitting.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findOwner, ownerClient } from '../../../src-main/server/app-link.js';
import { CONTENT_SECURITY_POLICY } from '../../../src-main/server/static-files.js';
import { DESKTOP_OPERATIONS, IPC_EVENT_CHANNEL, IPC_READY_CHANNEL, OPERATIONS, ipcChannel } from '../../../src-main/shared/contract.js';
import type { PendingEntry, RunReport } from '../../../src-main/shared/runs.js';
import * as electron from '../../support/electron-stand-in.js';
import { PROCESS_FIXTURES, testHome, writeSkill, skillMd, type TestHome } from '../../support/temp.js';

vi.mock('electron', () => import('../../support/electron-stand-in.js'));

const WEB_FIXTURE = fileURLToPath(new URL('../../fixtures/web', import.meta.url));
const PRINT_ARGV = join(PROCESS_FIXTURES, 'print-argv.mjs');
const APP_FRAME = { url: 'app://skilltray/index.html#/approvals', parent: null };
const TOOL = `\n### go\n\nPrints its argument.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| a | string | yes | what |\n\n#### Command\n\n\`\`\`\n${process.execPath} ${PRINT_ARGV} <<a>>\n\`\`\`\n`;

let base: string;
let t: TestHome;
let appPath: string;
const warnings: string[] = [];

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'skilltray-main-'));
  t = testHome({ base });
  writeSkill(t.skills, 'asks', skillMd({ name: 'asks', description: 'Asks first. Use when testing.', version: '1.0.0', reads: [PROCESS_FIXTURES] }, TOOL));
  appPath = join(base, 'app');
  mkdirSync(join(appPath, 'skills'), { recursive: true });
  cpSync(WEB_FIXTURE, join(appPath, 'dist', 'web'), { recursive: true });
  for (const [key, value] of Object.entries(t.env)) vi.stubEnv(key, value);
  vi.stubEnv('SKILLTRAY_NATIVE_BINDING', '');
  vi.spyOn(console, 'warn').mockImplementation((line: string) => void warnings.push(line));
  electron.app.appPath = appPath;
  await import('../../../src-main/electron/main.js');
  // The skills page loads and listens, as its preload says on its first subscription.
  electron.ipcMain.send(IPC_READY_CHANNEL, (await electron.windowTitled('Skilltray — Skills')).webContents);
});

afterAll(async () => {
  if (electron.app.exitCode === null) electron.app.emit('before-quit', { preventDefault: () => undefined });
  await electron.app.exited();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  rmSync(base, { recursive: true, force: true });
});

describe('the main process, started over a stand-in Electron', () => {
  it('registers the app:// scheme before the app is ready, and serves the built UI over it with the CSP', async () => {
    expect(electron.calls.indexOf('registerSchemesAsPrivileged')).toBeLessThan(electron.calls.indexOf('whenReady'));
    expect(electron.protocol.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
    const serve = electron.protocol.handlers.get('app');
    const page = await serve!({ url: 'app://skilltray/index.html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await serve!({ url: 'app://skilltray/../../etc/passwd' })).status).toBe(404);
    expect(electron.dialog.errors).toEqual([]);
  });

  it('opens the skills window locked down: sandbox, context isolation, no Node, the preload, the app page', async () => {
    const window = await electron.windowTitled('Skilltray — Skills');
    expect(window.options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      preload: join(appPath, 'dist', 'preload', 'preload.cjs'),
      devTools: true,
    });
    expect(window.loaded).toEqual(['app://skilltray/index.html#/skills']);
  });

  it('denies every permission, and keeps every web contents it creates on the app’s own pages', async () => {
    const granted: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      electron.session.defaultSession.permissionRequest?.({}, permission, (answer) => granted.push(answer));
    }
    expect(granted).toEqual([false, false, false, false]);
    expect(electron.session.defaultSession.permissionCheck?.({}, 'media')).toBe(false);

    const { webContents } = await electron.windowTitled('Skilltray — Skills');
    const navigate = (event: string, url: string): boolean => {
      let prevented = false;
      webContents.emit(event, { url, preventDefault: () => void (prevented = true) });
      return prevented;
    };
    expect(navigate('will-frame-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate('will-frame-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate('will-redirect', 'app://skilltray.evil/index.html')).toBe(true);
    expect(navigate('will-frame-navigate', 'app://skilltray/index.html#/history')).toBe(false);
    expect(warnings).toContain('skilltray: refused to leave the app for https://evil.example/');
    expect(navigate('will-attach-webview', 'app://skilltray/index.html')).toBe(true);

    expect(webContents.windowOpenHandler?.({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' });
    expect(webContents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(webContents.windowOpenHandler?.({ url: 'app://skilltray/index.html' })).toEqual({ action: 'deny' });
    expect(electron.shell.openedExternal).toEqual(['https://example.com/docs']);
  });

  it('answers IPC on one channel per operation, for the frame that really sent it, and logs a refused sender', async () => {
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual([...OPERATIONS, ...DESKTOP_OPERATIONS].map((op) => ipcChannel(op)).sort());
    expect(await electron.ipcMain.invoke(ipcChannel('settings'), APP_FRAME, {})).toMatchObject({ ok: true, value: { mode: 'Global' } });
    for (const frame of [{ url: 'https://evil.example/', parent: null }, { url: 'app://skilltray/index.html', parent: {} }, null]) {
      expect(await electron.ipcMain.invoke(ipcChannel('run'), frame, { skill: 'asks', tool: 'go', args: { a: 'x' } })).toMatchObject({
        ok: false,
        error: { code: 'E803' },
      });
    }
    expect(warnings).toEqual(
      expect.arrayContaining([
        "skilltray: refused IPC 'skilltray:run' from https://evil.example/: only the app's own top-level page is answered",
        "skilltray: refused IPC 'skilltray:run' from app://skilltray/index.html (a subframe): only the app's own top-level page is answered",
        "skilltray: refused IPC 'skilltray:run' from a frame that is gone: only the app's own top-level page is answered",
      ]),
    );
  });

  it('brings the approval queue forward for an assistant’s run, rebuilds the tray menu, and takes the answer over IPC as the tray’s', async () => {
    const tray = electron.Tray.all[0]!;
    expect(tray.firstLabel).toBe('No pending approvals');
    const link = await findOwner(t.home);
    expect(link).toMatchObject({ owner: 'app' });
    const client = ownerClient(link!, 'cli');
    const running = client.run({ skill: 'asks', tool: 'go', args: { a: 'from an assistant' } }) as Promise<RunReport>;

    const approvals = await electron.windowTitled('Skilltray — Approvals');
    await tray.menuStartingWith('Pending approvals (1)…');
    expect(approvals).toMatchObject({ visible: true, alwaysOnTop: true });
    const skills = await electron.windowTitled('Skilltray — Skills');
    const isEvent = (type: string) => (m: { channel: string; payload: unknown }) =>
      m.channel === IPC_EVENT_CHANNEL && (m.payload as { type: string }).type === type;
    const added = skills.webContents.sent.find(isEvent('approval.added'));
    const pending = (added?.payload as { entry: PendingEntry }).entry;
    expect(pending).toMatchObject({ skill: 'asks', tool: 'go' });

    expect(await electron.ipcMain.invoke(ipcChannel('answerApproval'), APP_FRAME, { id: pending.id, verdict: 'once' })).toEqual({
      ok: true,
      value: { ok: true },
    });
    const report = await running;
    expect(JSON.parse(report.result.stdout)).toEqual(['from an assistant']);
    expect(report.decision).toMatchObject({ actor: 'tray' });
    expect(tray.firstLabel).toBe('No pending approvals');
    expect(approvals.alwaysOnTop).toBe(false);
    // The queue's page, still loading, is held the answer's event until it listens; then it comes first.
    const resolved = skills.webContents.sent.find(isEvent('approval.resolved'));
    expect(resolved).toBeDefined();
    expect(approvals.webContents.sent.some(isEvent('approval.resolved'))).toBe(false);
    electron.ipcMain.send(IPC_READY_CHANNEL, approvals.webContents);
    expect(approvals.webContents.sent.find(isEvent('approval.resolved'))).toEqual(resolved);
  });

  it('carries the skills-folder command to the file manager, the tray’s click to the tray window, and the global shortcut to the palette', async () => {
    expect(await electron.ipcMain.invoke(ipcChannel('openSkillsFolder'), APP_FRAME, {})).toEqual({ ok: true, value: { ok: true } });
    expect(electron.shell.openedPaths).toEqual([join(t.home, 'skills')]);
    electron.Tray.all[0]!.emit('click');
    expect((await electron.windowTitled('Skilltray')).options).toMatchObject({ frame: false, skipTaskbar: true });
    const [shortcut, press] = [...electron.globalShortcut.held][0]!;
    expect(shortcut).toBe('CommandOrControl+Shift+Space');
    press();
    expect((await electron.windowTitled('Skilltray — Command palette')).loaded).toEqual(['app://skilltray/index.html#/palette']);
  });

  it('stays running with every window closed, and on quit closes the API and the core before exiting 0', async () => {
    for (const window of electron.BrowserWindow.all) window.close();
    expect(electron.app.listenerCount('window-all-closed')).toBe(1);
    electron.app.emit('window-all-closed');
    expect(electron.app.exitCode).toBeNull();

    let prevented = false;
    electron.app.emit('before-quit', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(true);
    expect(await electron.app.exited()).toBe(0);
    expect(existsSync(join(t.home, 'server.json'))).toBe(false);
    expect(electron.calls.filter((c) => c.startsWith('exit'))).toEqual(['exit 0']);
  });
});
