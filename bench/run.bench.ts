/**
 * A tool call through render → policy → snapshot → sandbox → spawn → record, the sandbox alone
 * (bubblewrap with a read-only profile running `true`), and a network tool's start (its own proxy,
 * then the sandbox with the relay first), each against a raw child_process.spawn of `true`
 * measured in the same run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkilltrayCore } from '../src-main/core/api.js';
import { BUNDLED_MANIFEST, resolveConfig } from '../src-main/core/config.js';
import { profileFor } from '../src-main/core/policy/profile.js';
import { startNetworkProxy } from '../src-main/core/process/network/proxy-server.js';
import { boxPlaces } from '../src-main/core/process/sandbox/box-places.js';
import { openBox, openWorkspace } from '../src-main/core/process/sandbox/box-spec.js';
import { bundledManifestOf, manifestText } from '../src-main/core/skills/bundled-manifest.js';
import { fdLayout } from '../src-main/core/process/sandbox/bubblewrap.js';
import { platformSandbox } from '../src-main/core/process/sandbox/platform-sandbox.js';
import { noSandbox, type RunPlaces, type SpawnCommand } from '../src-main/core/process/sandbox/sandbox.js';
import { resolveProgram } from '../src-main/core/process/resolve-program.js';
import { trueSkillText } from './corpus.js';
import { median, paired, type Figure, type Metric } from './measure.js';

function spawned(program: string, args: readonly string[], env?: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: 'ignore', ...(env === undefined ? {} : { env }) });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}

/**
 * A wrapped (ungated) command spawned as the runner does, each descriptor where fdLayout numbers it:
 * its inputs (the socket filter), the descriptors bwrap binds, its report fd; fails unless it exits 0.
 */
