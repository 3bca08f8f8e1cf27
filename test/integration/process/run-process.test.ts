import { chmodSync, closeSync, existsSync, mkdirSync, openSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import type { RunResult } from '../../../src-main/shared/model.js';
import { droppedMarker } from '../../../src-main/core/process/capped-output.js';
import { DEFAULT_OUTPUT_CAP, runProcess, type ProcessSpec } from '../../../src-main/core/process/run-process.js';
import { fdLayout } from '../../../src-main/core/process/sandbox/bubblewrap.js';
import { buildToolEnv, systemPath } from '../../../src-main/core/process/tool-env.js';
import { fixture, tempDir } from './process-helpers.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function node(script: string, args: string[], overrides: Partial<ProcessSpec> = {}): Promise<RunResult> {
  return runProcess({
    program: process.execPath,
    args: [fixture(script), ...args],
    cwd: dir,
    env: buildToolEnv(process.env, []),
    timeoutMs: 10_000,
    maxOutputBytes: DEFAULT_OUTPUT_CAP,
    ...overrides,
  });
}

async function spawnError(spec: Partial<ProcessSpec>): Promise<SkilltrayError> {
  const error = await node('behave.mjs', [], spec).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SkilltrayError);
  return error as SkilltrayError;
}

describe('runProcess results', () => {
  it('captures stdout and stderr of a clean exit', async () => {
    const result = await node('behave.mjs', ['out:hello ', 'err:warn', 'out:wörld']);
    expect(result).toMatchObject({
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      stdout: 'hello wörld',
      stderr: 'warn',
      droppedBytes: { stdout: 0, stderr: 0 },
    });
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('returns a non-zero exit as a result, not an error', async () => {
    const result = await node('behave.mjs', ['err:bad input', 'exit:3']);
    expect(result).toMatchObject({ exitCode: 3, signal: null, stderr: 'bad input', timedOut: false });
  });

  it('reports the signal that ended a tool', async () => {
    const result = await node('behave.mjs', ['out:before', 'signal:SIGUSR2']);
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGUSR2', stdout: 'before', timedOut: false, cancelled: false });
  });

  it('measures the duration from spawn to exit', async () => {
    const result = await node('behave.mjs', ['sleep:300']);
    expect(result.durationMs).toBeGreaterThanOrEqual(300);
  });

  it('runs in the given cwd with stdin closed', async () => {
    const result = await node('print-context.mjs', []);
    expect(JSON.parse(result.stdout)).toEqual({ cwd: realpathSync(dir), stdin: '' });
  });

  it('keeps head and tail of each stream within the cap and counts what it dropped', async () => {
    const text = 'abcdefghijklmnopqrstuvwxyz';
    const result = await node('behave.mjs', [`out:${text}`, `err:${text.toUpperCase()}`], { maxOutputBytes: 10 });
    expect(result.stdout).toBe(`abcde${droppedMarker(16)}vwxyz`);
    expect(result.stderr).toBe(`ABCDE${droppedMarker(16)}VWXYZ`);
    expect(result.droppedBytes).toEqual({ stdout: 16, stderr: 16 });
  });

  it('streams live output only while the head fills', async () => {
    const live: string[] = [];
    const result = await node('behave.mjs', ['out:0123', 'sleep:50', 'out:4567', 'sleep:50', 'out:89abcdef'], {
      maxOutputBytes: 12,
      onOutput: (stream, text) => live.push(`${stream}:${text}`),
    });
    expect(live.join('')).toBe('stdout:0123stdout:45');
    expect(result.stdout).toBe(`012345${droppedMarker(4)}abcdef`);
  });

  it('streams all of a small output live, split by stream', async () => {
    const live = { stdout: '', stderr: '' };
    const result = await node('behave.mjs', ['out:é', 'err:è', 'out:ü'], {
      onOutput: (stream, text) => {
        live[stream] += text;
      },
    });
    expect(live).toEqual({ stdout: result.stdout, stderr: result.stderr });
    expect(live).toEqual({ stdout: 'éü', stderr: 'è' });
  });
});

describe('runProcess never uses a shell', () => {
  it('passes shell syntax through verbatim and runs none of it', async () => {
    const home = join(dir, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'canary'), 'still here');
    const marker = join(dir, 'x');
    const hostile = [`$(touch ${marker}); rm -rf ~`, `\`touch ${marker}\``, `; touch ${marker}`, '| cat', '&& exit 7', '*', '"\'', ''];
    const result = await node('print-argv.mjs', hostile, { env: { ...buildToolEnv(process.env, []), HOME: home } });
    expect(JSON.parse(result.stdout)).toEqual(hostile);
    expect(result.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(home, 'canary'))).toBe(true);
  });

  it('delivers any argument vector unchanged', async () => {
    const shellish = fc.string({
      unit: fc.constantFrom('$', '(', ')', ';', '`', '"', "'", '\\', '|', '&', '*', '~', ' ', '\n', '<', '>', '{', '}', '!', '-', 'a', '='),
    });
    const anything = fc.string({ unit: 'binary' }).filter((s) => !s.includes('\0'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(shellish, anything), { maxLength: 6 }), async (args) => {
        const result = await node('print-argv.mjs', args);
        expect(JSON.parse(result.stdout)).toEqual(args);
      }),
      { numRuns: 25 },
    );
  });
});

