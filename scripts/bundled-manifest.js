#!/usr/bin/env node
/**
 * Writes the manifest of the bundled skills (each skill's content hash and the sha256 of its files):
 * only a skill it lists, unchanged, is trusted as bundled. `--out dist/bundled-manifest.json` is the
 * copy the build ships inside app.asar; with no option it rewrites the checked-in
 * bundled-manifest.json that a checkout uses (`npm run manifest`, after changing a bundled skill:
 * test/unit/build/bundled-manifest.test.ts fails until then). It hashes with the compiled core, the
 * loader's own code, so it runs after tsc.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const { bundledManifestOf, manifestText } = await import(join(root, 'dist', 'node', 'src-main', 'core', 'skills', 'bundled-manifest.js'));
const out = resolve(root, values.out ?? 'bundled-manifest.json');
writeFileSync(out, manifestText(bundledManifestOf(join(root, 'skills'))));
