/**
 * A cgroup per run, where one can be had. As root Skilltray makes it: root is the one user
 * RLIMIT_NPROC does not bind (the kernel exempts it), so without a cgroup a fork bomb run as root
 * would go on until the timeout. The cgroup caps the run's processes (pids.max) and memory
 * (memory.max, no swap; the private folders' tmpfs pages count too) as a whole, and its counters
 * say afterwards which limit the run ran into. cgroup v2 or v1 hierarchies both serve. The run's
 * sandbox is started by a launcher that enters the cgroup itself and then becomes the sandbox
 * (enter-cgroup.c), so nothing of the run is ever born outside it. An ordinary
 * user gets the same from the user's systemd where it delegates memory and pids (a transient scope
 * per run, `systemd-run --user --scope`); elsewhere rlimits bind each process (see bubblewrap.ts).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceLimitName, ResourceLimits } from '../../../shared/model.js';
import { isAlive, thisProcess } from '../../process-identity.js';
import { resolveProgram } from '../resolve-program.js';
import { onSystemPath } from './system-paths.js';
import type { SpawnCommand } from './sandbox.js';
import type { Disposable } from '../run-resources.js';

/** What holds a run's memory and processes: a cgroup Skilltray made (root), a systemd scope of the user's (delegated), or rlimits per process. */
export type MemoryBound = 'cgroup' | 'scope' | 'rlimit';

/** Where a controller's cgroups for runs go, and which cgroup filesystem it is. */
interface Place {
  base: string;
  version: 1 | 2;
}

/** One run's cgroup: where its processes go before the tool starts, and which limit it met. */
export interface RunCgroup extends Disposable {
  /** `command` started by the launcher, which enters the run's cgroup and then becomes the command. */
  launch(command: SpawnCommand): SpawnCommand;
  /**
   * Why the launcher could not enter the cgroup, from the run's result, when the cgroup confirms that
   * nothing ever entered it (a tool can print the launcher's words and exit 125, but cannot have used
   * no memory there); null otherwise.
   */
  refused(result: { exitCode: number | null; stderr: string }): string | null;
  /** The limit the run ran into: memory when the kernel killed for it, else processes when a fork was refused. */
  hit(): Extract<ResourceLimitName, 'processes' | 'memoryMiB'> | null;
  /** Removes the cgroup once its processes are gone (a busy one is swept by a later run). */
  dispose(): void;
}

const ROOT = '/sys/fs/cgroup';
const MIB = 1024 * 1024;

/** This process's own cgroup path for a v1 controller (`4:memory:/a/b` → /a/b), so runs stay under whatever limits it. */
function ownPath(controller: string): string {
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, path] = line.split(':');
      if (controllers?.split(',').includes(controller)) return path ?? '/';
    }
  } catch {
    // no /proc: not Linux
  }
  return '/';
}

