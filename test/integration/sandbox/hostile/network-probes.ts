/**
 * For the hostile network tests: probe skills that run one bash script with the network their
 * frontmatter declares, run through the real CLI (`bin/skilltray.js run … --yes`) as whoever the
 * test names — this process's user, and when that is root, an ordinary user made for the test
 * with useradd (test/support/ordinary-user.ts madeUser), since most people are not root.
 */
import { chownSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { RunRecord, RunReport } from '../../../../src-main/shared/runs.js';
import { madeUser } from '../../../support/ordinary-user.js';
import { appForOrdinaryUser } from '../../../support/reachable.js';
import { skillMd, testHome, writeSkill, type TestHome } from '../../../support/temp.js';

/**
 * Who runs Skilltray in a test: a name for the test title, the uid/gid to run the CLI as (none:
 * this process's own), and the network namespace it runs in (none: this process's).
 */
export interface RunAs {
  label: string;
  ids: { uid: number; gid: number } | null;
  netns?: string;
}

/** The ordinary user these tests make when they run as root. */
const USER = 'skilltray-net';

/** This process's user, and as root an ordinary one too. */
export function whoRuns(): RunAs[] {
  const root = process.getuid?.() === 0;
  const self: RunAs = { label: root ? 'as root' : 'as an unprivileged user', ids: null };
  if (!root) return [self];
  const { uid, gid } = madeUser(USER);
  return [self, { label: 'as an unprivileged user', ids: { uid, gid } }];
}

/** Hands everything under `dir` to the user who will run there. */
function chownTree(dir: string, ids: { uid: number; gid: number }): void {
  chownSync(dir, ids.uid, ids.gid);
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) chownSync(join(dir, entry), ids.uid, ids.gid);
}

/** A SKILL.md whose one tool `sh` runs a bash script, read-only, with `network` as declared. */
function probeSkill(name: string, network: unknown): string {
  return skillMd(
    { name, description: `Runs a bash script to probe the network (${name}).`, version: '1.0.0', read_only: true, network },
    '\n### sh\n\nRuns the script.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| script | string | yes | bash script |\n\n#### Command\n\n```\nbash -c <<script>>\n```\n',
  );
}

/** A test home with one probe skill per entry (name → its `network:`), handed to `who`. */
export function networkHome(skills: Record<string, unknown>, who: RunAs): TestHome {
  const t = testHome();
  for (const [name, network] of Object.entries(skills)) writeSkill(t.skills, name, probeSkill(name, network));
  if (who.ids !== null) {
    // The temp folders above are this test's alone; the user must reach them through their parent.
    chownTree(join(t.home, '..'), who.ids);
    if ((statSync(join(t.home, '..', '..')).mode & 0o005) !== 0o005) throw new Error('the test home must lie under a folder others can enter');
  }
  return t;
}

/** `program ARGS` as `who`, with the test home's environment, in its work folder (a run never works in a home folder). */
async function runAs(t: TestHome, who: RunAs, program: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const options = { env: { ...t.env, PATH: process.env.PATH }, extendEnv: false, cwd: t.work, reject: false, stdin: 'ignore' } as const;
  // Into a namespace as root (ip netns exec), then down to the user.
  const setpriv = who.ids === null ? [] : ['setpriv', `--reuid=${who.ids.uid}`, `--regid=${who.ids.gid}`, '--clear-groups', '--'];
  const result =
    who.netns === undefined
      ? await execa(program, args, { ...options, ...(who.ids === null ? {} : { uid: who.ids.uid, gid: who.ids.gid }) })
      : await execa('ip', ['netns', 'exec', who.netns, ...setpriv, program, ...args], options);
  return { code: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `skilltray ARGV` as `who`, from the fresh build (a copy an ordinary user can read, where it cannot read the checkout). */
export function skilltray(t: TestHome, who: RunAs, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const app = who.ids === null ? { root: join(import.meta.dirname, '..', '..', '..', '..'), node: process.execPath } : appForOrdinaryUser();
  return runAs(t, who, app.node, [join(app.root, 'bin', 'skilltray.js'), ...argv]);
}

/** Runs `script` with probe skill `skill`, approved at the terminal (`--yes`); the run's report. */
export async function runProbe(t: TestHome, who: RunAs, skill: string, script: string): Promise<RunReport> {
  const out = await skilltray(t, who, ['run', skill, 'sh', '--arg', `script=${script}`, '--yes', '--json']);
  if (out.stdout === '') throw new Error(`skilltray run ${skill} printed nothing (exit ${out.code}): ${out.stderr}`);
  return JSON.parse(out.stdout) as RunReport;
}

/** The run as history keeps it, read back by the CLI as `who`. */
export async function recorded(t: TestHome, who: RunAs, id: string): Promise<{ record: RunRecord; text: string }> {
  const json = await skilltray(t, who, ['history', id, '--json']);
  const text = await skilltray(t, who, ['history', id]);
  return { record: JSON.parse(json.stdout) as RunRecord, text: text.stdout };
}

/** `script` run by bash as `who` with no sandbox at all: the control that shows a probe can succeed. */
export async function outside(t: TestHome, who: RunAs, script: string): Promise<string> {
  return (await runAs(t, who, 'bash', ['-c', script])).stdout;
}

/** A word for bash: single-quoted, any quote inside closed and escaped. */
export function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
