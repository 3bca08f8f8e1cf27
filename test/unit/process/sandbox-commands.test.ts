/**
 * The command lines the sandboxes build, read as data: bubblewrap's mount order (which is the
 * design), Seatbelt's generated profile (macOS is not available here, so its text is what is
 * checked), the secret masks, and the answer when bubblewrap is missing or cannot work.
 */
import { chmodSync, copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_SPACE_RESERVE_MIB,
  bubblewrapArgs,
  bubblewrapSandbox,
  fdLayout,
  homeLinks,
  prlimitArgs,
  probeBubblewrap,
} from '../../../src-main/core/process/sandbox/bubblewrap.js';
import { bubblewrapNetwork, bubblewrapNetworkUnavailable, PROXY_SOCKET_INSIDE, RELAY_PORT } from '../../../src-main/core/process/sandbox/bubblewrap-network.js';
import { socketFilter } from '../../../src-main/core/process/network/socket-filter.js';
import { resolveProgram } from '../../../src-main/core/process/resolve-program.js';
import { platformSandbox } from '../../../src-main/core/process/sandbox/platform-sandbox.js';
import { noSandbox, programInSnapshot, uncontained, type RunPlaces } from '../../../src-main/core/process/sandbox/sandbox.js';
import { SANDBOX_EXEC, seatbeltArgs, seatbeltProfile } from '../../../src-main/core/process/sandbox/seatbelt.js';
import { secretHomePaths, secretMasks } from '../../../src-main/core/process/sandbox/secret-paths.js';
import { requireSandbox } from '../../support/sandbox.js';
import { NET_RELAY, tempDir } from '../../support/temp.js';

/** The probe's private folders (a profile without limits): 16 MiB each. */
const SIZE = String(16 * 1024 * 1024);

const places = (overrides: Partial<RunPlaces> = {}): RunPlaces => ({
  profile: { name: 'read-only', network: false, hosts: [] },
  cwd: '/home/ana/code/app',
  skillDir: '/home/ana/.local/share/skilltray/skills/tidy',
  snapshotDir: '/tmp/skilltray-run-1/skill',
  tempDir: '/tmp/skilltray-run-1/tmp',
  homeDir: '/tmp/skilltray-run-1/home',
  userHome: '/home/ana',
  system: {
    dirs: [{ path: '/usr' }, { path: '/bin', link: 'usr/bin' }, { path: '/etc' }],
    secrets: [
      { path: '/etc/shadow', kind: 'file' },
      { path: '/etc/ssl/private', kind: 'dir' },
    ],
  },
  binds: [{ path: '/home/ana/.config/git/ignore', kind: 'file' }],
  guarded: [],
  sockets: [],
  masks: [
    { path: '/home/ana/.local/share/skilltray', kind: 'dir' },
    { path: '/home/ana/.netrc', kind: 'file' },
    { path: '/home/ana/.ssh', kind: 'dir' },
  ],
  ...overrides,
});

