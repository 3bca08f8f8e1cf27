/**
 * The parse cache's stamp names its parsers by their package.json (parse-cache.ts), found as Node
 * finds the package: a version bump that leaves the entry file's size and mtime as they were (yaml's
 * entry only re-exports) still starts a fresh cache.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parserManifest } from '../../../src-main/core/skills/parse-cache.js';
import { tempDir } from '../../support/temp.js';

function manifest(dir: string, version: string): void {
  mkdirSync(join(dir, 'node_modules', 'yaml'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'yaml', 'package.json'), JSON.stringify({ name: 'yaml', version }));
}

describe("the parsers' package.json", () => {
  it('is the one Node would load the parser from: the nearest node_modules that holds the package', () => {
    const base = tempDir();
    const from = join(base, 'app', 'dist', 'cli', 'library.cjs');
    mkdirSync(join(base, 'app', 'dist', 'cli'), { recursive: true });
    manifest(base, '2.0.0');
    expect(JSON.parse(parserManifest('yaml', from) as string).version).toBe('2.0.0');
    manifest(join(base, 'app'), '2.0.1');
    expect(JSON.parse(parserManifest('yaml', from) as string).version).toBe('2.0.1');
    expect(parserManifest('no-such-parser-here', from)).toBeNull();
  });

  it("of this checkout's parsers, is the package require itself resolves", () => {
    const from = fileURLToPath(new URL('../../../src-main/core/skills/parse-cache.ts', import.meta.url));
    for (const name of ['yaml', 'marked']) {
      const resolved = createRequire(from)(`${name}/package.json`) as { version: string };
      expect(JSON.parse(parserManifest(name, from) as string).version).toBe(resolved.version);
    }
  });
});
