/**
 * The seccomp filter of every contained run on Linux: an allow-list of the socket families its
 * tool may create, checked on every system call that creates a socket (socket, socketpair; the
 * others, io_uring's, are refused whole). No run may create a Unix socket of any kind — the way to
 * abstract sockets (X11, D-Bus, systemd), which a shared network namespace (`network: host`)
 * cannot hide, and to whatever a private one holds. The filter also keeps the tool from the
 * processes of the sandbox it does not apply to (bubblewrap's first process, and the relay, which
 * must open Unix sockets to the proxy): no ptrace, no writing another process's memory, no taking
 * its file descriptors. Other ABIs (32-bit x86 and its socketcall, x32, 32-bit ARM) are refused as
 * if absent. bubblewrap installs it (`--seccomp FD`) as the last step before it starts the tool,
 * after no_new_privs; where the relay carries a host list, the relay installs it on the tool alone.
 *
 * The program is classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args[i] at 16 + 8i;
 * the low 32 bits of an argument come first on the little-endian machines listed here, and the
 * kernel reads a family and a protocol as ints, so the low 32 bits are all that count).
 */

/** A socket family a run may create: IPv4, IPv6, or netlink's routing table (what name resolution asks). */
export type SocketFamily = 'inet' | 'inet6' | 'netlink-route';

/**
 * The families every contained run may create, whatever its network: Internet sockets (which reach
 * only the run's own loopback unless its network is `host`) and the routing table.
 */
export const RUN_SOCKET_FAMILIES: readonly SocketFamily[] = ['inet', 'inet6', 'netlink-route'];

/** Each architecture the filter is written for: its audit number and the system call numbers it judges. */
const ARCHES: Partial<
  Record<
    NodeJS.Architecture,
    { audit: number; x32: boolean; socket: number; socketpair: number; ptrace: number; processVmWritev: number; ioUring: number[]; pidfdGetfd: number }
  >
> = {
  x64: { audit: 0xc000003e, x32: true, socket: 41, socketpair: 53, ptrace: 101, processVmWritev: 311, ioUring: [425, 426, 427], pidfdGetfd: 438 },
  arm64: { audit: 0xc00000b7, x32: false, socket: 198, socketpair: 199, ptrace: 117, processVmWritev: 271, ioUring: [425, 426, 427], pidfdGetfd: 438 },
};

const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const NETLINK_ROUTE = 0;
const EPERM = 1;
const EACCES = 13;
const ENOSYS = 38;
/** x32 system calls arrive as x86-64 ones with this bit set. */
const X32_BIT = 0x40000000;

const LD_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000;
const errno = (code: number): number => 0x00050000 | code;

type Step = { op: number; k: number; yes?: string; no?: string } | { label: string };

/** Lays out `steps`, turning each jump's labels into the forward offsets BPF wants. */
function assemble(steps: readonly Step[]): Buffer {
  const at = new Map<string, number>();
  const code: { op: number; k: number; yes?: string; no?: string }[] = [];
  for (const step of steps) {
    if ('label' in step) at.set(step.label, code.length);
    else code.push(step);
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((ins, i) => {
    const offset = (label: string | undefined): number => {
      if (label === undefined) return 0;
      const target = at.get(label);
      if (target === undefined || target <= i || target - i - 1 > 255) throw new Error(`socket filter: bad jump to ${label}`);
      return target - i - 1;
    };
    out.writeUInt16LE(ins.op, i * 8);
    out.writeUInt8(offset(ins.yes), i * 8 + 2);
    out.writeUInt8(offset(ins.no), i * 8 + 3);
    out.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The steps that let a family in `families` through to 'allow', falling through to 'refuse' for any other (the family in A). */
function familySteps(families: readonly SocketFamily[]): Step[] {
  const steps: Step[] = [];
  if (families.includes('inet')) steps.push({ op: JEQ, k: AF_INET, yes: 'allow' });
  if (families.includes('inet6')) steps.push({ op: JEQ, k: AF_INET6, yes: 'allow' });
  if (families.includes('netlink-route')) {
    steps.push({ op: JEQ, k: AF_NETLINK, no: 'refuse' }, { op: LD_ABS, k: 32 }, { op: JEQ, k: NETLINK_ROUTE, yes: 'allow' });
  }
  return steps;
}

/**
 * The filter for `arch` letting a tool create sockets of `families` only, as bytes for
 * `bwrap --seccomp` (or the relay's -f), or null where none is written (then runs cannot be contained).
 */
export function socketFilter(families: readonly SocketFamily[] = RUN_SOCKET_FAMILIES, arch: NodeJS.Architecture = process.arch): Buffer | null {
  const a = ARCHES[arch];
  if (a === undefined) return null;
  return assemble([
    { op: LD_ABS, k: 4 },
    // Another ABI's system calls (32-bit x86 has socketcall) are not judged here: refused.
    { op: JEQ, k: a.audit, no: 'no-such-call' },
    { op: LD_ABS, k: 0 },
    ...(a.x32 ? [{ op: JGE, k: X32_BIT, yes: 'no-such-call' }] : []),
    // io_uring creates sockets (and opens files) without the calls judged here.
    ...a.ioUring.map((nr) => ({ op: JEQ, k: nr, yes: 'no-such-call' })),
    { op: JEQ, k: a.ptrace, yes: 'not-permitted' },
    { op: JEQ, k: a.processVmWritev, yes: 'not-permitted' },
    { op: JEQ, k: a.pidfdGetfd, yes: 'not-permitted' },
    { op: JEQ, k: a.socket, yes: 'family' },
    { op: JEQ, k: a.socketpair, yes: 'family', no: 'allow' },
    { label: 'family' },
    { op: LD_ABS, k: 16 },
    ...familySteps(families),
    { label: 'refuse' },
    { op: RET, k: errno(EACCES) },
    { label: 'not-permitted' },
    { op: RET, k: errno(EPERM) },
    { label: 'no-such-call' },
    { op: RET, k: errno(ENOSYS) },
    { label: 'allow' },
    { op: RET, k: ALLOW },
  ]);
}
