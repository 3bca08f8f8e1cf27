/**
 * Install papercuts (issue 39.10): `npm link` right after `npm install` builds nothing again (the
 * prepare script skips a dist/ newer than its sources), and the README names exactly the engine
 * warnings `npm install` prints on Node 20.
 */
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);

/** A checkout of the files prepare.js looks at, with a stand-in npm that records what it was asked to run. */
function checkout(): { root: string; npm: string; ran: string; touch: (file: string, secondsAgo: number) => void } {
  const root = tempDir();
  const touch = (file: string, secondsAgo: number): void => {
    const path = join(root, file);
    mkdirSync(dirname(path), { recursive: true });
    if (!existsSync(path)) writeFileSync(path, '');
    const when = Date.now() / 1000 - secondsAgo;
    utimesSync(path, when, when);
  };
  mkdirSync(join(root, 'scripts'));
  writeFileSync(join(root, 'scripts', 'prepare.js'), readFileSync(join(ROOT, 'scripts', 'prepare.js')));
  writeFileSync(join(root, 'package.json'), '{"type": "module"}\n');
  for (const file of ['src-main/core/a.ts', 'skills/x/SKILL.md', 'package.json', 'tsconfig.node.json']) touch(file, 600);
  for (const file of ['dist/bundled-manifest.json', 'dist/cli/chunks.json', 'dist/native/net-relay', 'dist/native/enter-cgroup']) touch(file, 60);
  const ran = join(root, 'npm-ran');
  const npm = join(root, 'fake-npm.cjs');
  writeFileSync(npm, `require('node:fs').writeFileSync(${JSON.stringify(ran)}, JSON.stringify(process.argv.slice(2)));\n`);
  return { root, npm, ran, touch };
}

const prepare = (root: string, npm: string) =>
  execa(process.execPath, [join(root, 'scripts', 'prepare.js')], { env: { npm_execpath: npm }, extendEnv: true, reject: false });

describe('npm prepare (npm install, npm link)', () => {
  it('builds nothing when dist/ is newer than every source, and builds when a source, a skill or the build settings changed, or an output is missing', async () => {
    const c = checkout();
    const fresh = await prepare(c.root, c.npm);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain('nothing to build');
    expect(existsSync(c.ran)).toBe(false);
    for (const changed of ['src-main/core/a.ts', 'skills/x/SKILL.md', 'tsconfig.node.json']) {
      const d = checkout();
      d.touch(changed, 0);
      expect((await prepare(d.root, d.npm)).exitCode).toBe(0);
      expect(JSON.parse(readFileSync(d.ran, 'utf8')), changed).toEqual(['run', 'build:node']);
    }
    const e = checkout();
    writeFileSync(join(e.root, 'dist', 'cli', 'chunks.json'), '');
    e.touch('dist/cli/chunks.json', 6000);
    await prepare(e.root, e.npm);
    expect(JSON.parse(readFileSync(e.ran, 'utf8'))).toEqual(['run', 'build:node']);
  });
});

describe("the README's engine warnings", () => {
  it('names exactly the installed packages whose engines leave out Node 20.19, and how many', () => {
    const semver = require('semver') as { satisfies(version: string, range: string): boolean };
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };
    const warned = Object.entries(lock.packages)
      .filter(([path, pkg]) => path !== '' && pkg.engines?.node !== undefined && existsSync(join(ROOT, path)) && !semver.satisfies('20.19.0', pkg.engines.node))
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
      .sort();
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const paragraph = /^On Node 20, `npm install` prints ([a-z]+) `npm warn EBADENGINE[^`]*` lines?, one for each of ([^.]*)\./m.exec(readme);
    expect(paragraph, 'the README paragraph on engine warnings').not.toBeNull();
    const [, count, list] = paragraph as RegExpExecArray;
    expect([...(list as string).matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort()).toEqual(warned);
    const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    expect(count).toBe(words[warned.length]);
  });
});
