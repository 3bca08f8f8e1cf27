/**
 * sqlite3's own `.recover`, for tests that hold Skilltray's salvage to it. Debian's sqlite3 shell is
 * built without the sqlite_dbpage table `.recover` needs (it answers "SQL logic error"), so the
 * shell is compiled once from the SQLite sources the `sqlite3` dev dependency ships (its
 * install script is not run) and kept under node_modules/.cache.
 */
import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCES = join(ROOT, 'node_modules', 'sqlite3', 'deps');

/** The path of a sqlite3 shell whose `.recover` works, compiled on first use (about 30 s on two cores). */
export async function recoverShell(): Promise<string> {
  const tarball = readdirSync(SOURCES).find((name) => /^sqlite-autoconf-\d+\.tar\.gz$/.test(name));
  if (tarball === undefined) throw new Error(`no SQLite sources in ${SOURCES}: run npm install`);
  const version = tarball.replace(/\.tar\.gz$/, '');
  const cache = join(ROOT, 'node_modules', '.cache', 'skilltray-sqlite-shell', version);
  const shell = join(cache, 'sqlite3');
  if (existsSync(shell)) return shell;
  mkdirSync(cache, { recursive: true });
  await execa('tar', ['-xzf', join(SOURCES, tarball), '-C', cache]);
  const src = join(cache, version);
  const building = join(cache, `sqlite3.${process.pid}`);
  await execa('cc', [
    '-O0',
    '-DSQLITE_ENABLE_DBPAGE_VTAB',
    '-DSQLITE_THREADSAFE=0',
    '-DSQLITE_OMIT_LOAD_EXTENSION',
    join(src, 'shell.c'),
    join(src, 'sqlite3.c'),
    '-lm',
    '-o',
    building,
  ]);
  // Renamed into place whole, so a test running at the same time never finds half a binary.
  renameSync(building, shell);
  return shell;
}
