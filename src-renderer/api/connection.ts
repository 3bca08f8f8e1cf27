/**
 * One client, two transports, chosen once at start: IPC through the preload when `window.skilltray`
 * exists (the desktop app), else HTTP with the bearer token (browser mode). Nothing above this
 * module knows which one it got, except for the few desktop-only window commands.
 */
import {
  createClient,
  SkilltrayClientError,
  type DesktopOperationName,
  type Envelope,
  type OperationName,
  type PreloadApi,
  type ServerEvent,
  type SkilltrayClient,
  type WindowRoute,
} from '../../src-main/shared/contract.js';
import { followEvents, httpTransport, type StreamState } from './http-transport.js';
import { readToken, TOKEN_KEY, type TokenStorage } from './token.js';

/** Window and app commands of the desktop app. */
export interface DesktopControls {
  /** Opens (or brings forward) the app's window for a route. */
  show(route: WindowRoute): Promise<void>;
  openSkillsFolder(): Promise<void>;
  quit(): Promise<void>;
}

export interface Connection {
  kind: 'desktop' | 'browser';
  /** The OS name (`darwin`, `linux`, `win32`, or the browser's guess). */
  platform: string;
  client: SkilltrayClient;
  /** Every ServerEvent, in arrival order. */
  subscribe(listener: (event: ServerEvent) => void): () => void;
  /** The event stream's state now. */
  state(): StreamState;
  watchState(listener: (state: StreamState) => void): () => void;
  /** Null in browser mode. */
  desktop: DesktopControls | null;
  /** Browser mode: whether a token is stored (without one every call is refused with E802). */
  hasToken(): boolean;
  /** Browser mode: stores a pasted token and reconnects the event stream. */
  useToken(token: string): void;
}

function hub<T>(): { emit: (value: T) => void; add: (listener: (value: T) => void) => () => void } {
  const listeners = new Set<(value: T) => void>();
  return {
    emit: (value) => {
      for (const listener of [...listeners]) listener(value);
    },
    add: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

function desktopControls(bridge: PreloadApi): DesktopControls {
  const send = async (operation: DesktopOperationName, input: unknown): Promise<void> => {
    const envelope = await bridge.invoke(operation, input);
    if (!envelope.ok) throw new SkilltrayClientError(envelope.error);
  };
  return {
    show: (route) => send('openWindow', { route }),
    openSkillsFolder: () => send('openSkillsFolder', {}),
    quit: () => send('quit', {}),
  };
}

function connectDesktop(bridge: PreloadApi): Connection {
  return {
    kind: 'desktop',
    platform: bridge.platform,
    client: createClient((operation: OperationName, input: unknown) => bridge.invoke(operation, input)),
    subscribe: (listener) => bridge.onEvent(listener),
    state: () => 'open',
    watchState: () => () => undefined,
    desktop: desktopControls(bridge),
    hasToken: () => true,
    useToken: () => undefined,
  };
}

function browserPlatform(): string {
  const platform = navigator.platform;
  if (/^Mac|iPhone|iPad/.test(platform)) return 'darwin';
  if (/^Win/.test(platform)) return 'win32';
  return 'linux';
}

function connectBrowser(origin: string, storage: TokenStorage): Connection {
  const events = hub<ServerEvent>();
  const states = hub<StreamState>();
  let current: StreamState = 'connecting';
  const token = (): string | null => readToken(storage);
  const call = httpTransport(origin, token);
  const stream = followEvents({
    origin,
    token,
    onEvent: events.emit,
    onState: (state) => {
      current = state;
      states.emit(state);
    },
  });
  return {
    kind: 'browser',
    platform: browserPlatform(),
    client: createClient((operation: OperationName, input: unknown): Promise<Envelope<unknown>> => call(operation, input)),
    subscribe: events.add,
    state: () => current,
    watchState: states.add,
    desktop: null,
    hasToken: () => token() !== null,
    useToken: (value) => {
      storage.setItem(TOKEN_KEY, value.trim());
      stream.restart();
    },
  };
}

/** The connection for this window: IPC when the preload is there, HTTP on this page's origin otherwise. */
export function connect(win: Window): Connection {
  return win.skilltray ? connectDesktop(win.skilltray) : connectBrowser(win.location.origin, win.sessionStorage);
}
