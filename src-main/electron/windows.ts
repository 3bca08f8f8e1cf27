/**
 * Windows, one per UI route, locked down: context isolation, sandbox, no Node in the page, a CSP,
 * no navigation away from the app, no new windows, no permissions. Closing a window keeps the app
 * running in the tray.
 */
import { BrowserWindow, app, session, shell, type NativeImage } from 'electron';
import type { WindowRoute } from '../shared/contract.js';
import { APP_ORIGIN } from './web-files.js';

const SIZES: Record<WindowRoute, { width: number; height: number; title: string }> = {
  skills: { width: 1180, height: 780, title: 'Skilltray — Skills' },
  approvals: { width: 620, height: 720, title: 'Skilltray — Approvals' },
  history: { width: 1000, height: 720, title: 'Skilltray — History' },
  settings: { width: 900, height: 720, title: 'Skilltray — Settings' },
  tray: { width: 360, height: 460, title: 'Skilltray' },
  palette: { width: 720, height: 540, title: 'Skilltray — Command palette' },
};

/** Denies what no Skilltray page should ever do, for every web contents the app creates. */
export function hardenWebContents(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      // Links to the web open in the person's browser; nothing opens inside the app.
      if (/^https?:\/\//.test(url)) shell.openExternal(url).catch((error: unknown) => console.error(`could not open ${url}:`, error));
      return { action: 'deny' };
    });
  });
}

export class Windows {
  private readonly open = new Map<WindowRoute, BrowserWindow>();

  constructor(private readonly deps: { preload: string; icon: NativeImage; devTools: boolean }) {}

  /** Shows the window of a route (creating it once) and brings it forward. */
  show(route: WindowRoute): BrowserWindow {
    const existing = this.open.get(route);
    if (existing && !existing.isDestroyed()) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      return existing;
    }
    const size = SIZES[route];
    const window = new BrowserWindow({
      ...size,
      show: false,
      icon: this.deps.icon,
      autoHideMenuBar: true,
      frame: route !== 'tray',
      resizable: route !== 'tray',
      skipTaskbar: route === 'tray',
      backgroundColor: '#00000000',
      webPreferences: {
        preload: this.deps.preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
        devTools: this.deps.devTools,
      },
    });
    this.open.set(route, window);
    window.on('closed', () => this.open.delete(route));
    if (route === 'tray') window.on('blur', () => window.hide());
    window.once('ready-to-show', () => {
      window.show();
      window.focus();
    });
    window.loadURL(`${APP_ORIGIN}/index.html#/${route}`).catch((error: unknown) => console.error(`could not load the ${route} window:`, error));
    return window;
  }

  /** Brings the approval queue forward when a run needs a person, without waiting for a click. */
  surfaceApprovals(): void {
    const window = this.show('approvals');
    window.setAlwaysOnTop(true, 'floating');
    window.flashFrame(true);
    // One listener however many approvals arrive before the person looks.
    if (window.listenerCount('focus') === 0) window.once('focus', () => window.flashFrame(false));
  }

  /** Once no approval waits, the queue stops floating above other windows. */
  releaseApprovals(): void {
    const window = this.open.get('approvals');
    if (window && !window.isDestroyed()) window.setAlwaysOnTop(false);
  }

  /** Sends a message to every open window. */
  broadcast(channel: string, payload: unknown): void {
    for (const window of this.open.values()) {
      if (!window.isDestroyed()) window.webContents.send(channel, payload);
    }
  }
}
