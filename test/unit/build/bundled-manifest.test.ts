/**
 * The manifest that makes the bundled skills bundled: the checked-in copy a checkout uses must say
 * what skills/ holds now (edit a bundled skill, then `npm run manifest`), and the build's script
 * writes the same manifest for the package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BUNDLED_MANIFEST } from '../../../src-main/core/config.js';
import { bundledManifestOf, manifestText, readBundledManifest } from '../../../src-main/core/skills/bundled-manifest.js';
import { tempDir } from '../../support/temp.js';
import { ROOT } from '../../support/fresh-build.js';

const SKILLS = join(ROOT, 'skills');
const CHECKED_IN = join(ROOT, BUNDLED_MANIFEST);

describe('bundled-manifest.json', () => {
  it('lists every bundled skill with the content hash it has now (stale: run npm run manifest and commit it)', () => {
    const now = bundledManifestOf(SKILLS);
    expect(readFileSync(CHECKED_IN, 'utf8'), 'bundled-manifest.json is stale: run `npm run manifest` and commit it').toBe(manifestText(now));
    expect(Object.keys(now.skills).sort()).toEqual(['artifact-checksum', 'commit-message', 'files', 'git', 'network', 'skill-authoring', 'system']);
  });

  it('is what the build script writes, for the package too (dist/bundled-manifest.json)', async () => {
    const out = join(tempDir(), 'manifest.json');
    await execa(process.execPath, [join(ROOT, 'scripts', 'bundled-manifest.js'), '--out', out]);
    expect(readBundledManifest(out)).toEqual(readBundledManifest(CHECKED_IN));
  });
});
