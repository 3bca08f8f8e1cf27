#!/usr/bin/env node
/**
 * The first step of `npm test`: within a second or two, names every system program the tests need
 * that this machine lacks, with the command that installs it, and stops; otherwise it says nothing.
 * It also stops when the checkout lies where sandboxed runs cannot see it.
 * `--apt-packages` prints the Debian packages to install instead (for .ci/run), and exits 0.
 */
import { checkoutProblem, missingDependencies } from './system-deps.js';

const missing = await missingDependencies();

if (process.argv.includes('--apt-packages')) {
  process.stdout.write(`${[...new Set(missing.map((m) => m.package))].join(' ')}\n`);
} else if (missing.length > 0) {
  const apt = process.platform === 'linux';
  const width = Math.max(...missing.map((m) => m.program.length));
  const lines = missing.map(
    (m) =>
      `  ${m.program.padEnd(width)}  ${m.why}\n  ${' '.repeat(width)}  install: ${apt ? `sudo apt-get install -y ${m.package}` : `install ${m.program} with your package manager`}`,
  );
  const all = apt ? `\nAll at once:\n  sudo apt-get install -y ${[...new Set(missing.map((m) => m.package))].join(' ')}\n` : '';
  process.stderr.write(
    `npm test needs ${missing.length === 1 ? 'a program' : 'programs'} this machine lacks:\n${lines.join('\n')}\n${all}\nThen run npm test again.\n`,
  );
  process.exitCode = 1;
}

const problem = process.argv.includes('--apt-packages') ? null : checkoutProblem();
if (problem !== null) {
  process.stderr.write(`npm test cannot run here: ${problem}\n`);
  process.exitCode = 1;
}