describe('bubblewrap', () => {
  it('builds the read-only box from an empty root: the system read-only without its secrets, a private /tmp and home, what was declared, the cwd, masks, the snapshot', () => {
    expect(bubblewrapArgs(places())).toEqual([
      '--unshare-all',
      '--die-with-parent',
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/usr',
      '/usr',
      '--symlink',
      'usr/bin',
      '/bin',
      '--ro-bind',
      '/etc',
      '/etc',
      '--dev',
      '/dev',
      '--size',
      SIZE,
      '--tmpfs',
      '/dev/shm',
      '--remount-ro',
      '/dev',
      '--proc',
      '/proc',
      '--remount-ro',
      '/proc',
      '--size',
      SIZE,
      '--tmpfs',
      '/tmp',
      '--size',
      SIZE,
      '--tmpfs',
      '/var/tmp',
      '--ro-bind',
      '/dev/null',
      '/etc/shadow',
      '--tmpfs',
      '/etc/ssl/private',
      '--size',
      SIZE,
      '--tmpfs',
      '/home/ana',
      '--ro-bind',
      '/home/ana/.config/git/ignore',
      '/home/ana/.config/git/ignore',
      '--ro-bind',
      '/home/ana/code/app',
      '/home/ana/code/app',
      '--tmpfs',
      '/home/ana/.local/share/skilltray',
      '--ro-bind',
      '/dev/null',
      '/home/ana/.netrc',
      '--tmpfs',
      '/home/ana/.ssh',
      '--ro-bind',
      '/tmp/skilltray-run-1/skill',
      '/home/ana/.local/share/skilltray/skills/tidy',
      '--remount-ro',
      '/etc/ssl/private',
      '--remount-ro',
      '/home/ana/.local/share/skilltray',
      '--remount-ro',
      '/home/ana/.ssh',
      '--seccomp',
      '3',
      '--remount-ro',
      '/',
      '--chdir',
      '/home/ana/code/app',
    ]);
  });

  it('makes each private folder a tmpfs of the file-size limit, with the private home’s links; an older bwrap keeps /tmp and the home on disk', () => {
    const limits = { processes: 256, memoryMiB: 2048, fileSizeMiB: 300, cpuSeconds: 120 };
    const home = tempDir();
    mkdirSync(join(home, '.config'));
    symlinkSync('/data/ana/gitconfig', join(home, '.config', 'gitconfig'));
    const links = homeLinks(home);
    expect(links).toEqual([{ path: '.config/gitconfig', target: '/data/ana/gitconfig' }]);
    const text = bubblewrapArgs(places({ profile: { name: 'read-only', network: false, hosts: [], limits } }), { homeLinks: links }).join(' ');
    const size = `--size ${300 * 1024 * 1024}`;
    for (const folder of ['/dev/shm', '/tmp', '/var/tmp', '/home/ana']) expect(text).toContain(`${size} --tmpfs ${folder} `);
    expect(text).toContain(`${size} --tmpfs /home/ana --symlink /data/ana/gitconfig /home/ana/.config/gitconfig --ro-bind`);
    const old = bubblewrapArgs(places(), { sizes: false, homeLinks: links }).join(' ');
    expect(old).not.toContain('--size');
    expect(old).toContain('--bind /tmp/skilltray-run-1/tmp /tmp --tmpfs /var/tmp');
    expect(old).toContain('--bind /tmp/skilltray-run-1/home /home/ana --ro-bind');
    expect(old).not.toContain('--symlink /data');
  });

  it('never shows the host root, /home, /run or another system folder than those given', () => {
    const args = bubblewrapArgs(places());
    const mounted = args.filter((_, i) => ['--ro-bind', '--bind'].includes(args[i - 2] ?? ''));
    expect(mounted).not.toContain('/');
    for (const path of mounted) expect(path === '/home' || path === '/run' || path.startsWith('/run/') || path.startsWith('/var/run')).toBe(false);
  });

  it('workspace binds the cwd writable and its guarded entries read-only after it; sockets are covered; the network is shared only under network: host', () => {
    const args = bubblewrapArgs(
      places({
        profile: { name: 'workspace', network: true, hosts: 'host' },
        guarded: [
          { path: '/home/ana/code/app/.git', kind: 'dir' },
          { path: '/home/ana/code/app/.envrc', kind: 'file' },
        ],
        sockets: ['/home/ana/code/app/dev.sock'],
        masks: [],
      }),
    );
    expect(args.slice(0, 5)).toEqual(['--unshare-all', '--share-net', '--die-with-parent', '--cap-drop', 'ALL']);
    const text = args.join(' ');
    expect(text).toContain(
      '--bind /home/ana/code/app /home/ana/code/app --ro-bind /home/ana/code/app/.git /home/ana/code/app/.git --ro-bind /home/ana/code/app/.envrc /home/ana/code/app/.envrc --ro-bind /dev/null /home/ana/code/app/dev.sock',
    );
  });

  it('binds what was opened before the decision by descriptor, numbered after the socket filter and before the report: the folder, reads, hidden entries, declared paths, their inner guards', () => {
    const run = places({
      profile: { name: 'workspace', network: false, hosts: [], writes: ['.git'] },
      workspaceFd: 40,
      binds: [{ path: '/home/ana/.config/git/ignore', kind: 'file', fd: 41 }],
      guarded: [{ path: '/home/ana/code/app/.envrc', kind: 'file', fd: 42 }],
      writable: [{ path: '/home/ana/code/app/.git', kind: 'dir', fd: 43 }],
      guardedInside: [{ path: '/home/ana/code/app/.git/hooks', kind: 'dir', fd: 44 }],
      readOnlyMounts: ['/home/ana/code/app/data'],
      masks: [],
      inCgroup: true,
      homeDir: tempDir(),
    });
    const text = bubblewrapArgs(run).join(' ');
    expect(text).toContain(
      [
        '--ro-bind-fd 4 /home/ana/.config/git/ignore',
        '--bind-fd 5 /home/ana/code/app',
        '--ro-bind-fd 6 /home/ana/code/app/.envrc',
        '--bind-fd 7 /home/ana/code/app/.git',
        '--ro-bind-fd 8 /home/ana/code/app/.git/hooks',
        '--remount-ro /home/ana/code/app/data',
      ].join(' '),
    );
    expect(text).toMatch(/--chdir \/home\/ana\/code\/app$/);
    requireSandbox();
    const wrapped = bubblewrapSandbox(process.env, NET_RELAY).wrap({ program: '/usr/bin/true', args: [], env: {} }, run);
    expect(wrapped).toMatchObject({ inputs: [socketFilter()], fds: [41, 40, 42, 43, 44], cwd: '/', reports: true });
    // bwrap reads the filter on fd 3 and the relay reports on fd 9, after the five bound.
    expect(wrapped.args).toContain('--seccomp');
    expect(wrapped.args[wrapped.args.indexOf('--seccomp') + 1]).toBe('3');
    expect(wrapped.args.slice(wrapped.args.indexOf('--') + 1, wrapped.args.indexOf('--') + 4)).toEqual([NET_RELAY, '-r', '9']);
  });

  it('numbers every descriptor of a run once, from 3 up without a gap: the inputs, what bwrap binds, the report', () => {
    expect(fdLayout({ inputs: 1, bound: 5 })).toEqual({ inputs: 3, bound: 4, report: 9 });
    expect(fdLayout({ inputs: 1, bound: 0 })).toEqual({ inputs: 3, bound: 4, report: 4 });
    fc.assert(
      fc.property(fc.nat(4), fc.nat(40), fc.boolean(), (inputs, bound, reports) => {
        const at = fdLayout({ inputs, bound });
        const numbers = [
          ...Array.from({ length: inputs }, (_, i) => at.inputs + i),
          ...Array.from({ length: bound }, (_, i) => at.bound + i),
          ...(reports ? [at.report] : []),
        ];
        expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => 3 + i));
      }),
    );
  });

  it('limits each run with prlimit: processes and memory by rlimits (address space too) unless a cgroup or scope counts them, file size and CPU always', () => {
    const limits = { processes: 256, memoryMiB: 2048, fileSizeMiB: 1024, cpuSeconds: 120 };
    expect(prlimitArgs(limits, 'rlimit')).toEqual([
      '--nproc=256',
      `--data=${2048 * 1024 * 1024}`,
      `--as=${(2048 + ADDRESS_SPACE_RESERVE_MIB) * 1024 * 1024}`,
      `--fsize=${1024 * 1024 * 1024}`,
      '--cpu=120:121',
    ]);
    expect(prlimitArgs(limits, 'cgroup')).toEqual([`--fsize=${1024 * 1024 * 1024}`, '--cpu=120:121']);
    expect(prlimitArgs(limits, 'scope')).toEqual([`--fsize=${1024 * 1024 * 1024}`, '--cpu=120:121']);
  });

  it('a host list keeps the network namespace private: the proxy’s socket and the relay are bound in last, the relay runs first', () => {
    const listed = places({
      profile: { name: 'workspace', network: true, hosts: ['api.github.com'] },
      proxy: { kind: 'unix', path: '/tmp/skilltray-run-1/proxy.sock' },
    });
    const args = bubblewrapArgs(listed, { relay: '/opt/skilltray/net-relay' });
    expect(args.slice(0, 4)).toEqual(['--unshare-all', '--die-with-parent', '--cap-drop', 'ALL']);
    expect(args.slice(-10)).toEqual([
      '--ro-bind',
      '/tmp/skilltray-run-1/proxy.sock',
      PROXY_SOCKET_INSIDE,
      '--ro-bind',
      '/opt/skilltray/net-relay',
      '/opt/skilltray/net-relay',
      '--remount-ro',
      '/',
      '--chdir',
      '/home/ana/code/app',
    ]);
    expect(args).not.toContain('--seccomp');
    const network = bubblewrapNetwork(listed, '/opt/skilltray/net-relay');
    // The relay installs the filter on the tool alone: it must open Unix sockets to the proxy itself.
    expect(network.relay).toEqual(['-l', String(RELAY_PORT), '-s', PROXY_SOCKET_INSIDE, '-f', '3']);
    expect(network.env).toMatchObject({
      http_proxy: `http://127.0.0.1:${RELAY_PORT}`,
      HTTPS_PROXY: `http://127.0.0.1:${RELAY_PORT}`,
      ALL_PROXY: `socks5h://127.0.0.1:${RELAY_PORT}`,
      NO_PROXY: '',
    });
    expect(network.inputs).toEqual([socketFilter()]);
  });

  it('a host list without its proxy or without the relay reaches nothing: it fails closed', () => {
    const listed = places({ profile: { name: 'read-only', network: true, hosts: ['*'] } });
    expect(bubblewrapArgs(listed, { relay: '/opt/skilltray/net-relay' })).not.toContain('--share-net');
    expect(bubblewrapNetwork(listed, '/opt/skilltray/net-relay')).toEqual({
      share: [],
      mounts: ['--seccomp', '3'],
      relay: [],
      env: {},
      inputs: [socketFilter()],
    });
    expect(bubblewrapNetwork({ ...listed, proxy: { kind: 'unix', path: '/p.sock' } }, null).relay).toEqual([]);
    expect(bubblewrapNetworkUnavailable(listed.profile, join(tempDir(), 'missing-relay'))).toMatch(/network relay .*missing-relay is missing/);
    expect(bubblewrapNetworkUnavailable(listed.profile, null)).toMatch(/network relay/);
  });

  it('network: host shares the namespace and hands bwrap the socket filter on fd 3, as every profile does', () => {
    const host = places({ profile: { name: 'read-only', network: true, hosts: 'host' } });
    const args = bubblewrapArgs(host);
    expect(args.slice(0, 5)).toEqual(['--unshare-all', '--share-net', '--die-with-parent', '--cap-drop', 'ALL']);
    expect(args.slice(-6)).toEqual(['--seccomp', '3', '--remount-ro', '/', '--chdir', '/home/ana/code/app']);
    const network = bubblewrapNetwork(host, null);
    expect(network.inputs).toEqual([socketFilter()]);
    expect(network.relay).toEqual([]);
    expect(bubblewrapNetworkUnavailable(host.profile, null)).toBeNull();
    expect(bubblewrapNetwork(places(), null)).toEqual({ share: [], mounts: ['--seccomp', '3'], relay: [], env: {}, inputs: [socketFilter()] });
  });

  it('puts the masks after the cwd (a cwd holding secrets cannot show them) and the snapshot after the masks', () => {
    const args = bubblewrapArgs(places({ cwd: '/home/ana' }));
    const at = (flag: string, path: string) => args.findIndex((a, i) => a === path && args[i - 1] === flag);
    expect(at('--ro-bind', '/home/ana')).toBeLessThan(at('--tmpfs', '/home/ana/.ssh'));
    expect(at('--tmpfs', '/home/ana/.local/share/skilltray')).toBeLessThan(args.lastIndexOf('/home/ana/.local/share/skilltray/skills/tidy'));
    expect(args.lastIndexOf('/home/ana/.local/share/skilltray/skills/tidy')).toBeLessThan(at('--remount-ro', '/etc/ssl/private'));
  });

  it('wraps a command as bwrap … -- prlimit … -- program args, with the private /tmp as TMPDIR and the private home as HOME; none runs it uncontained', () => {
    requireSandbox();
    const sandbox = bubblewrapSandbox(process.env);
    const limits = { processes: 256, memoryMiB: 2048, fileSizeMiB: 1024, cpuSeconds: 120 };
    const run = places({ profile: { name: 'read-only', network: false, hosts: [], limits }, homeDir: tempDir() });
    const wrapped = sandbox.wrap({ program: '/usr/bin/git', args: ['status'], env: { PATH: '/usr/bin', TMPDIR: '/var/x', HOME: '/home/ana' } }, run);
    expect(wrapped.program).toMatch(/bwrap$/);
    const dash = wrapped.args.indexOf('--');
    expect(wrapped.args[dash + 1]).toMatch(/prlimit$/);
    // The process limit counts bwrap's init (pid 1) beside the tool's own processes.
    expect(wrapped.args.slice(dash + 2)).toEqual([...prlimitArgs({ ...limits, processes: 257 }, 'rlimit'), '--', '/usr/bin/git', 'status']);
    expect(wrapped.boxProcesses).toBe(2);
    expect(wrapped.inputs).toEqual([socketFilter()]);
    // With the relay built, it runs first and reports on the fd after the filter which private folder filled up.
    const relayed = bubblewrapSandbox(process.env, NET_RELAY).wrap({ program: '/usr/bin/git', args: ['status'], env: {} }, run);
    const after = relayed.args.slice(relayed.args.indexOf('--') + 2 + prlimitArgs(limits, 'rlimit').length + 1);
    expect(after).toEqual([NET_RELAY, '-r', '4', '-w', '/tmp', '-w', '/var/tmp', '-w', '/dev/shm', '-w', '/home/ana', '/usr/bin/git', 'status']);
    expect(relayed.reports).toBe(true);
    // …and the relay too; a cgroup holding the run counts bwrap itself as well.
    expect(relayed.args).toContain('--nproc=258');
    expect(relayed.boxProcesses).toBe(3);
    expect(relayed.limitHit?.('full /dev/shm\n')).toBe('privateFolder');
    expect(relayed.limitHit?.('')).toBeNull();
    expect(wrapped.env).toEqual({ PATH: '/usr/bin', TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp', HOME: '/home/ana' });
    expect(wrapped.treeEndsWithIt).toBe(true);
    expect(sandbox.limitsUnavailable()).toBeNull();
    const none = sandbox.wrap({ program: '/usr/bin/git', args: ['status'], env: {} }, places({ profile: { name: 'none', network: true, hosts: 'host' } }));
    expect(none.program).toBe('/usr/bin/git');
    expect(none.env.TMPDIR).toBe('/tmp/skilltray-run-1/tmp');
  });

  it('never runs a run decided as contained without its sandbox: a relay gone since the decision is E515, not an uncontained run', () => {
    requireSandbox();
    const relay = join(tempDir(), 'net-relay');
    copyFileSync(NET_RELAY, relay);
    chmodSync(relay, 0o755);
    const sandbox = bubblewrapSandbox(process.env, relay);
    const run = places({ profile: { name: 'read-only', network: true, hosts: ['example.org'] }, homeDir: tempDir() });
    expect(sandbox.unavailable(run.profile)).toBeNull();
    // Rebuilt or removed while the run waited for its approval.
    chmodSync(relay, 0o644);
    let thrown: unknown = null;
    try {
      sandbox.wrap({ program: '/usr/bin/curl', args: ['https://example.org'], env: {} }, run);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'E515', message: expect.stringContaining('network relay') });
  });

  it('says resource limits are missing with bwrap but without a prlimit in the system folders', () => {
    requireSandbox();
    const bin = tempDir();
    symlinkSync(resolveProgram('bwrap', process.env, '/') as string, join(bin, 'bwrap'));
    symlinkSync(resolveProgram('true', process.env, '/') as string, join(bin, 'true'));
    expect(bubblewrapSandbox({ PATH: bin }).limitsUnavailable()).toContain('prlimit');
  });

  it('says bubblewrap is missing and names the package', () => {
    expect(probeBubblewrap(null, '/usr/bin/true')).toBe(
      "bubblewrap (bwrap) is not installed, so runs cannot be contained; install the 'bubblewrap' package (apt-get install bubblewrap)",
    );
    const empty = tempDir();
    expect(bubblewrapSandbox({ PATH: empty }).unavailable()).toContain("install the 'bubblewrap' package");
  });

  it('says why when bwrap cannot create its sandbox, quoting what it printed', () => {
    const bin = tempDir();
    const fake = join(bin, 'bwrap');
    writeFileSync(fake, '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const why = probeBubblewrap(fake, '/usr/bin/true');
    expect(why).toContain(`bubblewrap at ${fake} cannot create its sandbox here (bwrap: setting up uid map: Permission denied)`);
    expect(why).toContain('docs/runner.md');
  });
});

