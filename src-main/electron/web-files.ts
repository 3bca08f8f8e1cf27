/** Which file of the built UI an `app://skilltray/…` URL names: pure, so it is tested without Electron. */
import { extname, join, normalize, sep } from 'node:path';

/** The origin the UI is served from (the app:// scheme, host `skilltray`): the only page IPC answers. */
export const APP_ORIGIN = 'app://skilltray';

/** The page's Content-Security-Policy, sent with every document. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** The content type of a UI file. */
export function contentType(file: string): string {
  return TYPES[extname(file)] ?? 'application/octet-stream';
}

/** The file a request asks for inside `webDir`, or null when it is another host, malformed, or would leave it. */
export function fileFor(webDir: string, url: string, host = 'skilltray'): string | null {
  let parsed: URL;
  let path: string;
  try {
    parsed = new URL(url);
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (parsed.host !== host || path.includes('\0')) return null;
  const relative = normalize(path === '/' ? '/index.html' : path).replace(/^[/\\]+/, '');
  const file = join(webDir, relative);
  const root = webDir.endsWith(sep) ? webDir : webDir + sep;
  return file.startsWith(root) ? file : null;
}
