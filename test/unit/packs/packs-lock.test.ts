import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stagingDir } from '../../../src-main/core/packs/layout.js';
import { withPacksLock } from '../../../src-main/core/packs/transaction.js';
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
  it('is written as "<pid> <start token>" while held, and removed after', async () => {
    const home = tempDir();
    const self = thisProcess();
    const seen = await withPacksLock(home, () => readFileSync(join(stagingDir(home), 'lock'), 'utf8'));
    expect(seen).toBe(`${self.pid} ${self.started}`);
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
