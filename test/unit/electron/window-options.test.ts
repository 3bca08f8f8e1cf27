import { describe, expect, it } from 'vitest';
import { windowOptions, windowUrl } from '../../../src-main/electron/window-options.js';
import { WINDOW_ROUTES } from '../../../src-main/shared/contract.js';

const settings = { preload: '/app/dist/preload/preload.cjs', icon: {} as never, devTools: false };

describe('window options', () => {
  it.each(WINDOW_ROUTES)('%s: sandboxed, isolated, no Node, web security on, the preload, hidden until ready', (route) => {
    const options = windowOptions(route, settings);
    expect(options.webPreferences).toEqual({
      preload: settings.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: false,
    });
    expect(options.show).toBe(false);
    expect(windowUrl(route)).toBe(`app://skilltray/index.html#/${route}`);
  });

  it('makes the tray popup a frameless fixed panel outside the taskbar, and every other window a normal one', () => {
    expect(windowOptions('tray', settings)).toMatchObject({ frame: false, resizable: false, skipTaskbar: true, width: 360, height: 560 });
    expect(windowOptions('approvals', settings)).toMatchObject({ frame: true, resizable: true, skipTaskbar: false, title: 'Skilltray — Approvals' });
    expect(windowOptions('skills', { ...settings, devTools: true }).webPreferences?.devTools).toBe(true);
  });
});
