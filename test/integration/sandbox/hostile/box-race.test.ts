/**
 * Issue #38's folder race: the working folder was resolved once for the decision (the workspace
 * guard, the Always pin) and again to build the box, so a link flipped between a project and the
 * home in between made the home the run's writable folder, and let bundled read-only tools read it
 * unasked. A swapper flips the link as fast as it can while hundreds of runs of a writing tool and of
 * bundled read-only tools go through the core, as root and as an ordinary user: the swapper never
 * wins — no marker of the home in any output, nothing of the home changed.
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { asRootAndUser, drive, plant, type Actor, type DriverRequest } from './actors.js';
import { treeDigest } from './tree-digest.js';

const LONG = { timeout: 300_000 };

/** Runs of each kind raced against the swapper. */
const RUNS = 150;

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fake home full of markers, a project, and the link the swapper flips between them, owned by the actor. */
function playground(actor: Actor, marker: string): { base: string; home: string; project: string; link: string } {
  const base = mkdtempSync(join(tmpdir(), 'skilltray-race-'));
  made.push(base);
  const home = join(base, 'home');
  const project = join(base, 'proj');
  plant(
    actor,
    {
      'home/home-note.txt': `${marker}\n`,
      'home/.ssh/id_ed25519': `${marker}-ssh\n`,
      'home/.bashrc': `# ${marker}\n`,
      'home/Documents/notes.txt': `${marker}-notes\n`,
      'proj/readme.txt': 'project\n',
    },
    base,
  );
  mkdirSync(join(home, '.config', 'autostart'), { recursive: true });
  plant(actor, {}, base);
  return { base, home, project, link: join(base, 'link') };
}

/** Runs a swapper (a loop, as the actor) in `base` while `body` runs; it is killed by its pid afterwards. */
async function whileSwapping(actor: Actor, base: string, ready: string, loop: string[], body: () => Promise<void>): Promise<void> {
  const setpriv = actor.uid === 0 ? [] : ['setpriv', `--reuid=${actor.uid}`, `--regid=${actor.gid}`, '--init-groups', '--'];
  const [file, ...rest] = [...setpriv, ...loop];
  const swapper = execa(file as string, rest, { cwd: base, reject: false, stdin: 'ignore' });
  try {
    while (!existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 5));
    await body();
  } finally {
    swapper.kill('SIGKILL');
    await swapper;
  }
}

/**
 * RUNS runs of a writing tool and RUNS of bundled read-only tools in `cwd`, three at a time; none may show the marker, and at least `ran` ran.
 * How many of the writing runs ran (each request's outcome comes back at its index: the writing ones at even indexes).
 */
async function race(actor: Actor, home: string, cwd: string, marker: string, ran: number): Promise<number> {
  const write = `printf ran > written-by-run.txt; printf x > .config/autostart/updater.desktop; ls -a; cat ./*.txt`;
  const requests: DriverRequest[] = [];
  for (let i = 0; i < RUNS; i++) {
    requests.push({ skill: 'probe-ws', tool: 'sh', args: { script: write }, cwd });
    requests.push(
      i % 2 === 0 ? { skill: 'files', tool: 'list_directory', args: {}, cwd } : { skill: 'files', tool: 'file_head', args: { path: 'home-note.txt' }, cwd },
    );
  }
  const outcomes = await drive(actor, { ...actor.env, HOME: home }, requests, 3);
  for (const outcome of outcomes) {
    expect(`${outcome.stdout ?? ''}${outcome.stderr ?? ''}${outcome.message ?? ''}`, JSON.stringify(outcome)).not.toContain(marker);
    // A listing of the home would name its note; file_head's own error names it too, on stderr.
    expect(outcome.stdout ?? '', JSON.stringify(outcome)).not.toContain('home-note');
  }
  // The runs did run (a few, whatever the load: how many land on the project is the scheduler's), so the swapper was raced, not waited out.
  expect(outcomes.filter((outcome) => outcome.exitCode === 0).length).toBeGreaterThanOrEqual(ran);
  return outcomes.filter((outcome, index) => index % 2 === 0 && outcome.exitCode === 0).length;
}

/** A writing run that ran wrote in the project, and none wrote in the home (which of the runs land on the project is the scheduler's). */
function expectWrittenInProjectOnly(project: string, home: string, wrote: number): void {
  if (wrote > 0) expect(readFileSync(join(project, 'written-by-run.txt'), 'utf8')).toBe('ran');
  expect(existsSync(join(home, 'written-by-run.txt'))).toBe(false);
}

asRootAndUser((actor) => {
  it('a link flipped between a project and the home while hundreds of runs start never lets a run see or change the home', LONG, async () => {
    const marker = `MARKER${process.pid}${actor.name}`;
    const { base, home, project, link } = playground(actor, marker);
    const before = treeDigest(home);
    const flips = 'while :; do ln -sfn proj link.a && mv -T link.a link; ln -sfn home link.b && mv -T link.b link; done';
    let wrote = 0;
    await whileSwapping(actor, base, link, ['bash', '-c', flips], async () => {
      wrote = await race(actor, home, link, marker, 5);
    });
    expectWrittenInProjectOnly(project, home, wrote);
    expect(treeDigest(home)).toBe(before);
  });

  it(
    'the project folder itself moved away and a link to the home put in its place, again and again, never lets a run see or change the home',
    LONG,
    async () => {
      const marker = `MARKER${process.pid}${actor.name}`;
      const { base, home, project } = playground(actor, marker);
      const before = treeDigest(home);
      // The project stays in place a few milliseconds each round, so runs open it and then, starting, find it gone: most fail
      // closed (bubblewrap 0.8 looks a descriptor's path up again, and stops when it is not the same folder), a few run.
      const renames = [
        'import os, time',
        'while True:',
        "    os.rename('proj', 'proj.away'); os.symlink('home', 'proj'); time.sleep(0.002)",
        "    os.unlink('proj'); os.rename('proj.away', 'proj'); time.sleep(0.005)",
      ].join('\n');
      let wrote = 0;
      await whileSwapping(actor, base, project, ['python3', '-c', renames], async () => {
        wrote = await race(actor, home, project, marker, 5);
      });
      // The swapper stopped wherever it was: the project back in its place.
      const away = join(base, 'proj.away');
      if (existsSync(away)) {
        rmSync(project, { force: true });
        renameSync(away, project);
      }
      expectWrittenInProjectOnly(project, home, wrote);
      expect(treeDigest(home)).toBe(before);
    },
  );
});
