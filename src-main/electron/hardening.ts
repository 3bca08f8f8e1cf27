/**
 * What no Skilltray page may ever do, enforced by main for every web contents the app creates: ask
 * for a permission (but the microphone, for the app's own top-level page while voice is on),
 * navigate or redirect away from the app's own pages (in any frame), attach a
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
  /** Whether the person turned voice on: only then may the app's own page record from the microphone. */
  voiceOn?(): boolean;
}

/** What a permission request or check says of itself, as far as the microphone rule reads it. */
interface PermissionDetails {
  requestingUrl?: string;
  isMainFrame?: boolean;
  mediaTypes?: string[];
  mediaType?: string;
}

/** True for the microphone alone (no camera), asked by the app's own top-level page, while voice is on. */
export function microphoneAllowed(permission: string, details: PermissionDetails, voiceOn: boolean): boolean {
  if (!voiceOn || permission !== 'media' || details.isMainFrame === false || !isAppUrl(details.requestingUrl ?? '')) return false;
  const types = details.mediaTypes ?? (details.mediaType === undefined ? [] : [details.mediaType]);
  return types.length > 0 && types.every((type) => type === 'audio');
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

/** Denies every permission in the session (the microphone aside, see microphoneAllowed) and hardens every web contents created from now on. */
export function setupHardening(deps: HardeningDeps): void {
  const voiceOn = (): boolean => deps.voiceOn?.() ?? false;
  deps.session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    if (microphoneAllowed(permission, (details as PermissionDetails | undefined) ?? {}, voiceOn())) return callback(true);
    deps.log(`refused the permission '${permission}'`);
    callback(false);
  });
  deps.session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    const asked = (details as PermissionDetails | undefined) ?? {};
    return microphoneAllowed(permission, { ...asked, requestingUrl: asked.requestingUrl ?? `${requestingOrigin}/` }, voiceOn());
  });
  deps.app.on('web-contents-created', (_event, contents: WebContents) => hardenContents(contents, deps));
}
