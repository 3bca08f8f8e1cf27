#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/node/src-main/cli/main.js, from tsc) into dist/cli/ for
 * bin/skilltray.js. On Node 20 every ES module costs a file read, a resolve and a link (about
 * 0.65 ms each), and a search would load some 110 of ours; the bundle is a few chunks instead.
 * Dynamic imports stay chunk boundaries, so a command still loads only what it uses, and every
 * package stays outside the bundle, loaded from node_modules as before.
 *
 * The chunks are CommonJS (.cjs): Node 20 keeps no compiled code between runs for ES modules, but
 * a CommonJS chunk can be compiled with a V8 code cache (src-main/cli/code-cache.ts), which takes
 * a quarter off loading the CLI. Our sources stay ES modules; `import.meta.url` becomes the chunk's
 * own file URL, and an imported package is required (Node ≥ 20.19 requires ES modules too) unless
 * it is imported dynamically, as a package with top-level await must be.
 *
 * dist/cli/chunks.json names the modules in each chunk (paths under dist/node): the lazy-start
 * tests read it to see which of our modules a command loaded.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const compiled = join(root, 'dist', 'node');
const out = join(root, 'dist', 'cli');

/**
 * Packages inlined though they are packages. env-paths (and the one module it imports), which every
 * command loads to find the home: it is an ES module, so a CommonJS chunk requiring it started Node's
 * ES module loader for 3 KB of code, 8 ms of `skilltray roots`. better-sqlite3's JavaScript, which
 * every command that opens a database loads: eleven CommonJS files resolved, read and compiled, ~5 ms,
 * where inlined they come with the chunk and its code cache; its `bindings` is ours
 * (scripts/sqlite-bindings.cjs), which finds the addon from here.
 */
const INLINED = new Set(['env-paths', 'is-safe-filename', 'better-sqlite3', 'bindings']);
const ALIASES = { bindings: join(root, 'scripts', 'sqlite-bindings.cjs') };

/** Our own modules are bundled; packages (but INLINED) and Node's built-ins are imported at run time. */
const isPackage = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !INLINED.has(id);

/** The modules `entry` imports statically, directly or not (itself included): they always load together. */
async function staticImports(entry) {
  const pass = await rolldown({ input: entry, platform: 'node', external: isPackage, resolve: { alias: ALIASES } });
  const { output } = await pass.generate({ format: 'esm', codeSplitting: { groups: [{ name: 'static', tags: ['$initial'] }] } });
  await pass.close();
  return new Set(output.find((item) => item.type === 'chunk' && item.name === 'static')?.moduleIds ?? []);
}

// The core's read side (what search, show, outline … load): without a group, a module of it that
// some command also imports lazily gets a chunk of its own, and a search loads fifteen files.
const library = await staticImports(join(compiled, 'src-main', 'core', 'library.js'));

rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({
  input: { main: join(compiled, 'src-main', 'cli', 'main.js') },
  platform: 'node',
  external: isPackage,
  resolve: { alias: ALIASES },
});
// Not minified: stack traces and a reader of dist/cli see the code tsc wrote.
const { output } = await bundle.write({
  dir: out,
  format: 'cjs',
  entryFileNames: '[name].cjs',
  chunkFileNames: '[name]-[hash].cjs',
  codeSplitting: {
    groups: [
      // Every module the entry imports statically loads with any command anyway: one chunk, not one per module shared with a lazy chunk.
      { name: 'start', tags: ['$initial'], priority: 2 },
      { name: 'library', test: (id) => library.has(id), priority: 1 },
    ],
  },
});
await bundle.close();

// The helper threads' entry (core/parallel-worker), one file beside the chunks, where core/parallel.js looks for it.
// Built on its own: as a second input of the bundle above, its modules would join the start chunk
// every command loads. The jobs it imports by name are inlined; it shares no chunk with the CLI.
const helper = await rolldown({ input: join(compiled, 'src-main', 'core', 'parallel-worker.js'), platform: 'node', external: isPackage });
await helper.write({ file: join(out, 'parallel-worker.js'), format: 'esm', codeSplitting: false });
await helper.close();

// The tree check's helper thread (core/skills/tree-check-worker), one CommonJS file beside the chunks, where core/skills/tree-check.js
// looks for it: it starts with the command, and ~5 ms sooner than an ES module would.
const treeCheck = await rolldown({ input: join(compiled, 'src-main', 'core', 'skills', 'tree-check-worker.js'), platform: 'node', external: isPackage });
await treeCheck.write({ file: join(out, 'tree-check-worker.cjs'), format: 'cjs', codeSplitting: false });
await treeCheck.close();

// What the bin loads before any chunk, on a Node that keeps no compiled code itself (Node 20).
const cache = await rolldown({ input: join(compiled, 'src-main', 'cli', 'code-cache.js'), platform: 'node', external: isPackage });
const { output: cacheOutput } = await cache.write({ file: join(out, 'code-cache.cjs'), format: 'cjs', codeSplitting: false });
await cache.close();

const chunks = Object.fromEntries(
  [...output, ...cacheOutput]
    .filter((item) => item.type === 'chunk')
    .map((chunk) => [chunk.fileName, chunk.moduleIds.filter((id) => id.startsWith(compiled)).map((id) => relative(compiled, id).split('\\').join('/'))]),
);
writeFileSync(join(out, 'chunks.json'), `${JSON.stringify(chunks, null, 2)}\n`);
