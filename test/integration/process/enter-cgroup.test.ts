/**
 * The cgroup launcher (enter-cgroup.c) as built, and a root run started through it. Its promise: the
 * program runs only once the launcher is in every cgroup it was given, so nothing of a run is ever
 * born outside its cgroup; and the runner tells its refusal (E706) from a tool's own exit.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { readProcessTable } from '../../../src-main/core/process/process-tree.js';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import { DEFAULT_OUTPUT_CAP, runProcess } from '../../../src-main/core/process/run-process.js';
import { cgroupUnavailable, openRunCgroup } from '../../../src-main/core/process/sandbox/cgroup.js';
import { resolveProgram } from '../../../src-main/core/process/resolve-program.js';
import { buildToolEnv } from '../../../src-main/core/process/tool-env.js';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { probe, probeHome } from '../sandbox/probe.js';
import { ENTER_CGROUP } from '../../support/temp.js';
import { tempDir } from './process-helpers.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});

const SH = resolveProgram('sh', process.env, '/') as string;

/** The launcher run directly: its exit status and stderr. */
async function launch(args: string[]): Promise<{ exitCode: number | undefined; stderr: string }> {
  const result = await execa(ENTER_CGROUP, args, { reject: false, stdin: 'ignore' });
  return { exitCode: result.exitCode, stderr: result.stderr };
}

describe('the cgroup launcher', () => {
  it('runs the program only when every entry took its "0": one that cannot be opened or written stops it with 125 and says which', async () => {
    // Stand-ins for cgroup files: a regular file takes the write, a missing one or a folder refuses it.
    const kinds = ['file', 'missing', 'folder'] as const;
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 5 }), async (entries) => {
        const case_ = join(dir, `case-${n++}`);
        mkdirSync(case_);
        const files = entries.map((kind, i) => {
          const path = join(case_, `entry-${i}`);
          if (kind === 'file') writeFileSync(path, '');
          if (kind === 'folder') mkdirSync(path);
          return path;
        });
        const marker = join(case_, 'ran');
        const { exitCode, stderr } = await launch([...files, '--', SH, '-c', `echo ran > ${marker}`]);
        const firstBad = entries.findIndex((kind) => kind !== 'file');
        if (firstBad === -1) {
          expect(exitCode).toBe(0);
          expect(existsSync(marker)).toBe(true);
          for (const file of files) expect(readFileSync(file, 'utf8')).toBe('0');
        } else {
          expect(exitCode).toBe(125);
          expect(stderr).toMatch(new RegExp(`^skilltray enter-cgroup: cannot (open|enter) ${files[firstBad]}: `));
          expect(existsSync(marker)).toBe(false);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a call without an entry, with a relative entry or program (125), and says when the program cannot run (127)', async () => {
    const entry = join(dir, 'tasks');
    writeFileSync(entry, '');
    expect(await launch(['--', SH, '-c', 'true'])).toMatchObject({ exitCode: 125, stderr: expect.stringContaining('no cgroup to enter') });
    expect(await launch(['tasks', '--', SH])).toMatchObject({ exitCode: 125, stderr: expect.stringContaining('must be an absolute path') });
    expect(await launch([entry, '--', 'sh'])).toMatchObject({ exitCode: 125, stderr: expect.stringContaining('no absolute program') });
    expect(await launch([entry])).toMatchObject({ exitCode: 125 });
    expect(await launch([entry, '--', join(dir, 'no-such-program')])).toMatchObject({
      exitCode: 127,
      stderr: `skilltray enter-cgroup: cannot run ${join(dir, 'no-such-program')}: No such file or directory`,
    });
  });
});

const asRootWithCgroups = process.getuid?.() === 0 && cgroupUnavailable(ENTER_CGROUP) === null;

