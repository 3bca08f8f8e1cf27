/**
 * Who the hostile suite attacks as: root, and an ordinary user the suite creates (useradd) and
 * removes, each with a home of their own holding decoy secrets, Skilltray's home inside it (its
 * token, the probe skills as user skills) and a project folder. Every attack goes through the real
 * `skilltray` command (the fresh build), run as that person with setpriv, the way they would run it.
 * When the suite itself is not root it is the ordinary user, and the root half says why it skips.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { madeUser } from '../../../support/ordinary-user.js';
import { appForOrdinaryUser, RUN_DRIVER, type RunnableApp } from '../../../support/reachable.js';
import { requireSandbox } from '../../../support/sandbox.js';
import { PROBES } from '../probe.js';
import { skillMd } from '../../../support/temp.js';

const CHECKOUT = join(import.meta.dirname, '..', '..', '..', '..');

/** One person the suite attacks as. */
export interface Actor {
  name: 'root' | 'user';
  uid: number;
  gid: number;
  /** Their home folder (HOME): for root a fresh folder, never the real /root. */
  home: string;
  /** Skilltray's home inside it (its default place), with the probe skills as user skills. */
  skilltrayHome: string;
  /** A project folder in their home: where runs work. */
  project: string;
  /** The environment the command line runs with, decoys included. */
  env: Record<string, string>;
}

/** What the suite can attack as here, and why a half is skipped. */
export interface Cast {
  root: Actor | string;
  user: Actor | string;
}

/** Variables a hostile environment carries that must never reach a tool. */
export const ENV_DECOYS: Record<string, string> = {
  XDG_SESSION_COOKIE: 'decoy-xdg-session-cookie',
  XDG_CONFIG_HOME: '/decoy/xdg-config',
  LC_SECRET: 'decoy-lc-secret',
  LC_ALL: 'decoy-lc-all-token',
  SSH_AUTH_SOCK: '/decoy/ssh-agent.sock',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/decoy/bus',
  WAYLAND_DISPLAY: 'decoy-wayland',
  DISPLAY: ':99',
  GITHUB_TOKEN: 'decoy-github-token',
};

/** The probe skills of the containment tests, plus a fast one for the resource attacks. */
const SKILLS: Record<string, Record<string, unknown>> = {
  ...PROBES,
  'probe-limits': { read_only: true, timeout: 10, limits: { cpu_seconds: 1, file_size_mb: 1 } },
  'probe-ws-limits': { timeout: 10, limits: { file_size_mb: 1 } },
  // Small enough that filling what it may fill is cheap: 32 MiB per file and per private folder (four of them), 256 MiB of memory.
  'probe-small': { read_only: true, timeout: 60, limits: { file_size_mb: 32, memory_mb: 256 } },
  // Four processes for the tool, however many the box itself runs beside it.
  'probe-procs': { read_only: true, timeout: 30, limits: { processes: 4 } },
};

function probeSkill(name: string, frontmatter: Record<string, unknown>): string {
  return skillMd(
    { name, description: `Runs a bash script to attack the sandbox (${name}).`, version: '1.0.0', ...frontmatter },
    '\n### sh\n\nRuns the script.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| script | string | yes | bash script |\n\n#### Command\n\n```\nbash -c <<script>>\n```\n',
  );
}

/** Fills a home: Skilltray's home with its token and the probe skills, a project, decoys are the tests' own. */
function furnish(home: string, uid: number, gid: number): Pick<Actor, 'skilltrayHome' | 'project'> {
  const skilltrayHome = join(home, '.local', 'share', 'skilltray');
  const project = join(home, 'proj');
  for (const [name, frontmatter] of Object.entries(SKILLS)) {
    mkdirSync(join(skilltrayHome, 'skills', name), { recursive: true });
    writeFileSync(join(skilltrayHome, 'skills', name, 'SKILL.md'), probeSkill(name, frontmatter));
  }
  writeFileSync(join(skilltrayHome, 'token'), 'decoy-skilltray-api-token\n', { mode: 0o600 });
  mkdirSync(project, { recursive: true });
  execFileSync('chown', ['-R', `${uid}:${gid}`, home]);
  return { skilltrayHome, project };
}

