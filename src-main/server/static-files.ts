/**
 * The built UI served from one directory: `/` is index.html, every other path names a file inside
 * it. Paths are decoded and canonicalised (symlinks resolved) and must stay inside the directory;
 * dot segments, dotfiles, directories and anything outside are simply not found.
 */
import { realpathSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isInside } from '../core/skills/files.js';

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
