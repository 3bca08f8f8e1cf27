/**
 * The seccomp filter of a run that shares this computer's network (`network: host`): such a run
 * may open Internet sockets (IPv4, IPv6: TCP, UDP, ICMP) and read the routing table (netlink route,
 * which name resolution asks), and nothing else. A Unix socket — the way to abstract sockets (X11,
 * D-Bus, systemd), which a shared network namespace cannot hide — cannot be created at all, nor can
 * io_uring, which creates sockets without the socket call. bubblewrap installs it (`--seccomp FD`)
 * as the last step before it starts the tool, after no_new_privs.
 *
 * The program is classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args[i] at 16 + 8i;
 * the low 32 bits of an argument come first on the little-endian machines listed here).
 */

/** Each architecture the filter is written for: its audit number and system call numbers. */
const ARCHES: Partial<Record<NodeJS.Architecture, { audit: number; socket: number; ioUringSetup: number; x32: boolean }>> = {
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425, x32: true },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425, x32: false },
};

const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const NETLINK_ROUTE = 0;
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

/** The filter for `arch` as bytes for `bwrap --seccomp`, or null where none is written (then such runs cannot be contained). */
export function socketFilter(arch: NodeJS.Architecture = process.arch): Buffer | null {
  const a = ARCHES[arch];
  if (a === undefined) return null;
  return assemble([
    { op: LD_ABS, k: 4 },
    // Another ABI's system calls (32-bit x86 has socketcall) are not judged here: refused.
    { op: JEQ, k: a.audit, no: 'no-such-call' },
    { op: LD_ABS, k: 0 },
    ...(a.x32 ? [{ op: JGE, k: X32_BIT, yes: 'no-such-call' }] : []),
    { op: JEQ, k: a.ioUringSetup, yes: 'no-such-call' },
    { op: JEQ, k: a.socket, no: 'allow' },
    { op: LD_ABS, k: 16 },
    { op: JEQ, k: AF_INET, yes: 'allow' },
    { op: JEQ, k: AF_INET6, yes: 'allow' },
    { op: JEQ, k: AF_NETLINK, no: 'refuse' },
    { op: LD_ABS, k: 32 },
    { op: JEQ, k: NETLINK_ROUTE, yes: 'allow', no: 'refuse' },
    { label: 'refuse' },
    { op: RET, k: errno(EACCES) },
    { label: 'no-such-call' },
    { op: RET, k: errno(ENOSYS) },
    { label: 'allow' },
    { op: RET, k: ALLOW },
  ]);
}
