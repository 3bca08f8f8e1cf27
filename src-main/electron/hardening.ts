/**
 * What no Skilltray page may ever do, enforced by main for every web contents the app creates: ask
 * for a permission, navigate or redirect away from the app's own pages (in any frame), attach a
 * <webview>, or open a window. Links to the web open in the person's browser instead. Electron's
 * objects are passed in, so a test drives this with stand-ins.
 */
import type { App, HandlerDetails, Session, WebContents } from 'electron';
import { isAppUrl } from './web-files.js';

/** The part of a WebContents the hardening hooks into. */
export interface HardenedContents {
  on(event: 'will-frame-navigate', listener: (details: { url: string; preventDefault(): void }) => void): unknown;
  on(event: 'will-redirect', listener: (details: { url: string; preventDefault(): void }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: Pick<HandlerDetails, 'url'>) => { action: 'deny' }): void;
}

export interface HardeningDeps {
  app: Pick<App, 'on'>;
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;
  /** `shell.openExternal`. */
  openExternal(url: string): Promise<void>;
  log(line: string): void;
}

/** Hooks one web contents. */
export function hardenContents(contents: HardenedContents, deps: Pick<HardeningDeps, 'openExternal' | 'log'>): void {
  const stayInApp = (details: { url: string; preventDefault(): void }): void => {
    if (isAppUrl(details.url)) return;
    details.preventDefault();
    deps.log(`refused to leave the app for ${details.url}`);
  };
  contents.on('will-frame-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) deps.openExternal(url).catch((error: unknown) => deps.log(`could not open ${url}: ${String(error)}`));
    return { action: 'deny' };
  });
}

/** Denies every permission in the session and hardens every web contents created from now on. */
export function setupHardening(deps: HardeningDeps): void {
  deps.session.setPermissionRequestHandler((_contents, permission, callback) => {
    deps.log(`refused the permission '${permission}'`);
    callback(false);
  });
  deps.session.setPermissionCheckHandler(() => false);
  deps.app.on('web-contents-created', (_event, contents: WebContents) => hardenContents(contents, deps));
}
