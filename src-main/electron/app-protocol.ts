/**
 * The UI is served from `app://skilltray/…`, a privileged custom scheme, rather than file://, so the
 * page has a real origin for its CSP ('self') and can never read files outside the built UI. Which
 * file, with which type and headers, is decided exactly as the loopback HTTP server decides it.
 */
import { readFile } from 'node:fs/promises';
import type { Protocol } from 'electron';
import { SECURITY_HEADERS, contentTypeOf } from '../server/static-files.js';
import { appFile } from './web-files.js';

export const APP_SCHEME = 'app';

/** Must run before the app is ready. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** The answer to one app:// request: the file with its type and the security headers (CSP included), or 404. */
export async function appResponse(webDir: string, url: string): Promise<Response> {
  const file = appFile(webDir, url);
  if (file === null) return new Response('not found', { status: 404 });
  try {
    return new Response(await readFile(file), { headers: { ...SECURITY_HEADERS, 'Content-Type': contentTypeOf(file) } });
  } catch {
    return new Response('not found', { status: 404 });
  }
}

/** Serves the built UI from `webDir`. */
export function serveApp(protocol: Pick<Protocol, 'handle'>, webDir: string): void {
  protocol.handle(APP_SCHEME, (request) => appResponse(webDir, request.url));
}
