/**
 * Issue #38's /etc race, as root: the box covered each entry of /etc others may not read with a
 * mount, found by a walk; `useradd` in another test removed /etc/group.lock between the walk and
 * bwrap's mount, and bwrap failed the run ("Can't create file at /etc/group.lock"); an entry made
 * after the walk (a `shadow+` while the password files are rewritten) showed unmasked. Now a run as
 * root gets a copy of what others may read (system-copy.ts). A churner stands in for useradd in a
 * scratch folder standing in for /etc (the real one is shared with everything else on the machine):
 * it makes and removes root-only lock and `+` files carrying a marker, and renames readable files
 * into place, as fast as it can, while boxes are built from copies of that folder and read all of
 * it. Every box starts, and no marker is ever read.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { resolveProgram } from '../../../../src-main/core/process/resolve-program.js';
import { bubblewrapNetwork } from '../../../../src-main/core/process/sandbox/bubblewrap-network.js';
import { bubblewrapArgs, sizesTmpfs } from '../../../../src-main/core/process/sandbox/bubblewrap.js';
import type { RunPlaces } from '../../../../src-main/core/process/sandbox/sandbox.js';
import { copyShown } from '../../../../src-main/core/process/sandbox/system-copy.js';
import { systemView } from '../../../../src-main/core/process/sandbox/system-paths.js';

const bwrap = resolveProgram('bwrap', process.env, '/');
const sh = resolveProgram('sh', process.env, '/');

/** Boxes built while the churner runs. */
const BOXES = 30;

/** Where the stand-in appears in the box: a folder of the host the box does not otherwise show. */
const STAND_IN = '/srv';

/** Makes and removes what useradd and an editor make in /etc, in a loop, until killed; says `churning` once it has begun. */
const CHURN = `
const { writeFileSync, renameSync, unlinkSync } = require('node:fs');
const { join } = require('node:path');
const dir = process.argv[1];
let wrote = false;
for (let i = 0; ; i++) {
  for (const name of ['group.lock', 'passwd.lock', 'shadow+', 'sub/.passwd.swp']) writeFileSync(join(dir, name), 'MARKER root-only', { mode: 0o600 });
  writeFileSync(join(dir, 'passwd+'), 'passwd ' + i + '\\n', { mode: 0o644 });
  renameSync(join(dir, 'passwd+'), join(dir, 'passwd'));
  for (const name of ['group.lock', 'passwd.lock', 'shadow+', 'sub/.passwd.swp']) unlinkSync(join(dir, name));
  if (!wrote) process.stdout.write('churning\\n');
  wrote = true;
}
`;

const made: string[] = [];
const churners: ChildProcess[] = [];
afterEach(() => {
  for (const child of churners.splice(0)) child.kill('SIGKILL');
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts the churner on `dir` and waits until it has made and removed its files once. */
async function churn(dir: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', CHURN, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  churners.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the churner ended (${String(code)}) before it began`)));
  });
}

it.runIf(process.getuid?.() === 0 && bwrap !== null && sh !== null)(
  'as root, every box starts and reads no root-only file while files of its /etc come and go',
  { timeout: 120_000 },
  async () => {
    const base = mkdtempSync(join(tmpdir(), 'skilltray-churn-'));
    made.push(base);
    const etc = join(base, 'etc');
    mkdirSync(join(etc, 'sub'), { recursive: true });
    writeFileSync(join(etc, 'hosts'), 'hosts\n');
    writeFileSync(join(etc, 'passwd'), 'passwd\n');
    writeFileSync(join(etc, 'sub', 'shown'), 'shown\n');
    writeFileSync(join(etc, 'shadow'), 'MARKER shadow\n', { mode: 0o600 });
    await churn(etc);
    const sizes = sizesTmpfs(bwrap as string);
    const view = systemView('linux', true);
    for (let i = 0; i < BOXES; i++) {
      const copy = copyShown(etc, new Set());
      expect(copy).not.toBeNull();
      const run = join(base, `run-${i}`);
      mkdirSync(join(run, 'home'), { recursive: true });
      const places: RunPlaces = {
        profile: { name: 'read-only', network: false, hosts: [] },
        cwd: run,
        skillDir: run,
        snapshotDir: run,
        tempDir: run,
        userHome: join(run, 'home'),
        homeDir: join(run, 'home'),
        system: { dirs: [...view.dirs, { path: STAND_IN, source: copy?.dir as string }], secrets: view.secrets },
        binds: [],
        guarded: [],
        sockets: [],
        masks: [],
      };
      const inputs = bubblewrapNetwork(places, null).inputs.map((input, n) => {
        writeFileSync(join(run, `input-${n}`), input);
        return openSync(join(run, `input-${n}`), 'r');
      });
      try {
        const result = spawnSync(
          bwrap as string,
          [...bubblewrapArgs(places, { sizes }), '--', sh as string, '-c', `cat ${STAND_IN}/* ${STAND_IN}/sub/* ${STAND_IN}/.[!.]* 2>/dev/null; echo started`],
          {
            stdio: ['ignore', 'pipe', 'pipe', ...inputs],
            encoding: 'utf8',
            timeout: 30_000,
          },
        );
        expect(result.stderr, `box ${i}`).toBe('');
        expect(result.status, `box ${i}`).toBe(0);
        expect(result.stdout, `box ${i}`).toMatch(/^hosts$/m);
        expect(result.stdout, `box ${i}`).toMatch(/started\n$/);
        expect(result.stdout, `box ${i}`).not.toContain('MARKER');
      } finally {
        for (const fd of inputs) closeSync(fd);
      }
    }
  },
);
