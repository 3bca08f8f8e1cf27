import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { readProcessTable, terminateTree, type ProcessEntry } from '../../../src-main/core/process/process-tree.js';
import { isDead } from './process-helpers.js';

describe.skipIf(process.platform === 'win32')('readProcessTable', () => {
  // The ps reader is macOS's; procps on Linux takes the same options, so both readers run here.
  const readers = process.platform === 'linux' ? (['linux', 'darwin'] as const) : (['darwin'] as const);
  it.each(readers)('lists this process with its parent and group (%s reader)', async (platform) => {
    const table = await readProcessTable(platform);
    const self = table.find((entry) => entry.pid === process.pid);
    expect(self).toMatchObject({ ppid: process.ppid, zombie: false });
    expect(self?.pgid).toBeGreaterThan(0);
    expect(table.length).toBeGreaterThan(2);
  });

  it.runIf(process.platform === 'linux')('agrees between /proc and ps on the chain of ancestors of this process', async () => {
    // Other processes may come, go or be re-parented between the two reads; this chain cannot.
    const chain = (table: ProcessEntry[]): ProcessEntry[] => {
      const byPid = new Map(table.map((entry) => [entry.pid, entry]));
      const out: ProcessEntry[] = [];
      for (let entry = byPid.get(process.pid); entry !== undefined; entry = byPid.get(entry.ppid)) out.push({ ...entry, started: '' });
      return out;
    };
    const fromProc = chain(await readProcessTable('linux'));
    expect(fromProc.length).toBeGreaterThan(1);
    expect(chain(await readProcessTable('darwin'))).toEqual(fromProc);
  });
});

describe.skipIf(process.platform === 'win32')('terminateTree', () => {
  it('returns at once, sending nothing, for a group that no longer exists', async () => {
    const child = spawn('/bin/sh', ['-c', 'exit 0'], { detached: true, stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    // A grace period far beyond the test's timeout: waiting it out instead of returning would fail the test.
    await terminateTree(child.pid ?? 0, 10 * 60_000);
  });

  it('kills a group leader and what it started', async () => {
    const child = spawn('/bin/sh', ['-c', 'sleep 600 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const sleeper = Number(await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(String(chunk)))));
    expect(isDead(sleeper)).toBe(false);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await terminateTree(child.pid ?? 0, 5_000);
    await exited;
    expect(isDead(sleeper)).toBe(true);
  });
});

describe.skipIf(process.platform === 'win32')('terminateTree without a process table', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('still kills the group when ps cannot be run', async () => {
    const child = spawn('/bin/sh', ['-c', 'sleep 600 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const sleeper = Number(await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(String(chunk)))));
    process.env.PATH = '/nonexistent';
    await expect(readProcessTable('darwin')).rejects.toMatchObject({ code: 'E999' });
    await terminateTree(child.pid ?? 0, 300, 'darwin');
    expect(isDead(sleeper)).toBe(true);
  });
});
