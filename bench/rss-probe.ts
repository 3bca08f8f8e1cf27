/**
 * Loaded with `node --import` into a process the bench times: at exit, writes the process's peak
 * resident memory (KiB) to the file named by SKILLTRAY_BENCH_RSS.
 */
import { writeFileSync } from 'node:fs';

const out = process.env.SKILLTRAY_BENCH_RSS;
if (out !== undefined) process.on('exit', () => writeFileSync(out, String(process.resourceUsage().maxRSS)));
