#!/usr/bin/env node
// The `skilltray` command: runs the bundled CLI (built by `npm install`'s prepare step or `npm run build`).
// CommonJS (bin/package.json), as the bundle's chunks are: a command never starts Node's ES module
// loader, which took 8–10 ms of every run.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const nodeModule = require('node:module');
const { join, sep } = require('node:path');

const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  // Answered before the CLI loads at all: scripts ask this often and want it at once. A reader
  // that is already gone (`skilltray --version | true`) is not an error, as for every command.
  process.stdout.on('error', () => undefined);
  process.stdout.write(`skilltray ${version}\n`);
} else {
  const bundle = join(__dirname, '..', 'dist', 'cli');
  if (!existsSync(join(bundle, 'main.cjs'))) {
    process.stderr.write("error[E999]: skilltray is not built yet; run 'npm run build:node' in the checkout\n");
    process.exit(1);
  }
  // Compiled code kept between runs: Node's own cache from 22.1 (NODE_DISABLE_COMPILE_CACHE=1 turns
  // either off), the bundle's before (src-main/cli/code-cache.ts).
  if (nodeModule.enableCompileCache) nodeModule.enableCompileCache();
  else require(join(bundle, 'code-cache.cjs')).keepCompiledCode(bundle);
  const { runCli, processIo } = require(join(bundle, 'main.cjs'));
  // In the packaged app (this file inside app.asar, run by the app as Node) the packs ship beside app.asar, not in it,
  // and the manifest that makes them bundled inside it, where the app reads it too (paths.ts).
  const asar = __filename.lastIndexOf(`${sep}app.asar${sep}`);
  const bundledDir = asar === -1 ? join(__dirname, '..', 'skills') : join(__filename.slice(0, asar), 'skills');
  const packaged = asar === -1 ? {} : { bundledManifest: join(__dirname, '..', 'dist', 'bundled-manifest.json') };
  runCli(argv, { cwd: process.cwd(), env: process.env, io: processIo(), bundledDir, ...packaged, version }).then((code) => {
    process.exitCode = code;
  });
}