function spawnedWrapped(wrapped: SpawnCommand): Promise<void> {
  const inputs = wrapped.inputs ?? [];
  const at = fdLayout({ inputs: inputs.length, bound: wrapped.fds?.length ?? 0 });
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'ignore', 'ignore'];
  inputs.forEach((_, i) => (stdio[at.inputs + i] = 'pipe'));
  (wrapped.fds ?? []).forEach((fd, i) => (stdio[at.bound + i] = fd));
  if (wrapped.reports === true) stdio[at.report] = 'pipe';
  return new Promise((resolve, reject) => {
    const child = spawn(wrapped.program, wrapped.args, { env: wrapped.env, cwd: wrapped.cwd, stdio });
    inputs.forEach((input, i) => (child.stdio[at.inputs + i] as NodeJS.WritableStream).end(input));
    if (wrapped.reports === true) (child.stdio[at.report] as NodeJS.ReadableStream).resume();
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${wrapped.program} exited with ${String(code)}`))));
  });
}

/**
 * A network tool's start: the run's own proxy on a Unix socket, then the sandbox with a host list
 * (the relay first, listening before it starts `true`), then the proxy closed — as a run does it.
 */
async function networkStart(
  sandbox: ReturnType<typeof platformSandbox>,
  places: RunPlaces,
  truePath: string,
  dir: string,
  sandboxedMs: number,
  raw: number,
): Promise<Figure | Metric> {
  const name = `sandboxed \`true\` with a host list (${sandbox.mechanism ?? ''}: its proxy + the relay)`;
  const why = sandbox.unavailable(places.profile);
  if (why !== null) return { name, text: `not measured: ${why}` };
  const sockets = mkdtempSync(join(dir, 'net-'));
  let n = 0;
  const start = async (): Promise<void> => {
    const proxy = await startNetworkProxy({ hosts: places.profile.hosts as string[], socketPath: join(sockets, `p${n++}.sock`) });
    try {
      const wrapped = sandbox.wrap({ program: truePath, args: [], env: { PATH: process.env.PATH ?? '' } }, { ...places, proxy: proxy.address });
      await spawnedWrapped(wrapped);
    } finally {
      await proxy.dispose();
    }
  };
  const ms = await median(start, 31, 3);
  return { name, ms, baseline: 'raw child_process.spawn of true', baselineMs: raw, note: `${(ms - sandboxedMs).toFixed(1)} ms more than without the network` };
}

/** The run figures: the sandbox alone, a whole contained run, and an uncontained run, each against raw spawn. */
export async function runBench(dir: string): Promise<(Figure | Metric)[]> {
  const bundled = join(dir, 'bundled');
  mkdirSync(join(bundled, 'truth'), { recursive: true });
  writeFileSync(join(bundled, 'truth', 'SKILL.md'), trueSkillText('truth', 'Runs true. Use when benchmarking.', 'yes', ['read_only: true']));
  // Shipped as the build ships bundled skills: listed in the manifest beside their folder.
  writeFileSync(join(dir, BUNDLED_MANIFEST), manifestText(bundledManifestOf(bundled)));
  // A home of its own and a project folder to work in: the workspace guard never lets a run work in a home.
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  mkdirSync(join(dir, 'user'), { recursive: true });
  // The relay as the build leaves it: this file runs from dist/node/bench/.
  const netRelay = join(import.meta.dirname, '..', '..', 'native', 'net-relay');
  const config = resolveConfig({ env: { HOME: join(dir, 'user'), SKILLTRAY_HOME: join(dir, 'home'), PATH: process.env.PATH }, bundledDir: bundled, netRelay });
  const sandbox = platformSandbox(process.platform, config.env, config.netRelay);
  const why = sandbox.unavailable();
  const contained = new SkilltrayCore(config, { sandbox });
  const bare = new SkilltrayCore(config, { sandbox: noSandbox('measured without a sandbox') });
  const truePath = resolveProgram('true', config.env, dir) as string;
  const temp = mkdtempSync(join(dir, 'sandbox-'));
  try {
    const raw = await median(() => spawned(truePath, []), 31, 3);
    const figures: (Figure | Metric)[] = [];
    if (why === null) {
      // The sandbox alone: the command line a read-only run of `true` gets, spawned directly.
      const home = mkdtempSync(join(dir, 'home-'));
      const spec = openBox(openWorkspace(work), {
        reads: [],
        programPath: truePath,
        skillDir: join(bundled, 'truth'),
        userHome: join(dir, 'user'),
        skilltrayHome: config.home,
        platform: process.platform,
        otherHomes: [],
      });
      const { places } = boxPlaces({
        spec,
        profile: profileFor({ readOnly: true, network: false, hosts: [], classification: null, box: { reads: [], writes: [], limits: {} } }, false),
        skillDir: join(bundled, 'truth'),
        snapshotDir: join(bundled, 'truth'),
        tempDir: temp,
        homeDir: home,
        env: config.env,
        skilltrayHome: config.home,
        platform: process.platform,
        asRoot: process.getuid?.() === 0,
        inCgroup: false,
      });
      const wrapped = sandbox.wrap({ program: truePath, args: [], env: { PATH: process.env.PATH ?? '' } }, places);
      const bareBwrap = () => spawnedWrapped(wrapped);
      const sandboxed = await median(bareBwrap, 31, 3);
      figures.push({
        name: `sandboxed \`true\` (${sandbox.mechanism ?? ''}, read-only)`,
        ms: sandboxed,
        baseline: 'raw child_process.spawn of true',
        baselineMs: raw,
      });
      figures.push(
        await networkStart(sandbox, { ...places, profile: { ...places.profile, network: true, hosts: ['api.github.com'] } }, truePath, dir, sandboxed, raw),
      );
      const call = () => contained.runs.run({ skill: 'truth', tool: 'yes', surface: 'cli', cwd: work }, { approval: { kind: 'none' } });
      const full = await median(call, 31, 3);
      figures.push({ name: 'run `true`: render+policy+snapshot+sandbox+record', ms: full, baseline: 'raw child_process.spawn of true', baselineMs: raw });
      // The whole contained run against bwrap alone running the same program in the same box, measured in alternation.
      const against = await paired(call, bareBwrap, 31, 3);
      figures.push({
        name: 'run `true` contained, against its bare box',
        ms: against.ms,
        baseline: 'bwrap running true, the same binds',
        baselineMs: against.baselineMs,
        goal: 1.5,
      });
    } else {
      figures.push({ name: 'sandboxed `true`', text: `not measured: ${why}` });
    }
    const uncontained = () => bare.runs.run({ skill: 'truth', tool: 'yes', surface: 'cli', cwd: work }, { approval: { kind: 'preapproved', actor: 'bench' } });
    figures.push({
      name: 'run `true` uncontained (snapshot, no sandbox)',
      ms: await median(uncontained, 31, 3),
      baseline: 'raw child_process.spawn of true',
      baselineMs: raw,
    });
    return figures;
  } finally {
    rmSync(temp, { recursive: true, force: true });
    await contained.close();
    await bare.close();
  }
}
