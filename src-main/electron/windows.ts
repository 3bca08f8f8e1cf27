/**
 * The open windows, one per UI route: shown on demand (created once, then brought forward), sent the
 * core's events, and the approval queue brought forward when a run waits for a person. Closing a
 * window keeps the app running in the tray. BrowserWindow is passed in, so a test drives this with a
 * stand-in.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import type { SkilltrayCore } from '../core/api.js';
import { IPC_EVENT_CHANNEL, type WindowRoute } from '../shared/contract.js';
import { windowOptions, windowUrl, type WindowSettings } from './window-options.js';

/** The part of a BrowserWindow the window manager uses. */
export interface AppWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  hide(): void;
  focus(): void;
  on(event: 'closed', listener: () => void): unknown;
  on(event: 'blur', listener: () => void): unknown;
  once(event: 'ready-to-show', listener: () => void): unknown;
  once(event: 'focus', listener: () => void): unknown;
  listenerCount(event: 'focus'): number;
  loadURL(url: string): Promise<void>;
  setAlwaysOnTop(flag: boolean, level?: 'floating'): void;
  flashFrame(flag: boolean): void;
  webContents: { send(channel: string, ...args: unknown[]): void };
}

export interface WindowsDeps {
  /** `new BrowserWindow(options)`. */
  create(options: BrowserWindowConstructorOptions): AppWindow;
  settings: WindowSettings;
  log(line: string): void;
}

export class Windows {
  private readonly open = new Map<WindowRoute, AppWindow>();

  constructor(private readonly deps: WindowsDeps) {}

  /** Shows the window of a route (creating it once) and brings it forward. */
  show(route: WindowRoute): AppWindow {
    const existing = this.open.get(route);
    if (existing && !existing.isDestroyed()) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      return existing;
    }
    const window = this.deps.create(windowOptions(route, this.deps.settings));
    this.open.set(route, window);
    window.on('closed', () => this.open.delete(route));
    if (route === 'tray') window.on('blur', () => window.hide());
    window.once('ready-to-show', () => {
      window.show();
      window.focus();
    });
    window.loadURL(windowUrl(route)).catch((error: unknown) => this.deps.log(`could not load the ${route} window: ${String(error)}`));
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

/** Keeps the windows in step with the core: every event reaches every page, and the approval queue floats while a run waits. */
export function followCore(core: Pick<SkilltrayCore, 'on' | 'broker'>, windows: Windows): void {
  core.on('event', (event) => {
    windows.broadcast(IPC_EVENT_CHANNEL, event);
    if (event.type === 'approval.added') windows.surfaceApprovals();
    if (event.type === 'approval.resolved' && core.broker.list().length === 0) windows.releaseApprovals();
  });
}
