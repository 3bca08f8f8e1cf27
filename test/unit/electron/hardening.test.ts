import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { hardenContents, setupHardening } from '../../../src-main/electron/hardening.js';

class Contents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Emits a navigation event; true when main prevented it. */
  attempt(event: string, url: string): boolean {
    let prevented = false;
    this.emit(event, { url, preventDefault: () => void (prevented = true) });
    return prevented;
  }
}

function hardened() {
  const contents = new Contents();
  const opened: string[] = [];
  const log: string[] = [];
  hardenContents(contents, { openExternal: async (url) => void opened.push(url), log: (line) => void log.push(line) });
  return { contents, opened, log };
}

describe('web contents hardening', () => {
  it.each(['will-frame-navigate', 'will-redirect'])('%s: stays on app://skilltray/ pages, refuses and logs anything else', (event) => {
    const { contents, log } = hardened();
    expect(contents.attempt(event, 'app://skilltray/index.html#/settings')).toBe(false);
    for (const url of [
      'https://example.com/',
      'http://127.0.0.1:4000/',
      'file:///etc/passwd',
      'app://skilltray.evil/',
      'app://other/index.html',
      'javascript:alert(1)',
      'about:blank',
    ]) {
      expect(contents.attempt(event, url), url).toBe(true);
    }
    expect(log).toContain('refused to leave the app for https://example.com/');
  });

  it('refuses every <webview>', () => {
    expect(hardened().contents.attempt('will-attach-webview', 'app://skilltray/index.html')).toBe(true);
  });

  it('opens no window: web links go to the browser, everything else nowhere', async () => {
    const { contents, opened } = hardened();
    for (const url of [
      'https://example.com/a',
      'HTTP://example.com/b',
      'file:///etc/passwd',
      'app://skilltray/index.html',
      'javascript:alert(1)',
      'mailto:a@b.c',
    ]) {
      expect(contents.openHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(opened).toEqual(['https://example.com/a', 'HTTP://example.com/b']);
  });

  it('logs a link the browser could not open', async () => {
    const contents = new Contents();
    const log: string[] = [];
    let failed!: () => void;
    const logged = new Promise<void>((resolve) => (failed = resolve));
    hardenContents(contents, { openExternal: () => Promise.reject(new Error('no browser')), log: (line) => (log.push(line), failed()) });
    contents.openHandler?.({ url: 'https://example.com/' });
    await logged;
    expect(log).toEqual(['could not open https://example.com/: Error: no browser']);
  });

  it('denies every permission request and check in the session, and hardens each new web contents', () => {
    const app = new EventEmitter();
    let request: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    const log: string[] = [];
    setupHardening({
      app: app as never,
      session: {
        setPermissionRequestHandler: (handler: never) => void (request = handler),
        setPermissionCheckHandler: (handler: never) => void (check = handler),
      } as never,
      openExternal: async () => undefined,
      log: (line) => void log.push(line),
    });
    const answers: boolean[] = [];
    request?.({}, 'media', (granted) => answers.push(granted));
    request?.({}, 'openExternal', (granted) => answers.push(granted));
    expect(answers).toEqual([false, false]);
    expect(check?.()).toBe(false);
    expect(log).toEqual(["refused the permission 'media'", "refused the permission 'openExternal'"]);

    const contents = new Contents();
    app.emit('web-contents-created', {}, contents);
    expect(contents.attempt('will-frame-navigate', 'https://example.com/')).toBe(true);
    expect(contents.openHandler).not.toBeNull();
  });
});
