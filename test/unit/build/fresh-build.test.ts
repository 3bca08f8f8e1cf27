import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, ensureFreshBuild, staleness } from '../../support/fresh-build.js';
import { tempDir, writeFiles } from '../../support/temp.js';

/** Sets a file's mtime to `seconds` after the epoch, so order is decided without waiting. */
const at = (root: string, rel: string, seconds: number): void => utimesSync(join(root, rel), seconds, seconds);

/** A checkout with two node sources built at t=200, the shared contract and the web bundle. */
function checkout(): string {
  const root = tempDir();
  writeFiles(root, {
    'tsconfig.node.json': '{}',
    'tsconfig.base.json': '{}',
    'src-main/cli/main.ts': '',
    'src-main/shared/contract.ts': '',
    'src-main/electron/preload.ts': '',
    'bench/run.ts': '',
    'dist/node/src-main/cli/main.js': '',
    'dist/node/src-main/shared/contract.js': '',
    'dist/node/bench/run.js': '',
    'src-renderer/main.tsx': '',
    'src-renderer/index.html': '',
    'vite.config.ts': '',
    'dist/web/index.html': '',
  });
  for (const rel of [
    'tsconfig.node.json',
    'tsconfig.base.json',
    'src-main/cli/main.ts',
    'src-main/shared/contract.ts',
    'src-main/electron/preload.ts',
    'bench/run.ts',
    'src-renderer/main.tsx',
    'src-renderer/index.html',
    'vite.config.ts',
  ])
    at(root, rel, 100);
  for (const rel of ['dist/node/src-main/cli/main.js', 'dist/node/src-main/shared/contract.js', 'dist/node/bench/run.js', 'dist/web/index.html'])
    at(root, rel, 200);
  return root;
}

describe('a stale dist/ is found before tests run it', () => {
  it('is fresh when every output is newer than its sources and the build settings', () => {
    const root = checkout();
    expect(staleness('node', root)).toBeNull();
    expect(staleness('web', root)).toBeNull();
  });

  it('finds a source edited after the build, a source never built, and a changed build setting', () => {
    let root = checkout();
    at(root, 'src-main/cli/main.ts', 300);
    expect(staleness('node', root)).toBe(`${join('src-main', 'cli', 'main.ts')} is newer than ${join('dist', 'node', 'src-main', 'cli', 'main.js')}`);

    root = checkout();
    writeFiles(root, { 'src-main/cli/new-command.ts': '' });
    expect(staleness('node', root)).toBe(`${join('dist', 'node', 'src-main', 'cli', 'new-command.js')} is missing`);

    root = checkout();
    at(root, 'tsconfig.base.json', 300);
    expect(staleness('node', root)).toBe(`tsconfig.base.json is newer than ${join('dist', 'node', 'src-main', 'cli', 'main.js')}`);
  });

  it.runIf(process.platform === 'linux')('rebuilds the network relay (C) when its source changed or it was never built', () => {
    const root = checkout();
    writeFiles(root, { 'src-main/core/process/network/net-relay.c': '' });
    at(root, 'src-main/core/process/network/net-relay.c', 100);
    expect(staleness('node', root)).toBe(`${join('dist', 'native', 'net-relay')} is missing`);
    writeFiles(root, { 'dist/native/net-relay': '' });
    at(root, 'dist/native/net-relay', 200);
    expect(staleness('node', root)).toBeNull();
    at(root, 'src-main/core/process/network/net-relay.c', 300);
    expect(staleness('node', root)).toBe(
      `${join('src-main', 'core', 'process', 'network', 'net-relay.c')} is newer than ${join('dist', 'native', 'net-relay')}`,
    );
  });

  it('rebuilds the web bundle when the shared contract it bundles changed, and ignores the preload for node', () => {
    const root = checkout();
    at(root, 'src-main/electron/preload.ts', 300);
    expect(staleness('node', root)).toBeNull();
    at(root, 'src-main/shared/contract.ts', 300);
    expect(staleness('web', root)).toBe(`${join('src-main', 'shared', 'contract.ts')} is newer than ${join('dist', 'web', 'index.html')}`);
  });

  it('rebuilds the CLI bundle when tsc wrote a module after it, or its bundler changed', () => {
    const root = checkout();
    writeFiles(root, { 'dist/cli/main.cjs': '', 'scripts/bundle-cli.js': '', 'dist/node/src-main/electron/main.js': '' });
    at(root, 'scripts/bundle-cli.js', 100);
    at(root, 'dist/cli/main.cjs', 250);
    at(root, 'dist/node/src-main/electron/main.js', 300);
    expect(staleness('cli', root)).toBeNull();
    at(root, 'dist/node/src-main/shared/contract.js', 300);
    expect(staleness('cli', root)).toBe(`${join('dist', 'node', 'src-main', 'shared', 'contract.js')} is newer than ${join('dist', 'cli', 'main.cjs')}`);
    at(root, 'dist/node/src-main/shared/contract.js', 200);
    at(root, 'scripts/bundle-cli.js', 300);
    expect(staleness('cli', root)).toBe(`${join('scripts', 'bundle-cli.js')} is newer than ${join('dist', 'cli', 'main.cjs')}`);
  });

  it('builds a stale target with its npm script, and leaves a fresh one alone', () => {
    const root = checkout();
    at(root, 'src-main/cli/main.ts', 300);
    const built: string[] = [];
    const log: string[] = [];
    const build = (where: string, script: string): void => {
      built.push(script);
      for (const rel of ['dist/node/src-main/cli/main.js', 'dist/node/src-main/shared/contract.js', 'dist/node/bench/run.js']) at(where, rel, 400);
    };
    ensureFreshBuild(['node', 'web'], { root, log: (line) => log.push(line), build });
    expect(built).toEqual(['build:node']);
    expect(log).toEqual([
      `dist is stale (${join('src-main', 'cli', 'main.ts')} is newer than ${join('dist', 'node', 'src-main', 'cli', 'main.js')}): npm run build:node`,
    ]);
    ensureFreshBuild(['node', 'web'], { root, log: (line) => log.push(line), build });
    expect(built).toEqual(['build:node']);
  });

  it('refuses to go on when the build leaves dist stale, and says which source', () => {
    const root = checkout();
    at(root, 'src-main/cli/main.ts', 300);
    const log: string[] = [];
    const build = (): void => {
      throw new Error('Command failed: npm run build:node');
    };
    expect(() => ensureFreshBuild(['node'], { root, log: (line) => log.push(line), build })).toThrow(
      `the tests would run a stale build: ${join('src-main', 'cli', 'main.ts')} is newer than ${join('dist', 'node', 'src-main', 'cli', 'main.js')}, and npm run build:node did not fix it`,
    );
    expect(log[1]).toBe('npm run build:node failed (Command failed: npm run build:node); npm run typecheck says why');
  });

  it('finds this checkout’s dist/node and CLI bundle fresh once the global setup ran', () => {
    expect(staleness('node', ROOT)).toBeNull();
    expect(staleness('cli', ROOT)).toBeNull();
  });
});
