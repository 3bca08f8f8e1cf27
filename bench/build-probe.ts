/**
 * One index build timed inside its own process (`node dist/node/bench/build-probe.js <skill dir>
 * <runtime dir>`), printing `{"ms": …}`: the build's own cost, without node's start or the heap of
 * the bench that runs it (which holds every section of the raw baseline).
 */
import { performance } from 'node:perf_hooks';
import { buildIndex } from '../src-main/core/search/skill-index.js';

const [dir, runtime] = process.argv.slice(2) as [string, string];
const start = performance.now();
const result = buildIndex(dir, runtime);
process.stdout.write(`${JSON.stringify({ ms: performance.now() - start, sections: result.sections })}\n`);
