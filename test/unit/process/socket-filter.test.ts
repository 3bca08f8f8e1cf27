/**
 * The seccomp filter of `network: host`, run on a small classic-BPF interpreter over the
 * `seccomp_data` the kernel would hand it: every socket family but IPv4, IPv6 and netlink route is
 * refused (a Unix socket above all), io_uring and other ABIs are refused, everything else passes.
 * The real kernel runs it in test/integration/sandbox/hostile/network-sockets.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { socketFilter } from '../../../src-main/core/process/network/socket-filter.js';

const ALLOW = 0x7fff0000;
const EACCES = 0x00050000 | 13;
const ENOSYS = 0x00050000 | 38;

const X64 = { audit: 0xc000003e, socket: 41 };
const ARM64 = { audit: 0xc00000b7, socket: 198 };

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

describe('the socket filter of network: host', () => {
  for (const [name, arch] of [
    ['x64', X64],
    ['arm64', ARM64],
  ] as const) {
    const filter = socketFilter(name) as Buffer;
    const socket = (domain: bigint, protocol = 0n): number => run(filter, arch.audit, arch.socket, [domain, 1n, protocol]);

    it(`${name}: Internet sockets and netlink route pass; Unix, netlink diagnostics, packet and vsock sockets are refused`, () => {
      expect(socket(2n)).toBe(ALLOW);
      expect(socket(10n)).toBe(ALLOW);
      expect(socket(16n, 0n)).toBe(ALLOW);
      expect(socket(1n)).toBe(EACCES);
      expect(socket(16n, 4n)).toBe(EACCES);
      expect(socket(17n)).toBe(EACCES);
      expect(socket(40n)).toBe(EACCES);
      // The kernel reads the family as an int: high bits cannot smuggle AF_UNIX past the filter.
      expect(socket((1n << 32n) | 1n)).toBe(EACCES);
    });

    it(`${name}: io_uring (which opens sockets without socket()) and another ABI are refused as if absent`, () => {
      expect(run(filter, arch.audit, 425)).toBe(ENOSYS);
      expect(run(filter, 0x40000003, 102, [1n])).toBe(ENOSYS);
    });

    it(`${name}: every other system call passes`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 0x3fffffff }).filter((nr) => nr !== arch.socket && nr !== 425),
          fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
          (nr, arg) => {
            expect(run(filter, arch.audit, nr, [arg, arg, arg])).toBe(ALLOW);
          },
        ),
      );
    });
  }

  it('x64: x32 system calls (the same numbers with bit 30 set) are refused', () => {
    expect(run(socketFilter('x64') as Buffer, X64.audit, 0x40000000 | 41, [1n])).toBe(ENOSYS);
  });

  it('has no filter for a processor it was not written for', () => {
    expect(socketFilter('ia32')).toBeNull();
    expect(socketFilter('riscv64')).toBeNull();
  });
});
