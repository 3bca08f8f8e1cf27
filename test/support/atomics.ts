/** Waiting on a shared cell without blocking the test's thread, for tests of helper threads. */

/** Resolves once `cell[index]` is no longer `seen` (Node has Atomics.waitAsync; the TypeScript lib here does not name it). */
export function waitAsync(cell: Int32Array, index: number, seen: number): Promise<unknown> {
  const atomics = Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { value: Promise<unknown> | string } };
  const { value } = atomics.waitAsync(cell, index, seen);
  return typeof value === 'string' ? Promise.resolve(value) : value;
}