describe('Seatbelt (macOS)', () => {
  it("generates a deny-by-default profile: reads only of the system, the run's places and its declared files; writes to the private temp and home; secrets denied last", () => {
    const { profile, params } = seatbeltProfile(places());
    expect(profile.split('\n')[0]).toBe('(version 1)');
    expect(profile).toContain('(deny default)');
    expect(profile).not.toContain('(allow file-read*)');
    expect(profile).toContain('(allow file-read-metadata)');
    expect(profile).toContain(
      '(allow file-read* (literal "/") (subpath "/dev") (subpath (param "SYS_0")) (subpath (param "SYS_1")) (subpath (param "SYS_2")) (literal (param "BIND_0")) (subpath (param "TMP")) (subpath (param "HOME")) (subpath (param "CWD")) (subpath (param "SKILL")))',
    );
    expect(profile).toContain('(allow file-write* (subpath (param "TMP")) (subpath (param "HOME"))');
    expect(profile).not.toContain('(allow file-write* (subpath (param "CWD")))');
    expect(profile).not.toContain('(allow network*)');
    expect(profile).toContain('(deny network-outbound (remote unix-socket))');
    expect(profile).not.toContain('mDNSResponder');
    expect(profile.trimEnd().split('\n').at(-1)).toBe(
      '(deny file-read* file-write* (literal (param "SECRET_0")) (subpath (param "SECRET_1")) (subpath (param "SECRET_2")) (literal (param "SECRET_3")) (subpath (param "SECRET_4")))',
    );
    expect(params).toEqual({
      TMP: '/tmp/skilltray-run-1/tmp',
      HOME: '/tmp/skilltray-run-1/home',
      CWD: '/home/ana/code/app',
      SKILL: '/tmp/skilltray-run-1/skill',
      SYS_0: '/usr',
      SYS_1: '/bin',
      SYS_2: '/etc',
      BIND_0: '/home/ana/.config/git/ignore',
      SECRET_0: '/etc/shadow',
      SECRET_1: '/etc/ssl/private',
      SECRET_2: '/home/ana/.local/share/skilltray',
      SECRET_3: '/home/ana/.netrc',
      SECRET_4: '/home/ana/.ssh',
    });
  });

  it('keeps every path out of the profile text, so none can change its meaning', () => {
    const hostile = places({ cwd: '/tmp/a") (allow default) ("', masks: [{ path: '/x")(allow file-read* (subpath "/', kind: 'dir' }] });
    const { profile } = seatbeltProfile(hostile);
    expect(profile).not.toContain('/tmp/a');
    expect(profile).not.toContain('(allow default)');
    expect(profile).not.toContain('/x');
  });

  it('workspace may write the cwd but no hidden path or node_modules in it, existing or not, except what it declares (its inner guards still not); never Unix sockets', () => {
    const { profile, params } = seatbeltProfile(
      places({
        profile: { name: 'workspace', network: false, hosts: [], writes: ['.git'] },
        guardedInside: [
          { path: '/home/ana/code/app/.git/hooks', kind: 'dir' },
          { path: '/home/ana/code/app/.git/config', kind: 'file' },
        ],
      }),
    );
    expect(profile).toContain(
      [
        '(allow file-write* (subpath (param "CWD")))',
        '(deny file-write* (require-all (subpath (param "CWD")) (regex #"/\\.|/node_modules(/|$)")))',
        '(allow file-write* (subpath (param "WRITE_0")))',
        '(deny file-write* (subpath (param "GUARD_0")) (literal (param "GUARD_1")))',
      ].join('\n'),
    );
    expect(params).toMatchObject({ WRITE_0: '/home/ana/code/app/.git', GUARD_0: '/home/ana/code/app/.git/hooks', GUARD_1: '/home/ana/code/app/.git/config' });
    expect(profile).toContain('(deny network-outbound (remote unix-socket))');
    expect(profile).not.toMatch(/SecurityServer|securityd/);
  });

  it('workspace may write the cwd; a host list reaches only its proxy’s loopback port, with certificate checks and no DNS', () => {
    const { profile } = seatbeltProfile(places({ profile: { name: 'workspace', network: true, hosts: ['*'] }, proxy: { kind: 'tcp', port: 40123 } }));
    expect(profile).toContain('(allow file-write* (subpath (param "CWD")))');
    expect(profile).toContain('(allow network-outbound (remote ip "localhost:40123"))');
    expect(profile).not.toContain('(allow network*)');
    expect(profile).toContain('com.apple.trustd');
    expect(profile).not.toMatch(/mDNSResponder|dnssd|SecurityServer|securityd/);
    // Without a proxy a host list reaches nothing: it fails closed.
    expect(seatbeltProfile(places({ profile: { name: 'workspace', network: true, hosts: ['*'] } })).profile).not.toMatch(/allow network|trustd/);
  });

  it('runs sandbox-exec -p profile -D … -- program from the snapshot, with the private home as HOME', () => {
    const args = seatbeltArgs({ program: '/home/ana/.local/share/skilltray/skills/tidy/scripts/tidy.sh', args: ['--dry'], env: {} }, places());
    expect(args[0]).toBe('-p');
    expect(args.slice(2, 6)).toEqual(['-D', 'TMP=/tmp/skilltray-run-1/tmp', '-D', 'HOME=/tmp/skilltray-run-1/home']);
    expect(args.slice(-3)).toEqual(['--', '/tmp/skilltray-run-1/skill/scripts/tidy.sh', '--dry']);
    expect(SANDBOX_EXEC).toBe('/usr/bin/sandbox-exec');
  });
});