function actorEnv(home: string, skilltrayHome: string, user: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    USER: user,
    LOGNAME: user,
    LANG: 'C.UTF-8',
    SKILLTRAY_HOME: skilltrayHome,
    ...ENV_DECOYS,
  };
}

const cleanups: (() => void | Promise<void>)[] = [];
// Removing the homes took 30 s on the loaded 2-core machine.
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, 120_000);

/** The pids of the live processes running as `uid`, read from /proc (a zombie has ended: only its parent's wait is missing). */
function processesOf(uid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^[0-9]+$/.test(entry))
    .filter((pid) => {
      try {
        const status = readFileSync(join('/proc', pid, 'status'), 'utf8');
        return new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status) && !/^State:\s+Z/m.test(status);
      } catch {
        return false; // it ended while we looked
      }
    })
    .map(Number);
}

/**
 * Removes the user the suite made, once nothing of theirs runs: a serve killed a moment ago, or a
 * run's sandbox it left, may still be exiting, and userdel refuses a user who is "currently used".
 * Every process of that user was started by this file, so all of them are ours to end.
 */
async function removeUser(name: string, uid: number): Promise<void> {
  // Bounded, so a process that will not end leaves userdel's own error rather than a hung suite.
  for (let round = 0; round < 500; round++) {
    const left = processesOf(uid);
    if (left.length === 0) break;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  execFileSync('userdel', ['--remove', name], { stdio: 'pipe' });
}

let cli: RunnableApp = { root: CHECKOUT, node: process.execPath };

/** Sets up the cast once per test file: root (when the suite is root) and an ordinary user. */
export function cast(): Cast {
  const uid = process.getuid?.() ?? -1;
  if (uid !== 0) {
    const home = mkdtempSync(join(CHECKOUT, 'test-results', 'hostile-home-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const gid = process.getgid?.() ?? uid;
    const places = furnish(home, uid, gid);
    return {
      root: 'the suite is not running as root, so nothing can be attacked as root here (.ci/run runs it as root)',
      user: { name: 'user', uid, gid, home, ...places, env: actorEnv(home, places.skilltrayHome, process.env.USER ?? 'user') },
    };
  }
  // Root: a home of its own under the checkout, never the real /root.
  mkdirSync(join(CHECKOUT, 'test-results'), { recursive: true });
  const rootHome = mkdtempSync(join(CHECKOUT, 'test-results', 'hostile-root-'));
  cleanups.push(() => rmSync(rootHome, { recursive: true, force: true }));
  const rootPlaces = furnish(rootHome, 0, 0);
  const root: Actor = { name: 'root', uid: 0, gid: 0, home: rootHome, ...rootPlaces, env: actorEnv(rootHome, rootPlaces.skilltrayHome, 'root') };

  const name = `skt${process.pid}`;
  let made: ReturnType<typeof madeUser>;
  try {
    made = madeUser(name, { home: true });
  } catch (error) {
    return { root, user: `useradd could not create a user here (${(error as Error).message.split('\n')[0] ?? ''})` };
  }
  const { uid: userUid, gid: userGid, home } = made;
  cleanups.push(() => removeUser(name, userUid));
  const places = furnish(home, userUid, userGid);
  cli = appForOrdinaryUser();
  return { root, user: { name: 'user', uid: userUid, gid: userGid, home, ...places, env: actorEnv(home, places.skilltrayHome, name) } };
}

/** Plants a user skill of the actor's own like the probe skills (one tool `sh` running a bash script), with `frontmatter`. */
export function scriptSkill(actor: Actor, name: string, frontmatter: Record<string, unknown>): void {
  plant(actor, { [`.local/share/skilltray/skills/${name}/SKILL.md`]: probeSkill(name, frontmatter) });
}

/** Writes files into the actor's home (or elsewhere), owned by them, as their own files would be. */
export function plant(actor: Actor, files: Record<string, string>, base = actor.home): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(base, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  execFileSync('chown', ['-R', `${actor.uid}:${actor.gid}`, base]);
}

/** What a command ended with. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A program run as the actor, outside any sandbox: the control that shows an attack would work without one. */
export async function asActor(actor: Actor, program: string, args: string[], cwd = actor.project): Promise<Outcome> {
  const setpriv = actor.uid === 0 ? [] : ['setpriv', `--reuid=${actor.uid}`, `--regid=${actor.gid}`, '--init-groups', '--'];
  const [file, ...rest] = [...setpriv, program, ...args];
  const result = await execa(file as string, rest, { cwd, env: actor.env, extendEnv: false, reject: false, stdin: 'ignore' });
  return { code: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `skilltray <argv…>` as the actor: the real command line, the fresh build. */
export function skilltray(actor: Actor, argv: string[], cwd = actor.project): Promise<Outcome> {
  return asActor(actor, cli.node, [join(cli.root, 'bin', 'skilltray.js'), ...argv], cwd);
}

/**
 * `skilltray serve` as the actor, once it says where it listens: the owner runs are forwarded to,
 * answered with `skilltray approve` / `deny`. Stopped (by its pid) when the file's tests end.
 */
export async function serveAs(actor: Actor): Promise<void> {
  const setpriv = actor.uid === 0 ? [] : ['setpriv', `--reuid=${actor.uid}`, `--regid=${actor.gid}`, '--init-groups', '--'];
  const [file, ...rest] = [...setpriv, cli.node, join(cli.root, 'bin', 'skilltray.js'), 'serve', '--port', '0'];
  const child = execa(file as string, rest, { cwd: actor.project, env: actor.env, extendEnv: false, reject: false, stdin: 'ignore' });
  cleanups.push(() => void child.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('Skilltray API on ')) resolve();
    });
    void child.then((ended) => reject(new Error(`skilltray serve ended before it listened: ${ended.stderr}`)));
  });
}

/** One request to the run driver: a tool call approved as at a terminal. */
export interface DriverRequest {
  skill: string;
  tool: string;
  args: Record<string, unknown>;
  cwd: string;
}

/** What the driver said of one request: the run's output, or the error that stopped it. */
export interface DriverOutcome {
  index: number;
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  swept?: string[];
  code?: string;
  message?: string;
}

/**
 * Runs `requests` in one process as the actor (the core of the fresh build over `env`, `concurrency`
 * at once; run-driver.mjs), so hundreds of runs take seconds; each request's outcome, in order.
 */
export async function drive(actor: Actor, env: Record<string, string>, requests: DriverRequest[], concurrency = 1): Promise<DriverOutcome[]> {
  const dir = mkdtempSync(join(tmpdir(), 'skilltray-drive-'));
  try {
    const file = join(dir, 'requests.json');
    writeFileSync(file, JSON.stringify({ env, requests, concurrency }));
    execFileSync('chmod', ['-R', 'a+rX', dir]);
    const run = await asActor(actor, cli.node, [join(cli.root, RUN_DRIVER), join(cli.root, 'dist', 'node'), cli.root, file], dir);
    const outcomes = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as DriverOutcome);
    if (outcomes.length !== requests.length) throw new Error(`the run driver answered ${outcomes.length} of ${requests.length} requests: ${run.stderr}`);
    return outcomes.sort((a, b) => a.index - b.index);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A contained run through the command line, approved at the terminal (--yes); its report, or the error it printed. */
export async function attack(
  actor: Actor,
  skill: string,
  tool: string,
  args: Record<string, unknown>,
  cwd = actor.project,
): Promise<{ outcome: Outcome; report: Record<string, unknown> }> {
  const outcome = await skilltray(actor, ['run', skill, tool, '--args', JSON.stringify(args), '--cwd', cwd, '--yes', '--json'], cwd);
  let report: Record<string, unknown> = {};
  try {
    report = JSON.parse(outcome.stdout) as Record<string, unknown>;
  } catch {
    // no JSON: the error is on stderr
  }
  return { outcome, report };
}

/** The run's result from a report. */
export function resultOf(report: Record<string, unknown>): {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  limitHit: string | null;
} {
  return report.result as { stdout: string; stderr: string; exitCode: number | null; timedOut: boolean; limitHit: string | null };
}

/** Lists a folder, or [] when it is gone. */
export function entries(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** Declares the same attacks as root and as the ordinary user; a half that cannot be played says why, as a skipped test. */
export function asRootAndUser(body: (actor: Actor) => void): void {
  beforeAll(() => requireSandbox());
  const players = cast();
  for (const who of ['root', 'user'] as const) {
    const actor = players[who];
    describe(`as ${who}`, () => {
      if (typeof actor === 'string') it.skip(`skipped: ${actor}`, () => undefined);
      else body(actor);
    });
  }
}
