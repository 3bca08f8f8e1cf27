/** Which file of the built UI an `app://skilltray/…` URL names: pure, so it is tested without Electron. */
import { resolveStaticFile } from '../server/static-files.js';

/** The origin the UI is served from (the app:// scheme, host `skilltray`): the only page IPC answers. */
export const APP_ORIGIN = 'app://skilltray';

/** True for a URL of the app's own UI (`app://skilltray/…`): the only pages windows may show. */
export function isAppUrl(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`);
}

/** The file an app:// URL names inside `webDir` (the same rules as the HTTP server's), or null when it is another origin, malformed, or not there. */
export function appFile(webDir: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  // URL.origin is 'null' for a scheme WHATWG does not know, so compare scheme and host.
  if (`${parsed.protocol}//${parsed.host}` !== APP_ORIGIN) return null;
  return resolveStaticFile(webDir, parsed.pathname);
}
