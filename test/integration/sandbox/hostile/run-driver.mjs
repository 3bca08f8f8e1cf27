/**
 * Many runs in one process, as the person the hostile suite attacks as: the core (the fresh build,
 * dist/node) over their environment, each request approved as at a terminal, `concurrency` at once.
 * Reads a JSON file of { env, requests: [{ skill, tool, args, cwd }], concurrency } and prints one
 * JSON line per request: its output (stdout and stderr) or its error. Used where the CLI's start-up
 * per run would make hundreds of runs, or a property test's many workspaces, too slow.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dist, checkout, file] = process.argv.slice(2);
const { env, requests, concurrency } = JSON.parse(readFileSync(file, 'utf8'));
const { SkilltrayCore } = await import(join(dist, 'src-main', 'core', 'api.js'));
const { resolveConfig } = await import(join(dist, 'src-main', 'core', 'config.js'));
const core = new SkilltrayCore(
  resolveConfig({
    env,
    bundledDir: join(checkout, 'skills'),
    netRelay: join(checkout, 'dist', 'native', 'net-relay'),
    enterCgroup: join(checkout, 'dist', 'native', 'enter-cgroup'),
  }),
);

let next = 0;
async function worker() {
  while (next < requests.length) {
    const index = next++;
    const request = requests[index];
    try {
      const report = await core.runs.run({ ...request, surface: 'cli' }, { approval: { kind: 'preapproved', actor: 'hostile suite' } });
      const { stdout, stderr, exitCode } = report.result;
      process.stdout.write(`${JSON.stringify({ index, exitCode, stdout, stderr, swept: report.swept ?? [] })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ index, code: error.code ?? 'thrown', message: String(error.message) })}\n`);
    }
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await core.close();
