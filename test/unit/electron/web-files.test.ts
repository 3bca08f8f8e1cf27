import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appFile } from '../../../src-main/electron/web-files.js';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, contentTypeOf } from '../../../src-main/server/static-files.js';
import { tempDir } from '../../support/temp.js';

/** A built UI with a dotfile, a directory, and symlinks to a secret outside it. */
function webDir(): { web: string; secret: string } {
  const root = realpathSync(tempDir());
  const web = join(root, 'web');
  const secret = join(root, 'secret');
  mkdirSync(join(web, 'assets'), { recursive: true });
  mkdirSync(secret);
  writeFileSync(join(web, 'index.html'), '<!doctype html>');
  writeFileSync(join(web, 'assets', 'main-1a2b.js'), '');
  writeFileSync(join(web, 'assets', 'a b.css'), '');
  writeFileSync(join(web, '.env'), 'TOP-SECRET');
  writeFileSync(join(secret, 'passwd'), 'TOP-SECRET');
  symlinkSync(join(secret, 'passwd'), join(web, 'leak.txt'));
  symlinkSync(secret, join(web, 'outside'));
  return { web, secret };
}

describe('app://skilltray/ serves only the built UI, by the same rules as the HTTP server', () => {
  it.each([
    ['app://skilltray/', 'index.html'],
    ['app://skilltray/index.html#/approvals', 'index.html'],
    ['app://skilltray/index.html?x=1', 'index.html'],
    ['app://skilltray/assets/main-1a2b.js', join('assets', 'main-1a2b.js')],
    ['app://skilltray/assets/a%20b.css', join('assets', 'a b.css')],
  ])('%s → %s', (url, file) => {
    const { web } = webDir();
    expect(appFile(web, url)).toBe(join(web, file));
  });

  it.each([
    'app://other/index.html',
    'http://skilltray/index.html',
    'app://skilltray:8080/index.html',
    'app://skilltray/%E0%A4%A',
    'app://skilltray/a%00b',
    'app://skilltray/.env',
    'app://skilltray/assets/%2e%2e/.env',
    'app://skilltray/%2e%2e/secret/passwd',
    'app://skilltray/assets/..%2f..%2fsecret%2fpasswd',
    'app://skilltray/assets/..%5c..%5csecret%5cpasswd',
    'app://skilltray/../../secret/passwd',
    'app://skilltray/leak.txt',
    'app://skilltray/outside/passwd',
    'app://skilltray/assets',
    'app://skilltray/assets/',
    'app://skilltray/missing.js',
    'not a url',
  ])('refuses %s', (url) => {
    const { web } = webDir();
    expect(appFile(web, url)).toBeNull();
  });

  it('never resolves outside the web dir, or to a dotfile, whatever the path', () => {
    const { web } = webDir();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc
            .array(fc.constantFrom('..', '%2e%2e', '.', 'assets', 'outside', 'leak.txt', '.env', 'passwd', '%2f', '%5c', '/'), { maxLength: 8 })
            .map((parts) => parts.join('/')),
        ),
        (path) => {
          const file = appFile(web, `app://skilltray/${path}`);
          if (file !== null) expect([join(web, 'index.html'), join(web, 'assets', 'main-1a2b.js'), join(web, 'assets', 'a b.css')]).toContain(file);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('labels what it serves, and sends one CSP', () => {
    expect(contentTypeOf('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('x.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('x.woff2')).toBe('font/woff2');
    expect(contentTypeOf('x.bin')).toBe('application/octet-stream');
    expect(SECURITY_HEADERS).toEqual({
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });
});
