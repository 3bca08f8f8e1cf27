#!/usr/bin/env node
/**
 * Compiles the network relay (src-main/core/process/network/net-relay.c) into dist/native/net-relay
 * with the system's C compiler (`CC`, else `cc`), which `npm install` already needs for
 * better-sqlite3. Only Linux runs it (the first process of a bubblewrap sandbox with a host list);
 * elsewhere there is nothing to build.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const source = join(root, 'src-main', 'core', 'process', 'network', 'net-relay.c');
const output = join(root, 'dist', 'native', 'net-relay');

if (process.platform === 'linux') {
  mkdirSync(dirname(output), { recursive: true });
  const cc = process.env.CC || 'cc';
  try {
    execFileSync(cc, ['-std=c11', '-O2', '-Wall', '-Wextra', '-Werror', '-o', output, source], { stdio: 'inherit' });
  } catch (error) {
    process.stderr.write(`cannot build the network relay with '${cc}' (${error.message}); install a C compiler (apt-get install gcc) or set CC\n`);
    process.exit(1);
  }
}
