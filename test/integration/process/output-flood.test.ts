import { describe, expect, it } from 'vitest';
import { droppedMarker } from '../../../src-main/core/process/capped-output.js';
import { DEFAULT_OUTPUT_CAP, runProcess } from '../../../src-main/core/process/run-process.js';
import { buildToolEnv } from '../../../src-main/core/process/tool-env.js';
import { fixture } from './process-helpers.js';

const GIB = 2 ** 30;

describe('runProcess under a flood of output', () => {
  it('keeps memory bounded while a tool prints a gigabyte', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    let liveChars = 0;
    let liveCalls = 0;
    const result = await runProcess({
      program: process.execPath,
      args: [fixture('flood.mjs'), String(GIB)],
      cwd: process.cwd(),
      env: buildToolEnv(process.env, []),
      timeoutMs: 120_000,
      maxOutputBytes: DEFAULT_OUTPUT_CAP,
      onOutput: (stream, text) => {
        if (stream === 'stdout') {
          liveChars += text.length;
          liveCalls += 1;
        }
      },
    }).finally(() => clearInterval(sampler));
    peak = Math.max(peak, process.memoryUsage().rss);

    expect(result).toMatchObject({ exitCode: 0, timedOut: false, stderr: 'END' });
    // The pattern is ASCII, so kept bytes are characters: the whole cap is kept, the rest dropped.
    expect(result.droppedBytes).toEqual({ stdout: GIB - DEFAULT_OUTPUT_CAP, stderr: 0 });
    expect(result.stdout.length).toBe(DEFAULT_OUTPUT_CAP + droppedMarker(GIB - DEFAULT_OUTPUT_CAP).length);
    expect(result.stdout.startsWith('abcdefghijklmnopqrstuvwxyz0123456789\nabc')).toBe(true);
    expect(result.stdout).toContain(droppedMarker(GIB - DEFAULT_OUTPUT_CAP));
    // Live output stopped when the head was full.
    expect(liveChars).toBe(DEFAULT_OUTPUT_CAP / 2);
    expect(liveCalls).toBeLessThan(1000);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  }, 120_000);
});
