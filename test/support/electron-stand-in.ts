/**
 * A stand-in for the `electron` module's main-process API (Electron cannot run here), for
 * `vi.mock('electron', …)`: the objects main.ts uses, each recording what it was asked and
 * behaving as far as a test needs (a BrowserWindow's web contents reach app 'web-contents-created',
 * loadURL leads to 'ready-to-show', ipcMain routes an invoke to its handler with a given event).
 */
import { EventEmitter } from 'node:events';

/** Every call in order, for tests that care which came first. */
export const calls: string[] = [];

type Listener = (...args: never[]) => unknown;

export class StandInWebContents extends EventEmitter {
  readonly sent: { channel: string; payload: unknown }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;

  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
}

export class BrowserWindow extends EventEmitter {
  static readonly all: BrowserWindow[] = [];
  readonly webContents = new StandInWebContents();
  readonly loaded: string[] = [];
  destroyed = false;
  minimized = false;
  visible = false;
  alwaysOnTop = false;
  flashing = false;

  constructor(readonly options: { title?: string; webPreferences?: Record<string, unknown> } & Record<string, unknown>) {
    super();
    calls.push(`new BrowserWindow ${options.title ?? ''}`);
    BrowserWindow.all.push(this);
    app.emit('web-contents-created', {}, this.webContents);
    windowWaiters.splice(0).forEach((wake) => wake());
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {
    this.emit('focus');
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    queueMicrotask(() => this.emit('ready-to-show'));
  }
  setAlwaysOnTop(flag: boolean): void {
    this.alwaysOnTop = flag;
  }
  flashFrame(flag: boolean): void {
    this.flashing = flag;
  }
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}

const windowWaiters: (() => void)[] = [];

/** The first window titled `title`, once main has created it. */
export async function windowTitled(title: string): Promise<BrowserWindow> {
  for (;;) {
    const found = BrowserWindow.all.find((w) => w.options.title === title);
    if (found) return found;
    await new Promise<void>((resolve) => windowWaiters.push(resolve));
  }
}

class StandInApp extends EventEmitter {
  appPath = '';
  isPackaged = false;
  exitCode: number | null = null;
  private exitWaiters: ((code: number) => void)[] = [];

  getAppPath(): string {
    return this.appPath;
  }
  getVersion(): string {
    return '0.0.0-stand-in';
  }
  requestSingleInstanceLock(): boolean {
    calls.push('requestSingleInstanceLock');
    return true;
  }
  async whenReady(): Promise<void> {
    calls.push('whenReady');
  }
  quit(): void {
    calls.push('quit');
  }
  exit(code: number): void {
    calls.push(`exit ${code}`);
    this.exitCode = code;
    this.exitWaiters.splice(0).forEach((wake) => wake(code));
  }
  /** The code main exits with, once it does. */
  exited(): Promise<number> {
    return this.exitCode === null ? new Promise((resolve) => this.exitWaiters.push(resolve)) : Promise.resolve(this.exitCode);
  }
}

export const app = new StandInApp();

export const protocol = {
  privileged: [] as unknown[],
  handlers: new Map<string, (request: { url: string }) => Promise<Response>>(),
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    calls.push('registerSchemesAsPrivileged');
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: { url: string }) => Promise<Response>): void {
    this.handlers.set(scheme, handler);
  },
};

export const session = {
  defaultSession: {
    permissionRequest: null as ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null,
    permissionCheck: null as ((...args: unknown[]) => boolean) | null,
    setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void {
      this.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void {
      this.permissionCheck = handler;
    },
  },
};

export const shell = {
  openedExternal: [] as string[],
  openedPaths: [] as string[],
  async openExternal(url: string): Promise<void> {
    this.openedExternal.push(url);
  },
  async openPath(path: string): Promise<string> {
    this.openedPaths.push(path);
    return '';
  },
};

export const ipcMain = {
  handlers: new Map<string, Listener>(),
  listeners: new Map<string, Listener[]>(),
  handle(channel: string, handler: Listener): void {
    this.handlers.set(channel, handler);
  },
  on(channel: string, listener: Listener): void {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener]);
  },
  /** What the page's `ipcRenderer.send(channel)` does, sent by `sender` (a window's web contents). */
  send(channel: string, sender: unknown): void {
    for (const listener of this.listeners.get(channel) ?? []) (listener as (event: unknown) => void)({ sender });
  },
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  },
  /** What the page's `ipcRenderer.invoke(channel, input)` would get, sent from `senderFrame`. */
  async invoke(channel: string, senderFrame: { url: string; parent: unknown } | null, input: unknown): Promise<unknown> {
    const handler = this.handlers.get(channel) as ((event: unknown, input: unknown) => unknown) | undefined;
    if (!handler) throw new Error(`no handler on ${channel}`);
    return handler({ senderFrame, sender: { id: 1 } }, input);
  },
};

export const Menu = {
  buildFromTemplate(template: unknown[]): { template: unknown[] } {
    return { template };
  },
};

export class Tray extends EventEmitter {
  static readonly all: Tray[] = [];
  readonly menus: { template: { label?: string }[] }[] = [];
  tooltip = '';

  constructor(readonly icon: unknown) {
    super();
    Tray.all.push(this);
  }
  private menuWaiters: (() => void)[] = [];

  setContextMenu(menu: { template: { label?: string }[] }): void {
    this.menus.push(menu);
    this.menuWaiters.splice(0).forEach((wake) => wake());
  }
  /** Resolves once the menu set last begins with `label`. */
  async menuStartingWith(label: string): Promise<void> {
    while (this.firstLabel !== label) await new Promise<void>((resolve) => this.menuWaiters.push(resolve));
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  /** The first label of the menu set last (the pending-approvals line). */
  get firstLabel(): string | undefined {
    return this.menus.at(-1)?.template[0]?.label;
  }
}

export const globalShortcut = {
  held: new Map<string, () => void>(),
  register(accelerator: string, callback: () => void): boolean {
    this.held.set(accelerator, callback);
    return true;
  },
  unregister(accelerator: string): void {
    this.held.delete(accelerator);
  },
};

export const nativeImage = {
  createFromPath(path: string): { path: string } {
    return { path };
  },
};

export const dialog = {
  errors: [] as { title: string; content: string }[],
  showErrorBox(title: string, content: string): void {
    this.errors.push({ title, content });
  },
};

/** Notifications the app showed (a hotkey's answer), by body. */
export class Notification {
  static shown: string[] = [];
  static isSupported(): boolean {
    return true;
  }
  constructor(private readonly options: { title: string; body: string }) {}
  show(): void {
    Notification.shown.push(this.options.body);
  }
}
