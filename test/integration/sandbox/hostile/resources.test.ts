/**
 * Issue #20: there were no resource limits — inside one run 500 processes and a 2 GiB allocation
 * succeeded, for up to 300 s. A fork bomb, a 4 GiB allocation, a spinning loop and a huge file are
 * each stopped inside the run, through the real command line, as root (whom RLIMIT_NPROC does not
 * bind: a cgroup does) and as an ordinary user (rlimits in the run's own user namespace); the run
 * record says which limit stopped it where Skilltray can tell.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { asActor, asRootAndUser, attack, resultOf, skilltray } from './actors.js';

const LONG = { timeout: 120_000 };

/** Forks until the kernel refuses, each child sleeping; prints how many it got. */
const COUNT_FORKS = `perl -e 'my $n = 0; while (1) { my $p = fork(); if (!defined $p) { print "refused after $n\\n"; exit 0 } if ($p == 0) { sleep 60; exit 0 } $n++; if ($n >= 5000) { print "not refused\\n"; exit 0 } }'`;

asRootAndUser((actor) => {
  it('a fork bomb is stopped inside the run: at most the process limit, and the record says so where it can', LONG, async () => {
    const counted = await attack(actor, 'probe-ro', 'sh', { script: COUNT_FORKS });
    const result = resultOf(counted.report);
    const forks = Number(/refused after (\d+)/.exec(result.stdout)?.[1] ?? Number.NaN);
    expect(forks).toBeGreaterThan(10);
    expect(forks).toBeLessThan(256);
    if (actor.name === 'root') expect(result.limitHit).toBe('processes');
    // The classic bomb, marked so its processes can be found; the run ends once a fork of it is refused, and nothing of it outlives the run.
    const marker = `skilltray-bomb-${process.pid}-${actor.name}`;
    const bomb = await attack(actor, 'probe-ro', 'sh', {
      // Once the bomb holds every process the run may have, the script cannot fork either: it watches with builtins only (read, [[ ]]).
      script: [
        `: ${marker}; mkfifo /tmp/never; exec 9<>/tmp/never`,
        'b() { b | b & }; (b) 2>/tmp/bomb.err',
        "refused=''; until [[ -n $refused ]]; do while IFS= read -r line; do [[ $line == *'Resource temporarily unavailable'* ]] && refused=1; done </tmp/bomb.err; read -t 0.1 -u 9; done",
        'echo refused',
      ].join('; '),
    });
    const bombed = resultOf(bomb.report);
    expect(bombed).toMatchObject({ stdout: 'refused\n', timedOut: false });
    if (actor.name === 'root') expect(bombed.limitHit).toBe('processes');
    const left = await asActor(actor, 'pgrep', ['-f', marker]);
    expect(left.stdout).toBe('');
  });

  it("the process limit is the tool's own: with processes: 4 the tool and exactly three children run, whatever the box runs beside them", LONG, async () => {
    const counted = await attack(actor, 'probe-procs', 'sh', { script: `exec ${COUNT_FORKS}` });
    expect(resultOf(counted.report).stdout).toBe('refused after 3\n');
  });

  it('a 4 GiB allocation fails inside the run', LONG, async () => {
    const { report } = await attack(actor, 'probe-ro', 'sh', { script: `perl -e '$x = "a" x (4 * 1024 ** 3); print "allocated\\n"'; echo "status $?"` });
    const result = resultOf(report);
    expect(result.stdout).not.toContain('allocated');
    if (actor.name === 'root') {
      // The cgroup's memory limit killed it (137 under bwrap), and the record says which limit.
      expect(result.limitHit).toBe('memoryMiB');
    } else {
      expect(result.stderr).toContain('Out of memory');
      expect(result.stdout).toMatch(/status [1-9]/);
    }
  });

  it('CPU time and file size stop the run at their limit, and the record names it', LONG, async () => {
    const spin = await attack(actor, 'probe-limits', 'sh', { script: 'exec perl -e "1 while 1"' });
    expect(resultOf(spin.report)).toMatchObject({ limitHit: 'cpuSeconds', timedOut: false });
    const big = await attack(actor, 'probe-ws-limits', 'sh', { script: 'exec head -c 3000000 /dev/zero > big.bin' });
    expect(resultOf(big.report)).toMatchObject({ limitHit: 'fileSizeMiB' });
    expect(statSync(join(actor.project, 'big.bin')).size).toBe(1024 * 1024);
    const history = await skilltray(actor, ['history', String((big.report as { id: string }).id)]);
    expect(history.stdout).toContain('stopped at its file-size limit');
  });

  it(
    'each private folder (/tmp, /var/tmp, /dev/shm, the home) holds at most its cap, the file-size limit (#38: 3.6 GiB went into /dev/shm)',
    LONG,
    async () => {
      // Eight files of 16 MiB into each folder, each write on until the folder refuses it; then what each holds.
      const fill = [
        'for dir in /dev/shm /var/tmp /tmp "$HOME"; do',
        '  for i in 1 2 3 4 5 6 7 8; do head -c 16777216 /dev/zero > "$dir/fill$i" 2>/dev/null || break; done',
        '  echo "$dir $(cat "$dir"/fill* | wc -c)"',
        'done',
      ].join('\n');
      const { report } = await attack(actor, 'probe-small', 'sh', { script: fill });
      const result = resultOf(report);
      const held = Object.fromEntries(
        result.stdout
          .trim()
          .split('\n')
          .map((line) => [line.split(' ')[0], Number(line.split(' ')[1])]),
      );
      expect(Object.keys(held).length, result.stderr).toBe(4);
      for (const [dir, bytes] of Object.entries(held)) {
        expect(bytes, dir).toBeGreaterThanOrEqual(16 * 1024 * 1024);
        expect(bytes, dir).toBeLessThanOrEqual(32 * 1024 * 1024);
      }
      // A tool that stops because a folder is full: the record says which limit.
      const stopped = await attack(actor, 'probe-small', 'sh', {
        script: 'head -c 20971520 /dev/zero > /dev/shm/a && head -c 20971520 /dev/zero > /dev/shm/b',
      });
      expect(resultOf(stopped.report)).toMatchObject({ exitCode: 1, limitHit: 'privateFolder' });
      expect(resultOf(stopped.report).stderr).toContain('No space left on device');
      const history = await skilltray(actor, ['history', String((stopped.report as { id: string }).id)]);
      expect(history.stdout).toContain('stopped at the size of a private folder');
    },
  );

  it('shared memory (MAP_SHARED) is held to the memory limit too, not only private memory (#38: it escaped RLIMIT_DATA)', LONG, async () => {
    const script = [
      'python3 -c "',
      'import mmap',
      'try:',
      '    m = mmap.mmap(-1, 8 << 30)',
      'except OSError as e:',
      "    print('refused:', e.strerror)",
      '    raise SystemExit(0)',
      "print('mapped 8 GiB', flush=True)",
      'for i in range(0, 512 << 20, 4096): m[i] = 1',
      "print('touched 512 MiB')",
      '"',
    ].join('\n');
    const result = resultOf((await attack(actor, 'probe-small', 'sh', { script })).report);
    expect(result.stdout).not.toContain('touched');
    // A cgroup (root's, or one the user's systemd delegates) kills at 256 MiB; without one the address-space limit refuses the mapping.
    if (actor.name === 'root') expect(result.limitHit).toBe('memoryMiB');
    else expect(result.limitHit === 'memoryMiB' || result.stdout === 'refused: Cannot allocate memory\n', JSON.stringify(result)).toBe(true);
  });

  it('the approval and the dry run show the limits in force', LONG, async () => {
    const dry = await skilltray(actor, ['run', 'probe-ro', 'sh', '--args', '{"script":"true"}', '--dry-run']);
    expect(dry.stdout).toContain('Limits: 256 processes, 2 GiB memory, 1 GiB per file and per private folder, 120 s CPU.');
  });
});
