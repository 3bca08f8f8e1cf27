/**
 * The seccomp filter of every contained run, run on a small classic-BPF interpreter over the
 * `seccomp_data` the kernel would hand it: socket() and socketpair() create only the families
 * allowed (a Unix socket never, by either call), io_uring and other ABIs are refused as if absent,
 * ptrace, process_vm_writev and pidfd_getfd are not permitted, everything else passes. The real
 * kernel runs it in test/integration/sandbox/hostile/network-sockets.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUN_SOCKET_FAMILIES, socketFilter } from '../../../src-main/core/process/network/socket-filter.js';

const ALLOW = 0x7fff0000;
const EPERM = 0x00050000 | 1;
const EACCES = 0x00050000 | 13;
const ENOSYS = 0x00050000 | 38;

const X64 = { audit: 0xc000003e, socket: 41, socketpair: 53, ptrace: 101, processVmWritev: 311 };
const ARM64 = { audit: 0xc00000b7, socket: 198, socketpair: 199, ptrace: 117, processVmWritev: 271 };
const IO_URING = [425, 426, 427];
const PIDFD_GETFD = 438;

/** Runs a filter on one system call: `args` are the six 64-bit arguments. */
function run(filter: Buffer, arch: number, nr: number, args: bigint[] = []): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr | 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  args.forEach((arg, i) => data.writeBigUInt64LE(arg, 16 + 8 * i));
  let a = 0;
  for (let pc = 0; pc < filter.length / 8; pc++) {
    const code = filter.readUInt16LE(pc * 8);
    const jt = filter.readUInt8(pc * 8 + 2);
    const jf = filter.readUInt8(pc * 8 + 3);
    const k = filter.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) a = data.readUInt32LE(k);
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unexpected BPF instruction ${code.toString(16)}`);
  }
  throw new Error('the filter fell off its end');
}

describe('the socket filter of every contained run', () => {
  for (const [name, arch] of [
    ['x64', X64],
    ['arm64', ARM64],
  ] as const) {
    const filter = socketFilter(RUN_SOCKET_FAMILIES, name) as Buffer;
    const judged = [arch.socket, arch.socketpair, arch.ptrace, arch.processVmWritev, PIDFD_GETFD, ...IO_URING];

    for (const [call, nr] of [
      ['socket', arch.socket],
      ['socketpair', arch.socketpair],
    ] as const) {
      it(`${name}: ${call} creates Internet sockets and netlink route; never Unix (stream or datagram), netlink diagnostics, packet or vsock`, () => {
        const create = (domain: bigint, type = 1n, protocol = 0n): number => run(filter, arch.audit, nr, [domain, type, protocol]);
        expect(create(2n)).toBe(ALLOW);
        expect(create(10n)).toBe(ALLOW);
        expect(create(16n, 3n, 0n)).toBe(ALLOW);
        expect(create(1n)).toBe(EACCES);
        expect(create(1n, 2n)).toBe(EACCES);
        expect(create(1n, 5n)).toBe(EACCES);
        expect(create(16n, 3n, 4n)).toBe(EACCES);
        expect(create(17n)).toBe(EACCES);
        expect(create(40n)).toBe(EACCES);
        // The kernel reads the family as an int: high bits cannot smuggle AF_UNIX past the filter.
        expect(create((1n << 32n) | 1n)).toBe(EACCES);
      });
    }

    it(`${name}: every family but those allowed is refused, on both calls`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(arch.socket, arch.socketpair), (family, nr) => {
          const verdict = run(filter, arch.audit, nr, [BigInt(family), 1n, 0n]);
          expect(verdict).toBe([2, 10, 16].includes(family) ? ALLOW : EACCES);
        }),
      );
    });

    it(`${name}: a profile that allows fewer families creates fewer`, () => {
      const inetOnly = socketFilter(['inet'], name) as Buffer;
      expect(run(inetOnly, arch.audit, arch.socket, [2n])).toBe(ALLOW);
      expect(run(inetOnly, arch.audit, arch.socket, [10n])).toBe(EACCES);
      expect(run(inetOnly, arch.audit, arch.socketpair, [16n, 3n, 0n])).toBe(EACCES);
    });

    it(`${name}: io_uring (which opens sockets without socket()) and another ABI are refused as if absent`, () => {
      for (const nr of IO_URING) expect(run(filter, arch.audit, nr)).toBe(ENOSYS);
      expect(run(filter, 0x40000003, 102, [1n])).toBe(ENOSYS);
      expect(run(filter, 0x40000028, 281, [1n])).toBe(ENOSYS);
    });

    it(`${name}: no ptrace, process_vm_writev or pidfd_getfd into the processes the filter does not hold`, () => {
      expect(run(filter, arch.audit, arch.ptrace, [16n, 1n])).toBe(EPERM);
      expect(run(filter, arch.audit, arch.processVmWritev, [1n])).toBe(EPERM);
      expect(run(filter, arch.audit, PIDFD_GETFD, [3n, 0n, 0n])).toBe(EPERM);
    });

    it(`${name}: every other system call passes`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 0x3fffffff }).filter((nr) => !judged.includes(nr)),
          fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
          (nr, arg) => {
            expect(run(filter, arch.audit, nr, [arg, arg, arg])).toBe(ALLOW);
          },
        ),
      );
    });
  }

  it('x64: x32 system calls (the same numbers with bit 30 set) are refused', () => {
    const filter = socketFilter(RUN_SOCKET_FAMILIES, 'x64') as Buffer;
    expect(run(filter, X64.audit, 0x40000000 | 41, [1n])).toBe(ENOSYS);
    expect(run(filter, X64.audit, 0x40000000 | 53, [1n])).toBe(ENOSYS);
  });

  it('has no filter for a processor it was not written for', () => {
    expect(socketFilter(RUN_SOCKET_FAMILIES, 'ia32')).toBeNull();
    expect(socketFilter(RUN_SOCKET_FAMILIES, 'riscv64')).toBeNull();
  });
});
