/**
 * The UI is served from `app://skilltray/…`, a privileged custom scheme, rather than file://, so the
 * page has a real origin for its CSP ('self') and can never read files outside the built UI.
 */
import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import { CONTENT_SECURITY_POLICY, contentType, fileFor } from './web-files.js';

export const APP_SCHEME = 'app';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves the built UI from `webDir`. */
export function serveApp(webDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = fileFor(webDir, request.url);
    if (file === null) return new Response('not found', { status: 404 });
    try {
      return new Response(await readFile(file), {
        headers: { 'content-type': contentType(file), 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff' },
      });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });
}
