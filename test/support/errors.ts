/** Catching what a call throws, for tests that look at the error itself. */
import { SkilltrayError } from '../../src-main/shared/skilltray-error.js';

/** The SkilltrayError `run` throws; fails the test when it throws nothing or something else. */
export function thrownBy(run: () => unknown): SkilltrayError {
  try {
    run();
  } catch (error) {
    if (error instanceof SkilltrayError) return error;
    throw error;
  }
  throw new Error('expected a SkilltrayError, nothing was thrown');
}

/** The SkilltrayError `promise` rejects with; fails the test when it resolves or rejects with something else. */
export async function rejectionOf(promise: Promise<unknown>): Promise<SkilltrayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SkilltrayError) return error;
    throw error;
  }
  throw new Error('expected a SkilltrayError, the call succeeded');
}
