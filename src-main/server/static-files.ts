/**
 * The built UI served from one directory, by the loopback HTTP server and by the app's `app://`
 * protocol alike (Electron-free, so both use it): `/` is index.html, every other path names a file
 * inside it. Paths are decoded and canonicalised (symlinks resolved) and must stay inside the
 * directory; dot segments, dotfiles, directories and anything outside are simply not found.
 */
import { realpathSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isInside } from '../core/api.js';

/** The page's Content-Security-Policy, wherever it is served from. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers sent with everything the UI is served with (and every HTTP answer). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** The Content-Type a file is served with (unknown kinds as bytes, which nosniff keeps inert). */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** The file a URL path names inside `webDir` (canonical), or null when there is none or it would leave webDir. */
export function resolveStaticFile(webDir: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0')) return null;
  const segments = decoded === '/' ? ['index.html'] : decoded.slice(1).split('/');
  if (segments.some((s) => s === '' || s.startsWith('.') || s.includes('\\') || s.includes(':'))) return null;
  try {
    const root = realpathSync(webDir);
    const file = realpathSync(join(root, ...segments));
    return file !== root && isInside(root, file) && statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}