/** Reads `name = count` lines (pids.events, memory.events, memory.oom_control). */
function counter(file: string, name: string): number {
  try {
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith(`${name} `));
    return Number(line?.split(' ')[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The places for pids and memory cgroups, made once; or why there are none. */
function findPlaces(): { pids: Place; memory: Place } | string {
  if (process.getuid?.() !== 0) {
    return 'only root may make cgroups here; the run is bound by rlimits instead (processes in its own user namespace, memory per process)';
  }
  try {
    const controllers = existsSync(join(ROOT, 'cgroup.controllers')) ? readFileSync(join(ROOT, 'cgroup.controllers'), 'utf8').split(/\s+/) : [];
    if (controllers.includes('pids') && controllers.includes('memory')) {
      const base = join(ROOT, 'skilltray');
      // v2 lets only a cgroup without processes of its own hand controllers down: the top one and ours.
      writeFileSync(join(ROOT, 'cgroup.subtree_control'), '+pids +memory');
      mkdirSync(base, { recursive: true });
      writeFileSync(join(base, 'cgroup.subtree_control'), '+pids +memory');
      return { pids: { base, version: 2 }, memory: { base, version: 2 } };
    }
    const v1 = (controller: string): Place => {
      const base = join(ROOT, controller, ownPath(controller), 'skilltray');
      mkdirSync(base, { recursive: true });
      return { base, version: 1 };
    };
    if (existsSync(join(ROOT, 'pids', 'cgroup.procs')) && existsSync(join(ROOT, 'memory', 'cgroup.procs'))) return { pids: v1('pids'), memory: v1('memory') };
    return 'no cgroup filesystem with the pids and memory controllers is mounted at /sys/fs/cgroup';
  } catch (error) {
    return `the cgroup filesystem could not be written (${(error as Error).message})`;
  }
}

let found: { pids: Place; memory: Place } | string | undefined;

function places(): { pids: Place; memory: Place } | string {
  found ??= findPlaces();
  return found;
}

/** Null when runs get a cgroup here, started by the launcher at `launcher`; otherwise why not. The cgroups are looked for once per process. */
export function cgroupUnavailable(launcher: string): string | null {
  const result = places();
  if (typeof result === 'string') return result;
  try {
    accessSync(launcher, constants.X_OK);
  } catch {
    return `the cgroup launcher ${launcher} is not built (npm run build:node builds it with the C compiler)`;
  }
  return null;
}

/**
 * Where a process enters a cgroup by writing "0": on v1 `tasks`, which moves only the writing
 * thread and so needs no global lock (the launcher has one thread); on v2 `cgroup.procs`.
 */
function entryOf(place: Place, dir: string): string {
  return join(dir, place.version === 1 ? 'tasks' : 'cgroup.procs');
}

/** The most memory a cgroup's processes ever held (0: no process ever entered it), or null where the kernel does not say. */
function peakMemory(place: Place, dir: string): number | null {
  try {
    return Number(readFileSync(join(dir, place.version === 1 ? 'memory.max_usage_in_bytes' : 'memory.peak'), 'utf8').trim());
  } catch {
    return null;
  }
}

/** The first line the launcher writes when it cannot enter (enter-cgroup.c), with its exit status. */
const REFUSED = { exitCode: 125, prefix: 'skilltray enter-cgroup: ' };

/**
 * Names a run's cgroup after the process that makes it (pid and start time), so a sweep can tell a
 * cgroup left by a dead process from one another live process has made and not yet filled: an empty
 * cgroup is removable, and a run's stays empty until its launcher enters it.
 */
const maker = `${thisProcess().pid}.${thisProcess().started}`;

/** The cgroups this process made for runs that have not ended yet. */
const open = new Set<string>();

/** True when the cgroup `name` may be swept: its maker is gone, or it is this process's and its run ended. */
function abandoned(name: string): boolean {
  const match = /^run-(\d+)\.(\d*)-/.exec(name);
  if (match === null) return name.startsWith('run-');
  if (`${match[1]}.${match[2]}` === maker) return !open.has(name);
  return !isAlive({ pid: Number(match[1]), started: match[2] ?? '' });
}

/** Removes run cgroups left behind whose processes are gone (rmdir refuses a busy one). */
function sweep(base: string): void {
  for (const name of readdirSync(base)) {
    if (!abandoned(name)) continue;
    try {
      rmdirSync(join(base, name));
    } catch {
      // still busy, or not a cgroup: left for another sweep
    }
  }
}

/** Makes the cgroup of run `id` with `limits`, entered by the launcher at `launcher`; throws when it cannot (the run must then not start: E706 upstream). */
export function openRunCgroup(id: string, limits: ResourceLimits, launcher: string): RunCgroup {
  const found = places();
  if (typeof found === 'string') throw new Error(found);
  const { pids, memory } = found;
  for (const place of new Set([pids.base, memory.base])) sweep(place);
  const name = `run-${maker}-${id}`;
  const pidsDir = join(pids.base, name);
  const memoryDir = join(memory.base, name);
  mkdirSync(pidsDir);
  if (memoryDir !== pidsDir) mkdirSync(memoryDir);
  // Until launch() says how many processes the box itself runs, the run's own allowance.
  writeFileSync(join(pidsDir, 'pids.max'), String(limits.processes));
  const bytes = String(limits.memoryMiB * MIB);
  if (memory.version === 2) {
    writeFileSync(join(memoryDir, 'memory.max'), bytes);
    // Swapping out would let a run use more than its memory: none of it.
    if (existsSync(join(memoryDir, 'memory.swap.max'))) writeFileSync(join(memoryDir, 'memory.swap.max'), '0');
  } else {
    writeFileSync(join(memoryDir, 'memory.limit_in_bytes'), bytes);
    if (existsSync(join(memoryDir, 'memory.memsw.limit_in_bytes'))) writeFileSync(join(memoryDir, 'memory.memsw.limit_in_bytes'), bytes);
  }
  const dirs = [...new Set([pidsDir, memoryDir])];
  const entries = [...new Set([entryOf(pids, pidsDir), entryOf(memory, memoryDir)])];
  // Set up synchronously, so no sweep of this process ran in between; one that failed stays sweepable.
  open.add(name);
  return {
    launch(command) {
      // The box's own processes (bwrap, what the launcher becomes, its init and the relay) are in the cgroup too.
      writeFileSync(join(pidsDir, 'pids.max'), String(limits.processes + (command.boxProcesses ?? 0)));
      return { ...command, program: launcher, args: [...entries, '--', command.program, ...command.args] };
    },
    refused(result) {
      if (result.exitCode !== REFUSED.exitCode || !result.stderr.startsWith(REFUSED.prefix)) return null;
      if (peakMemory(memory, memoryDir) !== 0) return null;
      return (result.stderr.split('\n')[0] as string).slice(REFUSED.prefix.length);
    },
    hit() {
      const killed = memory.version === 2 ? counter(join(memoryDir, 'memory.events'), 'oom_kill') : counter(join(memoryDir, 'memory.oom_control'), 'oom_kill');
      if (killed > 0) return 'memoryMiB';
      return counter(join(pidsDir, 'pids.events'), 'max') > 0 ? 'processes' : null;
    },
    dispose() {
      open.delete(name);
      for (const dir of dirs) {
        try {
          rmdirSync(dir);
        } catch {
          // its last processes are still being reaped: the next run's sweep removes it
        }
      }
    },
  };
}

/** A run in a transient systemd scope of the user's own manager, which holds its memory and processes as a whole. */
export interface UserScope {
  /** systemd-run and its options, to run before bwrap (it becomes bwrap, in the scope). */
  command: string[];
  /** What systemd-run needs to find the user's manager; bwrap drops it before the tool starts. */
  env: Record<string, string>;
  /** Memory when systemd says the kernel killed in the scope for it (its Result is oom-kill). */
  hit(): 'memoryMiB' | null;
}

/** systemd-run's options for a run's scope named `unit`: memory (no swap) and tasks for the whole run. */
export function scopeOptions(limits: ResourceLimits, unit: string): string[] {
  return [
    '--user',
    '--scope',
    '--quiet',
    `--unit=${unit}`,
    '-p',
    `MemoryMax=${limits.memoryMiB}M`,
    '-p',
    'MemorySwapMax=0',
    '-p',
    `TasksMax=${limits.processes}`,
    '--',
  ];
}

/** The session variables systemd-run reads to reach the user's manager. */
function sessionEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const runtime = env.XDG_RUNTIME_DIR ?? '';
  return { XDG_RUNTIME_DIR: runtime, ...(env.DBUS_SESSION_BUS_ADDRESS === undefined ? {} : { DBUS_SESSION_BUS_ADDRESS: env.DBUS_SESSION_BUS_ADDRESS }) };
}

/** The programs and session a user scope needs, or why there is none: checked before the one probe run. */
function scopeNeeds(env: NodeJS.ProcessEnv): { run: string; ctl: string; truePath: string } | string {
  const uid = process.getuid?.();
  if (uid === undefined || uid === 0) return 'root gets a cgroup of its own';
  if (!existsSync(join(ROOT, 'cgroup.controllers'))) return 'no unified cgroup hierarchy (cgroup v2) at /sys/fs/cgroup';
  const own = (name: string): string | null => {
    const found = resolveProgram(name, env, '/');
    return found !== null && onSystemPath(found, 'linux') ? found : null;
  };
  const [run, ctl, truePath] = [own('systemd-run'), own('systemctl'), own('true')];
  if (run === null || ctl === null || truePath === null) return 'no systemd-run and systemctl in the system folders';
  if (env.XDG_RUNTIME_DIR === undefined || !existsSync(join(env.XDG_RUNTIME_DIR, 'bus')))
    return "no session bus to reach the user's systemd ($XDG_RUNTIME_DIR/bus)";
  const delegated = join(ROOT, 'user.slice', `user-${uid}.slice`, `user@${uid}.service`, 'cgroup.controllers');
  let controllers: string[] = [];
  try {
    controllers = readFileSync(delegated, 'utf8').trim().split(/\s+/);
  } catch {
    // no user manager's cgroup
  }
  if (!controllers.includes('memory') || !controllers.includes('pids')) return "the user's systemd is not delegated the memory and pids controllers";
  return { run, ctl, truePath };
}

let scopeWhy: string | null | undefined;
let scopePrograms: { run: string; ctl: string } | undefined;

/**
 * Null when runs of this process can each have a systemd scope of the user's (found once, by
 * running `true` in one); otherwise why not, and they are bound by rlimits instead.
 */
export function userScopeUnavailable(env: NodeJS.ProcessEnv): string | null {
  if (scopeWhy !== undefined) return scopeWhy;
  const needs = scopeNeeds(env);
  if (typeof needs === 'string') {
    scopeWhy = needs;
    return scopeWhy;
  }
  const probe = spawnSync(
    needs.run,
    [...scopeOptions({ processes: 16, memoryMiB: 64, fileSizeMiB: 1, cpuSeconds: 1 }, `skilltray-probe-${randomUUID()}.scope`), needs.truePath],
    {
      env: { PATH: env.PATH ?? '', ...sessionEnv(env) },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: 10_000,
    },
  );
  scopeWhy = probe.status === 0 ? null : `systemd-run --user --scope failed (${probe.stderr?.trim().split('\n')[0] || `status ${String(probe.status)}`})`;
  if (scopeWhy === null) scopePrograms = { run: needs.run, ctl: needs.ctl };
  return scopeWhy;
}

/** A scope for one run with `limits`, or null where the user's systemd gives none (see userScopeUnavailable). */
export function userScope(limits: ResourceLimits, env: NodeJS.ProcessEnv): UserScope | null {
  if (userScopeUnavailable(env) !== null || scopePrograms === undefined) return null;
  const { run, ctl } = scopePrograms;
  const unit = `skilltray-run-${randomUUID()}.scope`;
  const session = { PATH: env.PATH ?? '', ...sessionEnv(env) };
  return {
    command: [run, ...scopeOptions(limits, unit)],
    env: sessionEnv(env),
    hit() {
      const shown = spawnSync(ctl, ['--user', 'show', '--property=Result', '--value', unit], { env: session, encoding: 'utf8', timeout: 10_000 });
      const result = shown.stdout?.trim() ?? '';
      // A failed scope stays loaded until reset; a finished one is already gone.
      if (result !== '' && result !== 'success') spawnSync(ctl, ['--user', 'reset-failed', unit], { env: session, stdio: 'ignore', timeout: 10_000 });
      return result === 'oom-kill' ? 'memoryMiB' : null;
    },
  };
}
