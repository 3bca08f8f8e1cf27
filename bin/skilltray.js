#!/usr/bin/env node
// The `skilltray` command: runs the bundled CLI (built by `npm install`'s prepare step or `npm run build`).
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  // Answered before the CLI loads at all: scripts ask this often and want it at once. A reader
  // that is already gone (`skilltray --version | true`) is not an error, as for every command.
  process.stdout.on('error', () => undefined);
  process.stdout.write(`skilltray ${version}\n`);
} else {
  const bundle = fileURLToPath(new URL('../dist/cli/', import.meta.url));
  if (!existsSync(join(bundle, 'main.cjs'))) {
    process.stderr.write("error[E999]: skilltray is not built yet; run 'npm run build:node' in the checkout\n");
    process.exit(1);
  }
  const require = module.createRequire(import.meta.url);
  // Compiled code kept between runs: Node's own cache from 22.1 (NODE_DISABLE_COMPILE_CACHE=1 turns
  // either off), the bundle's before (src-main/cli/code-cache.ts).
  if (module.enableCompileCache) module.enableCompileCache();
  else require(join(bundle, 'code-cache.cjs')).keepCompiledCode(bundle);
  const { runCli, processIo } = require(join(bundle, 'main.cjs'));
  // In the packaged app (this file inside app.asar, run by the app as Node) the packs ship beside app.asar, not in it,
  // and the manifest that makes them bundled inside it, where the app reads it too (paths.ts).
  const here = fileURLToPath(import.meta.url);
  const asar = here.lastIndexOf(`${sep}app.asar${sep}`);
  const bundledDir = asar === -1 ? fileURLToPath(new URL('../skills', import.meta.url)) : join(here.slice(0, asar), 'skills');
  const packaged = asar === -1 ? {} : { bundledManifest: fileURLToPath(new URL('../dist/bundled-manifest.json', import.meta.url)) };
  process.exitCode = await runCli(argv, { cwd: process.cwd(), env: process.env, io: processIo(), bundledDir, ...packaged, version });
}
