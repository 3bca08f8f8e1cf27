import { describe, expect, it } from 'vitest';
import { isOffered, parseMode } from '../../../src-main/core/policy/modes.js';

describe('modes', () => {
  it.each([
    ['Global', 'Global'],
    ['dev', 'Dev'],
    [' MEETING ', 'Meeting'],
  ])('reads %j as %s', (input, mode) => {
    expect(parseMode(input)).toBe(mode);
  });

  it('rejects an unknown mode with E610 listing the choices', () => {
    expect(() => parseMode('Focus')).toThrow(expect.objectContaining({ code: 'E610', message: "unknown mode 'Focus': choose Global, Dev, Meeting" }));
  });

  it('offers a skill only in the modes it lists; Global is not a wildcard', () => {
    expect(isOffered({ modes: ['Dev', 'Global'] }, 'Dev')).toBe(true);
    expect(isOffered({ modes: ['Dev', 'Global'] }, 'Global')).toBe(true);
    expect(isOffered({ modes: ['Dev', 'Global'] }, 'Meeting')).toBe(false);
    expect(isOffered({ modes: ['Global'] }, 'Dev')).toBe(false);
    expect(isOffered({ modes: [] }, 'Global')).toBe(false);
  });
});