describe('no sandbox', () => {
  it('Windows has none, and says so; an uncontained run still runs from the snapshot with its private temp', () => {
    const windows = platformSandbox('win32', {});
    expect(windows.mechanism).toBeNull();
    expect(windows.unavailable()).toBe('Windows has no sandbox Skilltray can use, so runs there are not contained');
    const run = noSandbox('none here').wrap({ program: '/home/ana/.local/share/skilltray/skills/tidy/run', args: ['a'], env: { PATH: '/bin' } }, places());
    expect(run).toEqual(uncontained({ program: '/home/ana/.local/share/skilltray/skills/tidy/run', args: ['a'], env: { PATH: '/bin' } }, places()));
    expect(run.program).toBe('/tmp/skilltray-run-1/skill/run');
    expect(run.env).toEqual({ PATH: '/bin', TMPDIR: '/tmp/skilltray-run-1/tmp', TMP: '/tmp/skilltray-run-1/tmp', TEMP: '/tmp/skilltray-run-1/tmp' });
    expect(programInSnapshot('/usr/bin/git', places())).toBe('/usr/bin/git');
  });
});

describe('secret masks', () => {
  it('mask what exists, at its canonical path, outermost only', () => {
    const home = tempDir();
    const elsewhere = tempDir();
    const skilltray = join(home, '.local', 'share', 'skilltray');
    mkdirSync(join(home, '.ssh'));
    mkdirSync(join(skilltray, 'skills'), { recursive: true });
    mkdirSync(join(elsewhere, 'aws'));
    symlinkSync(join(elsewhere, 'aws'), join(home, '.aws'));
    writeFileSync(join(home, '.netrc'), 'machine x password y\n');
    mkdirSync(join(home, '.gnupg', 'private-keys-v1.d'), { recursive: true });
    symlinkSync(join(home, 'missing'), join(home, '.kube'));
    const masks = secretMasks({ userHome: home, skilltrayHome: skilltray, runtimeDir: undefined, platform: 'linux' });
    expect(masks).toEqual(
      [
        { path: join(elsewhere, 'aws'), kind: 'dir' },
        { path: join(home, '.gnupg'), kind: 'dir' },
        { path: skilltray, kind: 'dir' },
        { path: join(home, '.netrc'), kind: 'file' },
        { path: join(home, '.ssh'), kind: 'dir' },
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
  });

  it('cover the issue list on every platform, browser profiles and keychains on each', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(secretHomePaths(platform)).toEqual(expect.arrayContaining(['.ssh', '.gnupg', '.aws', '.config/gcloud', '.kube', '.docker', '.netrc']));
    }
    expect(secretHomePaths('linux')).toEqual(expect.arrayContaining(['.mozilla', '.config/google-chrome', '.local/share/keyrings']));
    expect(secretHomePaths('darwin')).toEqual(expect.arrayContaining(['Library/Keychains', 'Library/Application Support/Google/Chrome', 'Library/Safari']));
  });
});
