/**
 * Where installed packs live under the home: `<home>/packs/<pack>/<skill>/` (the skill root the
 * registry reads two levels deep), the hidden staging area beside them, the lock and the keys.
 */
import { join } from 'node:path';
import { packErrors } from '../../shared/error-messages/packs.js';

/** `<home>/packs`: one directory per installed pack, each holding its skills. */
export const packsDir = (home: string): string => join(home, 'packs');

/** Where fetches, new versions and replaced versions wait; hidden, so no loader or watcher reads it. */
export const stagingDir = (home: string): string => join(packsDir(home), '.staging');

/** `<home>/packs.lock.json`: what was installed from where, with a digest of every file. */
export const lockPath = (home: string): string => join(home, 'packs.lock.json');

/** The SSH allowed-signers file `git verify-commit` checks SSH signatures against. */
export const trustedKeysPath = (home: string): string => join(home, 'trusted-keys');

/** The GnuPG home holding the GPG keys the person trusts (never their own keyring). */
export const gnupgHome = (home: string): string => join(home, 'gnupg');

/** Pack and skill names: the loader's slug, so a name is always one safe path segment. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** True when `name` can name a pack or an installed skill. */
export function isPackName(name: string): boolean {
  return name.length <= 64 && SLUG.test(name);
}

/** Checks a pack or `--as` name (E311 otherwise). */
export function checkPackName(name: string, what: string): string {
  if (!isPackName(name)) {
    throw packErrors.invalidPackName(what, name);
  }
  return name;
}

/** A slug made from any text (a repository or archive name), or null when nothing is left of it. */
export function slugify(text: string): string | null {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug === '' ? null : slug;
}
