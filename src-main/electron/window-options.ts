/**
 * What each window is made of, as data: one window per UI route, every one locked down the same way
 * (context isolation, the renderer sandbox, no Node in the page, web security on). Pure, so a test
 * reads exactly the options main hands to BrowserWindow.
 */
import type { BrowserWindowConstructorOptions, NativeImage } from 'electron';
import type { WindowRoute } from '../shared/contract.js';
import { APP_ORIGIN } from './web-files.js';

const SIZES: Record<WindowRoute, { width: number; height: number; title: string }> = {
  skills: { width: 1180, height: 780, title: 'Skilltray — Skills' },
  approvals: { width: 620, height: 720, title: 'Skilltray — Approvals' },
  history: { width: 1000, height: 720, title: 'Skilltray — History' },
  settings: { width: 900, height: 720, title: 'Skilltray — Settings' },
  // Tall enough for a waiting approval with its answers, which the tray window shows first.
  tray: { width: 360, height: 560, title: 'Skilltray' },
  palette: { width: 720, height: 540, title: 'Skilltray — Command palette' },
};

/** What every window shares: the preload script, the app icon, and whether DevTools may open (never in a package). */
export interface WindowSettings {
  preload: string;
  icon: NativeImage;
  devTools: boolean;
}

/** The BrowserWindow options of a route's window. */
export function windowOptions(route: WindowRoute, settings: WindowSettings): BrowserWindowConstructorOptions {
  return {
    ...SIZES[route],
    show: false,
    icon: settings.icon,
    autoHideMenuBar: true,
    // The tray popup is a bare panel that stays out of the taskbar.
    frame: route !== 'tray',
    resizable: route !== 'tray',
    skipTaskbar: route === 'tray',
    backgroundColor: '#00000000',
    webPreferences: {
      preload: settings.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: settings.devTools,
    },
  };
}

/** The URL a route's window loads. */
export function windowUrl(route: WindowRoute): string {
  return `${APP_ORIGIN}/index.html#/${route}`;
}