describe.runIf(asRootWithCgroups)("as root, a run's cgroup", () => {
  const limits = { processes: 16, memoryMiB: 64, fileSizeMiB: 1, cpuSeconds: 10 };
  const spawnIn = (program: string, args: string[]) => ({
    program,
    args,
    cwd: dir,
    env: buildToolEnv(process.env, []),
    timeoutMs: 10_000,
    maxOutputBytes: DEFAULT_OUTPUT_CAP,
  });

  it('holds the program from its first instruction, in the pids and the memory hierarchy', async () => {
    const cgroup = openRunCgroup(`test-${process.pid}-${Date.now()}`, limits, ENTER_CGROUP);
    try {
      const command = cgroup.launch({ program: SH, args: ['-c', 'cat /proc/self/cgroup'], env: {} });
      const result = await runProcess(spawnIn(command.program, [...command.args]));
      const lines = result.stdout.split('\n').filter((line) => /:(pids|memory):/.test(line));
      expect(lines, result.stderr).toHaveLength(2);
      for (const line of lines) expect(line).toMatch(/\/skilltray\/run-[^/]*-test-\d+-\d+$/);
      expect(cgroup.refused(result)).toBeNull();
    } finally {
      cgroup.dispose();
    }
  });

  it('a cgroup the launcher cannot enter stops the run before its program: refused says why, and nothing ran', async () => {
    const cgroup = openRunCgroup(`test-${process.pid}-${Date.now()}`, limits, ENTER_CGROUP);
    try {
      const marker = join(dir, 'ran');
      const command = cgroup.launch({ program: SH, args: ['-c', `echo ran > ${marker}`], env: {} });
      // The first entry's cgroup gone (the pids one on v1): the launcher enters none.
      const [first] = command.args;
      rmdirSync(dirname(first as string));
      const result = await runProcess(spawnIn(command.program, [...command.args]));
      expect(result.exitCode).toBe(125);
      expect(cgroup.refused(result)).toBe(`cannot open ${first as string}: No such file or directory`);
      expect(existsSync(marker)).toBe(false);
      // A tool's own 125 is its result, not a refusal.
      expect(cgroup.refused({ exitCode: 125, stderr: 'usage: tool\n' })).toBeNull();
    } finally {
      cgroup.dispose();
    }
  });

  it(
    "a tool that prints the launcher's refusal and exits 125 is not taken for one: its result stands and what it left is swept",
    { timeout: 60_000 },
    async () => {
      const { t, core } = probeHome();
      const fake = [
        'mkdir -p sub/.git && printf "[core]\\n\\tfsmonitor = /tmp/x\\n" > sub/.git/config',
        "echo 'skilltray enter-cgroup: cannot enter /sys/fs/cgroup/pids/x/tasks: No space left on device' >&2",
        'exit 125',
      ].join('; ');
      const report = await probe(core, 'probe-ws', fake, t.work);
      expect(report.result).toMatchObject({ exitCode: 125 });
      expect(report.result.stderr).toContain('skilltray enter-cgroup: cannot enter');
      expect(existsSync(join(t.work, 'sub', '.git'))).toBe(false);
      expect(report.swept).toContain(join('sub', '.git'));
    },
  );

  it('every process of a contained run is in its cgroup, bwrap included, and no launcher is left between them', { timeout: 60_000 }, async () => {
    const { t, core } = probeHome();
    const controller = new AbortController();
    let checked: { members: number[]; tree: number[]; commands: string[] } | null = null;
    const inspect = async (id: string): Promise<void> => {
      const base = (controller: string) => {
        const own = /\d+:([^:]*):(.*)/.exec(
          readFileSync('/proc/self/cgroup', 'utf8')
            .split('\n')
            .find((line) => line.split(':')[1] === controller) ?? '',
        );
        return join('/sys/fs/cgroup', controller, own?.[2] ?? '/', 'skilltray');
      };
      const procsOf = (controller: string): number[] => {
        const name = readdirSync(base(controller)).find((entry) => entry.endsWith(`-${id}`)) as string;
        return readFileSync(join(base(controller), name, 'cgroup.procs'), 'utf8')
          .trim()
          .split('\n')
          .map(Number);
      };
      const members = procsOf('pids');
      expect(procsOf('memory').sort()).toEqual([...members].sort());
      // The run's whole tree on the host: its oldest member (bwrap) and every descendant of it.
      const parents = new Map((await readProcessTable()).map((entry) => [entry.pid, entry.ppid]));
      const top = members.find((pid) => !members.includes(parents.get(pid) ?? -1)) as number;
      const tree = [top];
      for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
      const commands = tree.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] as string);
      checked = { members, tree, commands };
    };
    let inspected: Promise<void> | null = null;
    core.on('event', (event: ServerEvent) => {
      // The script prints once, when both sleeps have started; the run is stopped once its tree was looked at.
      if (event.type === 'run' && event.event.type === 'output' && event.event.stream === 'stdout' && inspected === null)
        inspected = inspect(event.event.id).finally(() => controller.abort());
    });
    const running = core.runs.run(
      { skill: 'probe-ro', tool: 'sh', args: { script: 'sleep 30 & sleep 30 & echo ready; wait' }, surface: 'cli', cwd: t.work },
      { approval: { kind: 'preapproved', actor: 'containment test' }, signal: controller.signal },
    );
    const report = await running.catch((error: unknown) => error);
    expect(report instanceof SkilltrayError ? report.code : null).toBeNull();
    // What the look found wrong, it says here.
    await inspected;
    expect(checked).not.toBeNull();
    const { members, tree, commands } = checked as unknown as { members: number[]; tree: number[]; commands: string[] };
    expect(commands[0]).toMatch(/bwrap$/);
    expect(commands.some((command) => command.endsWith('enter-cgroup'))).toBe(false);
    // bwrap, its init inside the box, bash, two sleeps: each one in the run's cgroup.
    expect(tree.length).toBeGreaterThanOrEqual(5);
    for (const pid of tree) expect(members).toContain(pid);
    expect((await probe(core, 'probe-ro', 'echo again', t.work)).result.stdout).toBe('again\n');
  });

  it('a launcher that cannot enter fails the run with E706 before anything of the tool ran, and history says why', { timeout: 60_000 }, async () => {
    const { t } = probeHome();
    // A stand-in for the launcher meeting a full cgroup: it says so as enter-cgroup does, and runs nothing.
    const refusing = join(dir, 'enter-cgroup');
    writeFileSync(refusing, '#!/bin/sh\necho "skilltray enter-cgroup: cannot enter /sys/fs/cgroup/pids/full/tasks: No space left on device" >&2\nexit 125\n');
    chmodSync(refusing, 0o755);
    const core = new SkilltrayCore({ ...t.config(), enterCgroup: refusing });
    try {
      const error = await probe(core, 'probe-ws', 'echo ran > ran', t.work).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SkilltrayError);
      expect((error as SkilltrayError).code).toBe('E706');
      expect((error as SkilltrayError).message).toContain('cannot enter /sys/fs/cgroup/pids/full/tasks: No space left on device');
      expect(existsSync(join(t.work, 'ran'))).toBe(false);
      const [run] = core.runs.history({ limit: 1 });
      expect(run).toMatchObject({ status: 'failed' });
      expect(JSON.stringify(core.runs.getRun((run as { id: string }).id))).toContain('E706');
    } finally {
      await core.close();
    }
  });
});
