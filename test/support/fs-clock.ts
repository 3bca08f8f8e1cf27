/**
 * Waiting for the filesystem's clock instead of the wall clock: file timestamps move in ticks of
 * the kernel's coarse clock, so two writes a moment apart can carry the same ctime. A test that
 * needs a later write to carry a later ctime waits for that tick, by watching a probe file's ctime.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Returns once a file written in `dir` gets a ctime after every one of `files`'. */
export function waitForFsTick(dir: string, files: readonly string[]): void {
  const latest = Math.max(...files.map((file) => statSync(file).ctimeMs));
  const probe = join(dir, '.fs-clock-probe');
  try {
    for (let i = 0; ; i++) {
      writeFileSync(probe, String(i));
      if (statSync(probe).ctimeMs > latest) return;
      if (i > 10_000_000) throw new Error('the filesystem clock did not move');
    }
  } finally {
    rmSync(probe, { force: true });
  }
}

/** Sets `file`'s mtime to `mtimeNs` with `touch -d @<seconds>.<nanoseconds>`, as a user can (only the ctime cannot be set back). */
export function touchMtime(file: string, mtimeNs: bigint): void {
  const seconds = mtimeNs / 1_000_000_000n;
  const fraction = String(mtimeNs % 1_000_000_000n).padStart(9, '0');
  execFileSync('touch', ['-m', '-d', `@${seconds}.${fraction}`, file]);
}

/** Returns once the filesystem's clock is `ms` past every one of `files`' ctime (polled by a probe file in `dir`). */
export async function waitForFsAge(dir: string, files: readonly string[], ms: number): Promise<void> {
  const due = Math.max(...files.map((file) => statSync(file).ctimeMs)) + ms;
  const probe = join(dir, '.fs-clock-probe');
  try {
    for (;;) {
      writeFileSync(probe, '');
      if (statSync(probe).ctimeMs > due) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    rmSync(probe, { force: true });
  }
}
