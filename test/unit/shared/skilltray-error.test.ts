import { describe, expect, it } from 'vitest';
import { SkilltrayError, toSkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { SkilltrayClientError } from '../../../src-main/shared/contract.js';

describe('toSkilltrayError', () => {
  it('keeps a SkilltrayError as it is', () => {
    const error = new SkilltrayError('E020', "section not found: 'x'");
    expect(toSkilltrayError(error)).toBe(error);
  });

  it('keeps the code, message and details of an error received from another process', () => {
    const received = new SkilltrayClientError({
      code: 'E603',
      kind: 'denied_by_user',
      message: "the person at the desktop denied 'a/b'",
      details: { runId: 'r1' },
    });
    expect(toSkilltrayError(received).toJSON()).toEqual({
      code: 'E603',
      kind: 'denied_by_user',
      message: "the person at the desktop denied 'a/b'",
      details: { runId: 'r1' },
    });
  });

  it('turns anything else into E999 with the original as cause, including Node errors whose code is not ours', () => {
    const enoent = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    const wrapped = toSkilltrayError(enoent);
    expect(wrapped).toMatchObject({ code: 'E999', message: 'no such file' });
    expect(wrapped.cause).toBe(enoent);
    expect(toSkilltrayError('plain string')).toMatchObject({ code: 'E999', message: 'plain string' });
  });
});
