import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stagingDir } from '../../../src-main/core/packs/layout.js';
import { withPacksLock, workDir } from '../../../src-main/core/packs/transaction.js';
import { processStartTime, thisProcess } from '../../../src-main/core/process-identity.js';
import { rejectionOf } from '../../support/errors.js';
import { tempDir } from '../../support/temp.js';

/** A home whose packs lock names `holder` as written by the process that took it. */
function lockedBy(holder: string): string {
  const home = tempDir();
  mkdirSync(stagingDir(home), { recursive: true });
  writeFileSync(join(stagingDir(home), 'lock'), holder);
  return home;
}

describe('the packs lock (.staging/lock) names its holder by pid and start time', () => {
  it('is written as "<pid> <start token> <hold token>" while held, and removed after', async () => {
    const home = tempDir();
    const self = thisProcess();
    const seen = await withPacksLock(home, () => readFileSync(join(stagingDir(home), 'lock'), 'utf8'));
    expect(seen).toMatch(new RegExp(`^${self.pid} ${self.started} [0-9a-f-]{36}$`));
    await expect(withPacksLock(home, () => 'again')).resolves.toBe('again');
  });

  it('a live holder (the pid with its own start time) keeps it: E308 naming the pid', async () => {
    const parent = process.ppid;
    const home = lockedBy(`${parent} ${processStartTime(parent) ?? ''}`);
    const error = await rejectionOf(withPacksLock(home, () => 'ran'));
    expect(error.code).toBe('E308');
    expect(error.details).toEqual({ pid: parent });
  });

  it('a holder whose pid now names another process (a different start time) is dead: its lock is taken over', async () => {
    const parent = process.ppid;
    const started = processStartTime(parent);
    if (started === '' || started === null) throw new Error('this test needs /proc start times (Linux)');
    const home = lockedBy(`${parent} ${Number(started) + 1}`);
    await expect(withPacksLock(home, () => 'ran')).resolves.toBe('ran');
  });
});

describe('changes in one process take the packs lock one after another', () => {
  it("a second change waits for the first: neither deletes the other's staging or lock", async () => {
    const home = tempDir();
    const order: string[] = [];
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    let finishFirst!: () => void;
    const held = new Promise<void>((resolve) => (finishFirst = resolve));
    const first = withPacksLock(home, async () => {
      mkdirSync(workDir(home, 'first-work'), { recursive: true });
      firstStarted();
      await held;
      order.push('first done');
      return existsSync(workDir(home, 'first-work'));
    });
    await started;
    const second = withPacksLock(home, () => {
      order.push('second ran');
      return readdirSync(stagingDir(home)).sort();
    });
    // The second is queued, not refused and not running, while the first holds the lock.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    finishFirst();
    expect(await first).toBe(true);
    // The first's leftovers were cleaned by the second's recovery only after the first released.
    expect(await second).toEqual(['lock']);
    expect(order).toEqual(['first done', 'second ran']);
    expect(existsSync(join(stagingDir(home), 'lock'))).toBe(false);
  });

  it('a failed change does not block the next one', async () => {
    const home = tempDir();
    const failed = withPacksLock(home, () => {
      throw new Error('boom');
    });
    const next = withPacksLock(home, () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('many changes started at once each hold the lock alone', async () => {
    const home = tempDir();
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        withPacksLock(home, async () => {
          inside++;
          most = Math.max(most, inside);
          for (let n = 0; n < i % 3; n++) await new Promise<void>((resolve) => setImmediate(resolve));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
  });

  it('a lock naming this very process (pid and start time) is a live holder: E308, and it is left in place', async () => {
    const self = thisProcess();
    const home = lockedBy(`${self.pid} ${self.started} other-hold`);
    const error = await rejectionOf(withPacksLock(home, () => 'ran'));
    expect(error.code).toBe('E308');
    expect(readFileSync(join(stagingDir(home), 'lock'), 'utf8')).toBe(`${self.pid} ${self.started} other-hold`);
  });

  it("a lock naming this pid with no start time is an older version's, left before this process: taken over", async () => {
    const home = lockedBy(`${process.pid}`);
    await expect(withPacksLock(home, () => 'ran')).resolves.toBe('ran');
  });

  it('a release removes only the lock it wrote, never one another holder wrote meanwhile', async () => {
    const home = tempDir();
    const lock = join(stagingDir(home), 'lock');
    await withPacksLock(home, () => {
      // Another holder took over (say, it judged this one dead): its lock must survive this release.
      rmSync(lock);
      writeFileSync(lock, '1 2 someone-else');
    });
    expect(readFileSync(lock, 'utf8')).toBe('1 2 someone-else');
  });
});
