/** The system pack, run for real on this machine (Linux: free and ps --sort are procps'). */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { runTool } from '../../support/run-tool.js';
import { ordinaryDir, requireSandbox } from '../../support/sandbox.js';
import { tempDir, testHome } from '../../support/temp.js';
import { argv, pack, SKILLS_DIR } from './bundled-packs.js';

const skill = pack('system');

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A TCP server of this process on an ephemeral loopback port; closed after the test. */
async function listen(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  return address.port;
}

/** A port nothing listens on: one the kernel just handed out and took back. */
async function freePort(): Promise<number> {
  const port = await listen();
  const server = servers.pop() as Server;
  await new Promise((done) => server.close(done));
  return port;
}

describe('system pack: rendering', () => {
  it.each([
    ['system_uptime', {}, ['uptime']],
    ['disk_usage', {}, ['scripts/disk-usage']],
    ['disk_usage', { path: '/home' }, ['scripts/disk-usage', '/home']],
    ['memory_usage', {}, ['free', '-h']],
    ['list_processes', {}, ['ps', '-A', '-o', 'pid,ppid,pcpu,pmem,comm', '--sort=-pcpu']],
    ['list_processes', { sort: 'pid' }, ['ps', '-A', '-o', 'pid,ppid,pcpu,pmem,comm', '--sort=-pid']],
    ['port_listeners', { port: 8080 }, ['lsof', '-nP', '-iTCP:8080', '-sTCP:LISTEN']],
    ['port_listeners', { port: '8080' }, ['lsof', '-nP', '-iTCP:8080', '-sTCP:LISTEN']],
  ])('%s %j', (tool, args, expected) => {
    expect(argv(skill, tool, args)).toEqual(expected);
  });

  it.each([
    ['list_processes', { sort: 'comm' }, 'E505'],
    ['list_processes', { sort: '-pcpu' }, 'E505'],
    ['port_listeners', {}, 'E501'],
    ['port_listeners', { port: 'eighty' }, 'E503'],
    ['port_listeners', { port: 80.5 }, 'E503'],
    ['disk_usage', { path: '--output=source' }, 'E504'],
    ['system_uptime', { pretty: true }, 'E502'],
  ])('%s %j is refused with %s', (tool, args, code) => {
    expect(() => argv(skill, tool, args)).toThrow(expect.objectContaining({ code }));
  });
});

describe('system pack: real runs', () => {
  it('system_uptime reports the load averages', async () => {
    const { result } = await runTool(skill, 'system_uptime', {}, tempDir());
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/ up .*load average: [\d.]+, [\d.]+, [\d.]+$/m);
  });

  it('disk_usage prints a header and every file system, or only the one holding a path', async () => {
    const dir = tempDir();
    const all = await runTool(skill, 'disk_usage', {}, dir);
    expect(all.result.exitCode).toBe(0);
    expect(lines(all.result.stdout)[0]).toMatch(/^Filesystem\s+Size\s+Used\s+Avail\s+Use%\s+Mounted on$/);
    const one = await runTool(skill, 'disk_usage', { path: dir }, dir);
    expect(lines(one.result.stdout)).toHaveLength(2);
  });

  it("disk_usage, run contained as the app runs it, shows the machine's disks: no sandbox mount (Skilltray's home, the home folder, /tmp, /var/tmp)", async () => {
    requireSandbox();
    const t = testHome({ base: ordinaryDir(), bundled: SKILLS_DIR });
    const core = new SkilltrayCore(t.config());
    try {
      const report = await core.runs.run({ skill: 'system', tool: 'disk_usage', args: {}, surface: 'cli', cwd: t.work }, { approval: { kind: 'none' } });
      expect(report.sandbox).toMatchObject({ contained: true, name: 'read-only' });
      const [header, ...rows] = lines(report.result.stdout);
      expect(header).toMatch(/^Filesystem\s+Size\s+Used\s+Avail\s+Use%\s+Mounted on$/);
      expect(rows.length).toBeGreaterThan(0);
      const mounts = rows.map((row) => row.split(/\s+/));
      const sandboxed = [t.home, t.userHome, t.work, '/tmp', '/var/tmp', '/dev', '/proc'];
      expect(
        mounts.filter(([source, ...rest]) => source === 'tmpfs' || sandboxed.some((path) => rest[rest.length - 1] === path)),
        report.result.stdout,
      ).toEqual([]);
    } finally {
      await core.close();
    }
  });

  it('memory_usage shows memory and swap', async () => {
    const { result } = await runTool(skill, 'memory_usage', {}, tempDir());
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^\s+total\s+used\s+free\s+shared\s+buff\/cache\s+available$/m);
    expect(result.stdout).toMatch(/^Mem:/m);
    expect(result.stdout).toMatch(/^Swap:/m);
  });

  it('list_processes lists this test process, sorted largest first', async () => {
    const byCpu = await runTool(skill, 'list_processes', {}, tempDir());
    expect(byCpu.result.exitCode).toBe(0);
    const [header, ...rows] = lines(byCpu.result.stdout);
    expect(header?.trim().split(/\s+/)).toEqual(['PID', 'PPID', '%CPU', '%MEM', 'COMMAND']);
    const columns = rows.map((row) => row.trim().split(/\s+/));
    expect(columns.filter(([pid, ppid]) => pid === String(process.pid) && ppid === String(process.ppid))).toHaveLength(1);
    const cpu = columns.map((row) => Number(row[2]));
    expect(cpu).toEqual([...cpu].sort((a, b) => b - a));

    const byPid = await runTool(skill, 'list_processes', { sort: 'pid' }, tempDir());
    const pids = lines(byPid.result.stdout)
      .slice(1)
      .map((row) => Number(row.trim().split(/\s+/)[0]));
    expect(pids).toEqual([...pids].sort((a, b) => b - a));
    expect(pids).toContain(process.pid);
  });

  it('port_listeners finds the process listening on a port', async () => {
    const port = await listen();
    const { result } = await runTool(skill, 'port_listeners', { port }, tempDir());
    expect(result.exitCode).toBe(0);
    const [header, ...rows] = lines(result.stdout);
    expect(header).toMatch(/^COMMAND\s+PID\s+USER\s+FD\s+TYPE\s+DEVICE\s+SIZE\/OFF\s+NODE\s+NAME$/);
    expect(rows).toEqual([expect.stringMatching(new RegExp(`^\\S.*?\\s${process.pid}\\s.*TCP 127\\.0\\.0\\.1:${port} \\(LISTEN\\)$`))]);
  });

  it('port_listeners prints nothing and exits 1 for a port nobody listens on', async () => {
    const port = await freePort();
    const { result } = await runTool(skill, 'port_listeners', { port }, tempDir());
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
  });
});
