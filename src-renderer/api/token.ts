/** Browser mode's bearer token: it arrives once in the URL fragment and lives in sessionStorage. */

/** sessionStorage key of the token (per tab, gone when the tab closes). */
export const TOKEN_KEY = 'skilltray.token';

const PREFIX = '#token=';

/** The part of Storage (sessionStorage) the token needs. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * Takes `#token=…` out of the fragment: stores the token and returns the hash to show instead
 * (`#/`), so the secret never stays in the address bar or history. Null when the hash holds none.
 */
export function captureToken(hash: string, storage: TokenStorage): string | null {
  if (!hash.startsWith(PREFIX)) return null;
  const raw = hash.slice(PREFIX.length).split('&')[0] ?? '';
  let token = raw;
  try {
    token = decodeURIComponent(raw);
  } catch {
    // A malformed escape is kept as typed; the server will refuse it with E802.
  }
  if (token !== '') storage.setItem(TOKEN_KEY, token);
  return '#/';
}

/** The stored token, or null. */
export function readToken(storage: TokenStorage): string | null {
  const token = storage.getItem(TOKEN_KEY);
  return token === null || token === '' ? null : token;
}
