/**
 * FlushAhead starts a big temp file on its way to disk while it is still written: best effort, so
 * a file it cannot open costs nothing, and its one handle is closed once the file is finished and
 * every flush it started is done (a build leaves no descriptor behind).
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FlushAhead } from '../../../src-main/core/files/atomic-write.js';

const dir = mkdtempSync(join(tmpdir(), 'skilltray-flush-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How many descriptors this process holds on `path` (Linux: /proc/self/fd). */
function handlesOn(path: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) count++;
    } catch {
      // Closed since it was listed (the listing's own descriptor among them).
    }
  }
  return count;
}

describe.runIf(process.platform === 'linux')('FlushAhead', () => {
  it('holds one handle however many flushes it starts, and closes it once finished and flushed', async () => {
    const file = join(dir, 'index.db.tmp');
    writeFileSync(file, Buffer.alloc(1 << 20, 7));
    const ahead = new FlushAhead(file);
    ahead.flush();
    ahead.flush();
    ahead.flush();
    expect(handlesOn(file)).toBe(1);
    ahead.finish();
    await vi.waitFor(() => expect(handlesOn(file)).toBe(0));
  });

  it('opens nothing once finished, and a file it cannot open is no error', async () => {
    const file = join(dir, 'finished.db.tmp');
    writeFileSync(file, 'x');
    const ahead = new FlushAhead(file);
    ahead.finish();
    ahead.flush();
    expect(handlesOn(file)).toBe(0);

    const gone = new FlushAhead(join(dir, 'never-written.tmp'));
    expect(() => gone.flush()).not.toThrow();
    gone.finish();
  });
});
