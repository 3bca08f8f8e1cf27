#!/usr/bin/env node
/**
 * Compiles Skilltray's two native helpers into dist/native/ with the system's C compiler (`CC`,
 * else `cc`), which `npm install` already needs for better-sqlite3: the network relay
 * (src-main/core/process/network/net-relay.c, the first process of a bubblewrap sandbox) and the
 * cgroup launcher (src-main/core/process/sandbox/enter-cgroup.c, which starts a root run's sandbox
 * inside its cgroup). Only Linux runs them; elsewhere there is nothing to build.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const programs = [
  ['net-relay', join('src-main', 'core', 'process', 'network', 'net-relay.c')],
  ['enter-cgroup', join('src-main', 'core', 'process', 'sandbox', 'enter-cgroup.c')],
];

if (process.platform === 'linux') {
  mkdirSync(join(root, 'dist', 'native'), { recursive: true });
  const cc = process.env.CC || 'cc';
  for (const [name, source] of programs) {
    try {
      execFileSync(cc, ['-std=c11', '-O2', '-Wall', '-Wextra', '-Werror', '-o', join(root, 'dist', 'native', name), join(root, source)], { stdio: 'inherit' });
    } catch (error) {
      process.stderr.write(`cannot build ${name} with '${cc}' (${error.message}); install a C compiler (apt-get install gcc) or set CC\n`);
      process.exit(1);
    }
  }
}
