/**
 * The `bindings` package as the CLI bundle's inlined better-sqlite3 calls it (scripts/bundle-cli.js
 * aliases it here): the compiled addon, looked for where `bindings` looks first, in the
 * better-sqlite3 package Node resolves from the bundle. `bindings` itself finds its package by the
 * file that calls it, which, better-sqlite3 inlined, would be our chunk; and it asks by trying to
 * require each place in turn, ~1 ms of exceptions before the one an install builds (build/Release).
 */
const { existsSync } = process.getBuiltinModule('node:fs');
const { createRequire } = process.getBuiltinModule('node:module');
const { dirname, join } = process.getBuiltinModule('node:path');

/** Where `bindings` looks, in its order, up to the last place a build of better-sqlite3 puts its addon. */
const PLACES = [['build'], ['build', 'Debug'], ['build', 'Release'], ['out', 'Debug'], ['Debug'], ['out', 'Release'], ['Release'], ['build', 'default']];

module.exports = function bindings(name) {
  const load = createRequire(__filename);
  const root = dirname(load.resolve('better-sqlite3/package.json'));
  const tried = PLACES.map((place) => join(root, ...place, name));
  const found = tried.find((path) => existsSync(path));
  if (found === undefined) throw new Error(`Could not locate the bindings file. Tried:\n${tried.map((path) => ` → ${path}`).join('\n')}`);
  return load(found);
};
