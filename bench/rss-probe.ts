/**
 * Loaded with `node --import` into a process the bench times: at exit, writes the process's peak
 * resident memory (KiB) to the file named by SKILLTRAY_BENCH_RSS. On Linux that is VmHWM, the
 * peak of this program's own memory: getrusage's maxrss also counts the parent's memory at fork,
 * which a bench process of hundreds of MiB would lend every child it starts.
 */
import { readFileSync, writeFileSync } from 'node:fs';

function peakKib(): number {
  try {
    const match = readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
    if (match) return Number(match[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

const out = process.env.SKILLTRAY_BENCH_RSS;
if (out !== undefined) process.on('exit', () => writeFileSync(out, String(peakKib())));
