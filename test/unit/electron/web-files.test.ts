import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentType, fileFor } from '../../../src-main/electron/web-files.js';

const WEB = '/opt/skilltray/dist/web';

describe('app://skilltray/ serves only the built UI', () => {
  it.each([
    ['app://skilltray/', join(WEB, 'index.html')],
    ['app://skilltray/index.html#/approvals', join(WEB, 'index.html')],
    ['app://skilltray/assets/main-1a2b.js', join(WEB, 'assets', 'main-1a2b.js')],
    ['app://skilltray/assets/a%20b.css', join(WEB, 'assets', 'a b.css')],
  ])('%s → %s', (url, file) => {
    expect(fileFor(WEB, url)).toBe(file);
  });

  it.each([
    ['app://skilltray/../../etc/passwd', join(WEB, 'etc', 'passwd')],
    ['app://skilltray/%2e%2e/%2e%2e/etc/passwd', join(WEB, 'etc', 'passwd')],
    ['app://skilltray/assets/..%2f..%2f..%2fetc%2fpasswd', join(WEB, 'etc', 'passwd')],
  ])('resolves dot segments inside the UI folder, never above it: %s', (url, file) => {
    expect(fileFor(WEB, url)).toBe(file);
  });

  it.each([
    'app://other/index.html',
    'app://skilltray/%E0%A4%A',
    'app://skilltray/a%00b',
  ])('refuses %s', (url) => {
    expect(fileFor(WEB, url)).toBeNull();
  });

  it('never resolves outside the web dir, whatever the path', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (path) => {
        const file = fileFor(WEB, `app://skilltray/${path}`);
        if (file !== null) expect(file.startsWith(`${WEB}/`)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('labels what it serves', () => {
    expect(contentType('index.html')).toBe('text/html; charset=utf-8');
    expect(contentType('x.js')).toBe('text/javascript; charset=utf-8');
    expect(contentType('x.bin')).toBe('application/octet-stream');
  });
});
