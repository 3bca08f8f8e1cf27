/**
 * Containment: one interface with an implementation per OS mechanism (bubblewrap on Linux,
 * Seatbelt on macOS) and a "none available" answer. Policy asks for a profile; the run service
 * hands the profile and the run's places here; only this folder knows how a profile becomes a
 * command line.
 */
import { relative } from 'node:path';
import type { LimitHit } from '../../../shared/model.js';
import type { SandboxMechanism, SandboxProfile } from '../../../shared/runs.js';
import { isInside } from '../../files/paths.js';
import type { ProxyAddress } from '../network/proxy-server.js';
import type { Mask } from './secret-paths.js';
import type { SystemView } from './system-paths.js';

/** A path the box shows at its own place, whether it is a folder, and the descriptor it is bound by (bubblewrap binds by descriptor, never by path again). */
export interface Bind extends Mask {
  fd?: number;
}

/** Everything a sandbox needs to know about one run, every path canonical. */
export interface RunPlaces {
  profile: SandboxProfile;
  /** The working directory (its handle's path): readable in every profile, writable under `workspace`. */
  cwd: string;
  /** The descriptor of the working directory, opened once before the decision: what bubblewrap binds. */
  workspaceFd?: number;
  /** The skill's folder, and the private snapshot of its approved files that stands in for it. */
  skillDir: string;
  snapshotDir: string;
  /** A private, empty directory for this run's temporary files (its TMPDIR; /tmp inside bubblewrap). */
  tempDir: string;
  /**
   * The private folder the run gets as its home (HOME), and where it appears: at the person's home
   * folder under bubblewrap, as itself under Seatbelt. It holds symlinks from declared `~/…` paths
   * to where their files really are (bound below).
   */
  homeDir: string;
  userHome: string;
  /** The operating system's folders, read-only, and the secrets in them hidden (system-paths.ts). */
  system: SystemView;
  /**
   * More the run sees, read-only, each at its own place: declared `reads:` that exist, programs
   * outside the system folders, the resolver's file. Nothing in the working directory adds to these.
   */
  binds: readonly Bind[];
  /** What a writable working directory keeps read-only: every hidden entry and dependency folder, and placeholders for absent names. */
  guarded: readonly Bind[];
  /** Declared paths inside what `guarded` holds (`.github/workflows` in `.github`, `.git` itself), writable again. */
  writable?: readonly Bind[];
  /** What stays read-only inside a declared path unless declared too (`.git/hooks`, `.git/config` in a declared `.git`). */
  guardedInside?: readonly Bind[];
  /** Mounts below a writable working directory (a data disk mounted in a project): read-only. */
  readOnlyMounts?: readonly string[];
  /** Unix sockets where the run can see, each hidden: a read-only bind would still let a tool connect. */
  sockets: readonly string[];
  /** Secrets under what the run sees (see secret-paths.ts), masked even there. */
  masks: readonly Mask[];
  /**
   * Set when a cgroup Skilltray made holds the run's processes and memory (the runner starts the
   * sandbox inside it, cgroup.ts): it bounds them for the whole run, so no process needs rlimits for them.
   */
  inCgroup?: boolean;
  /** Where the run's filtering proxy listens, when its network leads to a list of hosts (core/process/network/). */
  proxy?: ProxyAddress;
}

/** A program, its arguments and environment, as the runner spawns them. */
export interface SpawnCommand {
  program: string;
  args: readonly string[];
  env: Record<string, string>;
  /** Set by a sandbox whose PID namespace ends everything the tool started when it exits. */
  treeEndsWithIt?: boolean;
  /** How many processes the sandbox itself runs beside the tool's (bwrap, its init, the relay): a cgroup holding the run allows that many more. */
  boxProcesses?: number;
  /** Data for file descriptors 3, 4, … of the spawned program, each read to its end (bwrap's seccomp filter). */
  inputs?: Uint8Array[];
  /** Open descriptors passed on after `inputs`, in order (what bubblewrap binds by descriptor). */
  fds?: number[];
  /**
   * Where the program starts on the host, when that is not the run's folder: bubblewrap's own start
   * folder (the tool's is its bound folder, `--chdir`). Unset, the run starts in its folder's path,
   * checked to be the folder decided on.
   */
  cwd?: string;
  /** Set when the program reports on the fd after all the others (the relay: which private folder filled up). */
  reports?: boolean;
  /** Which limit stopped the run, from that report and what else the sandbox kept (a systemd scope's result), once it has ended. */
  limitHit?: (report: string) => LimitHit | null;
}

/** An OS sandbox, or the answer that there is none. */
export interface Sandbox {
  /** The mechanism, or null for "none available". */
  readonly mechanism: SandboxMechanism | null;
  /**
   * Null when runs (of `profile`, when given: its network may need more) can be contained here;
   * otherwise why not, with how to fix it. The machine's answer is decided once, then cached.
   */
  unavailable(profile?: SandboxProfile): string | null;
  /** Null when the resource limits apply to contained runs here; otherwise why not. */
  limitsUnavailable(): string | null;
  /**
   * The command that runs `command` under `places.profile`. A `none` profile, or a sandbox that is
   * unavailable, gives the uncontained command (still run from the snapshot, with its private temp).
   */
  wrap(command: SpawnCommand, places: RunPlaces): SpawnCommand;
}

/** The program as it lies in the snapshot when it is one of the skill's own files; otherwise unchanged. */
export function programInSnapshot(program: string, places: Pick<RunPlaces, 'skillDir' | 'snapshotDir'>): string {
  if (!isInside(places.skillDir, program)) return program;
  return `${places.snapshotDir}/${relative(places.skillDir, program).split('\\').join('/')}`;
}

/** The environment with the run's private temp as TMPDIR (and TMP, TEMP), so programs that honour it write there. */
export function withPrivateTemp(env: Record<string, string>, tempDir: string): Record<string, string> {
  return { ...env, TMPDIR: tempDir, TMP: tempDir, TEMP: tempDir };
}

/** The command run without containment: from the snapshot, with its private temp, nothing else changed. */
export function uncontained(command: SpawnCommand, places: RunPlaces): SpawnCommand {
  return { program: programInSnapshot(command.program, places), args: command.args, env: withPrivateTemp(command.env, places.tempDir) };
}

/** The answer where no sandbox can run: every run is uncontained, and `why` says so. */
export function noSandbox(why: string): Sandbox {
  return {
    mechanism: null,
    unavailable: () => why,
    limitsUnavailable: () => why,
    wrap: uncontained,
  };
}
