/**
 * Containment: one interface with an implementation per OS mechanism (bubblewrap on Linux,
 * Seatbelt on macOS) and a "none available" answer. Policy asks for a profile; the run service
 * hands the profile and the run's places here; only this folder knows how a profile becomes a
 * command line.
 */
import { relative } from 'node:path';
import type { SandboxMechanism, SandboxProfile } from '../../../shared/runs.js';
import { isInside } from '../../skills/files.js';
import type { ProxyAddress } from '../network/proxy-server.js';
import type { Mask } from './secret-paths.js';

/** Everything a sandbox needs to know about one run, every path canonical. */
export interface RunPlaces {
  profile: SandboxProfile;
  /** The working directory: readable in every profile, writable under `workspace`. */
  cwd: string;
  /** The skill's folder, and the private snapshot of its approved files that stands in for it. */
  skillDir: string;
  snapshotDir: string;
  /** A private, empty directory for this run's temporary files (its TMPDIR; /tmp inside bubblewrap). */
  tempDir: string;
  /** Paths the run may not read (see secret-paths.ts). */
  masks: readonly Mask[];
  /** Where the run's filtering proxy listens, when its network leads to a list of hosts (core/runner/network/). */
  proxy?: ProxyAddress;
}

/** A program, its arguments and environment, as the runner spawns them. */
export interface SpawnCommand {
  program: string;
  args: readonly string[];
  env: Record<string, string>;
  /** Set by a sandbox whose PID namespace ends everything the tool started when it exits. */
  treeEndsWithIt?: boolean;
  /** Data for file descriptors 3, 4, … of the spawned program, each read to its end (bwrap's seccomp filter). */
  inputs?: Uint8Array[];
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
    wrap: uncontained,
  };
}
