#!/usr/bin/env node
// The `skilltray` command: runs the compiled CLI (built by `npm install`'s prepare step or `npm run build`).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/node/src-main/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write("error[E999]: skilltray is not built yet; run 'npm run build:node' in the checkout\n");
  process.exit(1);
}
const { runCli, processIo } = await import(entry.href);
const bundledDir = fileURLToPath(new URL('../skills', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
process.exitCode = await runCli(process.argv.slice(2), { cwd: process.cwd(), env: process.env, io: processIo(), bundledDir, version });
