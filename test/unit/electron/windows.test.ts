import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { followCore, HELD_MESSAGES, Windows } from '../../../src-main/electron/windows.js';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import { BrowserWindow } from '../../support/electron-stand-in.js';

function windows(prepare: (window: BrowserWindow) => void = () => undefined) {
  const created: BrowserWindow[] = [];
  const log: string[] = [];
  const manager = new Windows({
    create: (options) => {
      const window = new BrowserWindow(options as never);
      prepare(window);
      created.push(window);
      return window;
    },
    settings: { preload: '/p.cjs', icon: {} as never, devTools: false },
    log: (line) => void log.push(line),
  });
  return { manager, created, log };
}

/** Lets the stand-in's ready-to-show (queued on load) fire. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the window manager', () => {
  it('creates a route’s window once, shows it when ready, and brings it back (restored) instead of opening another', async () => {
    const { manager, created } = windows();
    const first = manager.show('history') as BrowserWindow;
    expect(first.visible).toBe(false);
    await settle();
    expect(first.visible).toBe(true);
    first.minimized = true;
    first.hide();
    expect(manager.show('history')).toBe(first);
    expect(first).toMatchObject({ minimized: false, visible: true });
    first.close();
    expect(manager.show('history')).not.toBe(first);
    expect(created).toHaveLength(2);
  });

  it('hides the tray popup when it loses focus', async () => {
    const { manager } = windows();
    const tray = manager.show('tray') as BrowserWindow;
    await settle();
    tray.emit('blur');
    expect(tray.visible).toBe(false);
  });

  it('logs a window that could not load', async () => {
    const { manager, log } = windows((window) => {
      window.loadURL = () => Promise.reject(new Error('ERR_FAILED'));
    });
    manager.show('settings');
    await settle();
    expect(log).toEqual(['could not load the settings window: Error: ERR_FAILED']);
  });

  it('floats and flashes the approval queue while a run waits, stops flashing on focus, and re-arms for the next one', async () => {
    const { manager } = windows();
    manager.surfaceApprovals();
    const queue = manager.show('approvals') as BrowserWindow;
    await settle();
    queue.emit('blur');
    manager.surfaceApprovals();
    manager.surfaceApprovals();
    expect(queue).toMatchObject({ alwaysOnTop: true, flashing: true });
    expect(queue.listenerCount('focus')).toBe(1);
    queue.emit('focus');
    expect(queue.flashing).toBe(false);
    expect(queue.listenerCount('focus')).toBe(0);
    manager.releaseApprovals();
    expect(queue.alwaysOnTop).toBe(false);
  });

  it('follows the core: every event to every open page, the queue forward on approval.added, released once none waits', async () => {
    const { manager, created } = windows();
    const core = Object.assign(new EventEmitter(), { waiting: 1, broker: { list: () => Array(core.waiting) } });
    followCore(core as never, manager);
    const skills = manager.show('skills') as BrowserWindow;
    manager.pageReady(skills.webContents);
    const settingsEvent: ServerEvent = {
      type: 'settings',
      settings: {
        mode: 'Dev',
        paused: false,
        paletteShortcut: '',
        retention: { outputDays: 30, outputMaxMb: 100 },
        limitCeiling: { processes: 1024, memoryMiB: 8192, fileSizeMiB: 16384, cpuSeconds: 600 },
      },
    };
    core.emit('event', settingsEvent);
    expect(skills.webContents.sent).toEqual([{ channel: 'skilltray:event', payload: settingsEvent }]);

    core.emit('event', { type: 'approval.added', entry: {} });
    const queue = created.find((w) => w.options.title === 'Skilltray — Approvals');
    expect(queue?.alwaysOnTop).toBe(true);
    core.emit('event', { type: 'approval.resolved', id: 'a' });
    expect(queue?.alwaysOnTop).toBe(true);
    core.waiting = 0;
    core.emit('event', { type: 'approval.resolved', id: 'b' });
    expect(queue?.alwaysOnTop).toBe(false);
    expect(skills.webContents.sent).toHaveLength(4);
    skills.close();
    core.emit('event', settingsEvent);
    expect(skills.webContents.sent).toHaveLength(4);
  });

  it('holds a page’s events until it says it listens, then sends them first and in order; a reload holds them again', () => {
    const { manager } = windows();
    const page = manager.show('history') as BrowserWindow;
    const other = manager.show('settings') as BrowserWindow;
    manager.broadcast('skilltray:event', 1);
    manager.broadcast('skilltray:event', 2);
    expect(page.webContents.sent).toEqual([]);
    manager.pageReady(other.webContents);
    expect(page.webContents.sent).toEqual([]);
    expect(other.webContents.sent.map((m) => m.payload)).toEqual([1, 2]);
    manager.pageReady(page.webContents);
    manager.broadcast('skilltray:event', 3);
    expect(page.webContents.sent).toEqual([1, 2, 3].map((payload) => ({ channel: 'skilltray:event', payload })));
    page.webContents.emit('did-start-loading');
    manager.broadcast('skilltray:event', 4);
    expect(page.webContents.sent).toHaveLength(3);
    manager.pageReady(page.webContents);
    expect(page.webContents.sent.map((m) => m.payload)).toEqual([1, 2, 3, 4]);
  });

  it('holds at most HELD_MESSAGES for a page that never says it listens, the newest, and forgets a closed window’s', () => {
    const { manager } = windows();
    const page = manager.show('history') as BrowserWindow;
    for (let i = 0; i < HELD_MESSAGES + 5; i++) manager.broadcast('skilltray:event', i);
    manager.pageReady(page.webContents);
    expect(page.webContents.sent).toHaveLength(HELD_MESSAGES);
    expect(page.webContents.sent[0]?.payload).toBe(5);
    page.close();
    manager.pageReady(page.webContents);
    expect(page.webContents.sent).toHaveLength(HELD_MESSAGES);
  });
});
