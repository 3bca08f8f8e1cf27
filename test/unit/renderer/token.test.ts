import { describe, expect, it } from 'vitest';
import { captureToken, readToken, TOKEN_KEY, type TokenStorage } from '../../../src-renderer/api/token.js';

function memory(): TokenStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('the browser-mode token', () => {
  it('moves #token=… into storage and asks for #/ instead', () => {
    const storage = memory();
    expect(captureToken('#token=abc_DEF-123', storage)).toBe('#/');
    expect(storage.data.get(TOKEN_KEY)).toBe('abc_DEF-123');
    expect(readToken(storage)).toBe('abc_DEF-123');
  });

  it('decodes an escaped token and ignores anything after &', () => {
    const storage = memory();
    captureToken('#token=a%2Bb&x=1', storage);
    expect(readToken(storage)).toBe('a+b');
  });

  it('leaves other hashes alone', () => {
    const storage = memory();
    expect(captureToken('#/skills', storage)).toBeNull();
    expect(captureToken('', storage)).toBeNull();
    expect(readToken(storage)).toBeNull();
  });

  it('still clears the fragment when the token is empty, without storing anything', () => {
    const storage = memory();
    expect(captureToken('#token=', storage)).toBe('#/');
    expect(readToken(storage)).toBeNull();
  });
});
