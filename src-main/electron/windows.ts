/**
 * The open windows, one per UI route: shown on demand (created once, then brought forward), sent the
 * core's events, and the approval queue brought forward when a run waits for a person. A page that is
 * still loading cannot hear an event, so each window's events are held until its page says it listens
 * (IPC_READY_CHANNEL, sent by the preload), as electron/fiddle queues until its renderer is ready.
 * Closing a window keeps the app running in the tray. BrowserWindow is passed in, so a test drives
 * this with a stand-in.
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
  webContents: { send(channel: string, ...args: unknown[]): void; on(event: 'did-start-loading', listener: () => void): unknown };
}

/** Most messages held for one page that has not said it listens: a page that never loads must not hold a run's output forever. */
export const HELD_MESSAGES = 1000;

export interface WindowsDeps {
  /** `new BrowserWindow(options)`. */
  create(options: BrowserWindowConstructorOptions): AppWindow;
  settings: WindowSettings;
  log(line: string): void;
}

export class Windows {
  private readonly open = new Map<WindowRoute, AppWindow>();
  /** The messages of each window whose page has not said it listens yet, oldest first. */
  private readonly held = new Map<AppWindow, [channel: string, payload: unknown][]>();

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
    this.held.set(window, []);
    window.on('closed', () => {
      this.open.delete(route);
      this.held.delete(window);
    });
    // A reload starts a new page, which says again when it listens.
    window.webContents.on('did-start-loading', () => {
      if (!this.held.has(window)) this.held.set(window, []);
    });
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

  /** Sends a message to every open window, or holds it for a page that does not listen yet. */
  broadcast(channel: string, payload: unknown): void {
    for (const window of this.open.values()) {
      if (window.isDestroyed()) continue;
      const held = this.held.get(window);
      if (held === undefined) {
        window.webContents.send(channel, payload);
        continue;
      }
      held.push([channel, payload]);
      if (held.length > HELD_MESSAGES) held.shift();
    }
  }

  /** The page of `sender` (a window's web contents) listens now: what was held for it goes first, in order. */
  pageReady(sender: unknown): void {
    for (const window of this.open.values()) {
      if (window.webContents !== sender || window.isDestroyed()) continue;
      const held = this.held.get(window) ?? [];
      this.held.delete(window);
      for (const [channel, payload] of held) window.webContents.send(channel, payload);
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