describe('runProcess environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ['SECRET_TOKEN', 'MY_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'SKILLTRAY_TOKEN', 'LC_ALL', 'LANG']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('gives the tool the allow-list and declared names only', async () => {
    Object.assign(process.env, {
      SECRET_TOKEN: 'secret',
      MY_API_KEY: 'declared',
      GITHUB_TOKEN: 'gh',
      AWS_SECRET_ACCESS_KEY: 'aws',
      SKILLTRAY_TOKEN: 'ours',
      LC_ALL: 'C.UTF-8',
      LANG: 'C.UTF-8',
    });
    const env = buildToolEnv(process.env, ['MY_API_KEY']);
    const seen = JSON.parse((await node('print-env.mjs', [], { env })).stdout) as Record<string, string>;
    expect(seen).toEqual(env);
    expect(seen).not.toHaveProperty('SECRET_TOKEN');
    expect(seen).not.toHaveProperty('GITHUB_TOKEN');
    expect(seen).not.toHaveProperty('AWS_SECRET_ACCESS_KEY');
    expect(seen).not.toHaveProperty('SKILLTRAY_TOKEN');
    expect(seen).toMatchObject({
      MY_API_KEY: 'declared',
      PATH: systemPath(process.env.PATH ?? '', process.platform),
      HOME: process.env.HOME,
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
    });
  });
});

describe('runProcess refusals', () => {
  it('throws E701 naming a missing program', async () => {
    const error = await spawnError({ program: join(dir, 'missing-tool'), args: [] });
    expect(error.code).toBe('E701');
    expect(error.message).toBe(`cannot start '${join(dir, 'missing-tool')}': no such file`);
    expect(error.details).toMatchObject({ program: join(dir, 'missing-tool'), errno: 'ENOENT' });
  });

  it('throws E701 for a file that is not executable', async () => {
    const file = join(dir, 'script');
    writeFileSync(file, '#!/bin/sh\necho hi\n');
    chmodSync(file, 0o644);
    const error = await spawnError({ program: file, args: [] });
    expect(error.code).toBe('E701');
    expect(error.message).toContain('permission denied');
  });

  it('throws E701 for a working directory that does not exist', async () => {
    const error = await spawnError({ cwd: join(dir, 'gone') });
    expect(error.code).toBe('E701');
    expect(error.message).toContain(`working directory '${join(dir, 'gone')}' does not exist`);
  });

  it('throws E704 for a relative program, a NUL byte or limits it cannot honour', async () => {
    for (const spec of [
      { program: 'node' },
      { timeoutMs: 0 },
      { timeoutMs: 2 ** 31 },
      { timeoutMs: 1.5 },
      { maxOutputBytes: -1 },
      { killGraceMs: Number.NaN },
      { args: ['a\0b'] },
      { env: { PATH: 'x\0y' } },
    ]) {
      const error = await spawnError(spec);
      expect(error.code, JSON.stringify(spec)).toBe('E704');
    }
  });

  it('hands over what the program reported on the fd after its inputs once it ended (the relay names full folders there), apart from its output', async () => {
    const texts: string[] = [];
    const report = "require('fs').writeSync(4, 'full /dev/shm\\n'); console.log('out')";
    const result = await runProcess({
      program: process.execPath,
      args: ['-e', report],
      cwd: dir,
      env: buildToolEnv(process.env, []),
      timeoutMs: 10_000,
      maxOutputBytes: DEFAULT_OUTPUT_CAP,
      inputs: [new Uint8Array([1, 2, 3])],
      reported: (text) => texts.push(text),
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'out\n' });
    expect(texts).toEqual(['full /dev/shm\n']);
    expect(result).not.toHaveProperty('report');
  });

  it('places each descriptor where fdLayout numbers it: the inputs, the descriptors passed on, the report last', { timeout: 30_000 }, async () => {
    const passed = join(dir, 'passed');
    writeFileSync(passed, 'passed-file\n');
    const fd = openSync(passed, 'r');
    const at = fdLayout({ inputs: 1, bound: 1 });
    const texts: string[] = [];
    try {
      const result = await runProcess({
        program: '/usr/bin/bwrap',
        args: [
          '--bind',
          '/',
          '/',
          '--unshare-pid',
          '--die-with-parent',
          '--',
          '/bin/sh',
          '-c',
          `cat <&${at.inputs}; cat <&${at.bound}; echo reported >&${at.report}`,
        ],
        cwd: dir,
        env: buildToolEnv(process.env, []),
        timeoutMs: 10_000,
        maxOutputBytes: DEFAULT_OUTPUT_CAP,
        inputs: [new TextEncoder().encode('input-bytes\n')],
        fds: [fd],
        reported: (text) => texts.push(text),
      });
      expect(result, result.stderr).toMatchObject({ exitCode: 0, stdout: 'input-bytes\npassed-file\n' });
    } finally {
      closeSync(fd);
    }
    expect(texts).toEqual(['reported\n']);
  });
});
