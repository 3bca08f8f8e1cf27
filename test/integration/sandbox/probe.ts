/** Probe skills for the containment tests: one bash script per run, under the profile its skill asks for, through the real run service. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { execa } from 'execa';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { resolveProgram } from '../../../src-main/core/process/resolve-program.js';
import type { RunReport } from '../../../src-main/shared/runs.js';
import { skillMd, testHome, writeSkill, type TestHome } from '../../support/temp.js';

/** Probe skills by the profile they get: read-only, workspace, read-only with network; `slow` has a 1 s timeout; `reads` declares ~/.config/app. */
export const PROBES = {
  'probe-ro': { read_only: true },
  'probe-ws': {},
  'probe-net': { read_only: true, network: true },
  'probe-slow': { read_only: true, timeout: 1 },
  'probe-reads': { read_only: true, reads: ['~/.config/app'] },
} as const;

export type ProbeSkill = keyof typeof PROBES;

function probeSkill(name: string, frontmatter: Record<string, unknown>): string {
  return skillMd(
    { name, description: `Runs a bash script to probe the sandbox (${name}).`, version: '1.0.0', ...frontmatter },
    '\n### sh\n\nRuns the script.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| script | string | yes | bash script |\n\n#### Command\n\n```\nbash -c <<script>>\n```\n',
  );
}

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

/** A test home with the probe skills as user skills, and a core over it (closed after the test). */
export function probeHome(env: NodeJS.ProcessEnv = {}): { t: TestHome; core: SkilltrayCore } {
  const t = testHome();
  for (const [name, frontmatter] of Object.entries(PROBES)) writeSkill(t.skills, name, probeSkill(name, frontmatter));
  const core = new SkilltrayCore(t.config(env));
  cores.push(core);
  return { t, core };
}

/** Runs `script` with `skill`'s profile in `cwd`, approved by the test. */
export function probe(core: SkilltrayCore, skill: ProbeSkill, script: string, cwd: string): Promise<RunReport> {
  return core.runs.run({ skill, tool: 'sh', args: { script }, surface: 'cli', cwd }, { approval: { kind: 'preapproved', actor: 'containment test' } });
}

/** The same script with no sandbox at all: the control that shows a probe can succeed. */
export async function unsandboxed(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ exitCode: number | undefined; stdout: string }> {
  const result = await execa('bash', ['-c', script], { cwd, env, extendEnv: false, reject: false, stdin: 'ignore' });
  return { exitCode: result.exitCode, stdout: result.stdout };
}

/** Whether a program is on PATH here. */
export function installed(program: string): boolean {
  return resolveProgram(program, process.env, '/') !== null;
}

/** An HTTP listener on loopback that counts the connections it gets. */
export async function loopbackListener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((_req, res) => res.end('reached\n'));
  server.on('connection', () => count++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
