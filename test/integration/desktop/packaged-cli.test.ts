/**
 * The CLI as a connected assistant starts it from the packaged app (the app's executable runs
 * bin/skilltray.js inside app.asar as Node): the bundled packs come from beside app.asar and the
 * manifest that makes them bundled from inside it, as the app itself reads them (paths.ts). The
 * layout is made of the real bin, CLI bundle, manifest and packs.
 */
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { SkillSummary } from '../../../src-main/shared/model.js';
import { ROOT } from '../../support/fresh-build.js';
import { tempDir, testHome } from '../../support/temp.js';

describe('the packaged CLI', () => {
  it('trusts the bundled packs beside app.asar by the manifest inside it', { timeout: 60_000 }, async () => {
    const resources = join(tempDir(), 'resources');
    const asar = join(resources, 'app.asar');
    mkdirSync(join(asar, 'dist'), { recursive: true });
    for (const part of ['package.json', 'bin', join('dist', 'cli'), join('dist', 'bundled-manifest.json')])
      cpSync(join(ROOT, part), join(asar, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(asar, 'node_modules'));
    cpSync(join(ROOT, 'skills'), join(resources, 'skills'), { recursive: true });

    const t = testHome();
    const listed = await execa(process.execPath, [join(asar, 'bin', 'skilltray.js'), 'list', '--json'], { env: t.env, extendEnv: false, reject: false });
    expect(listed.exitCode, listed.stderr).toBe(0);
    const git = (JSON.parse(listed.stdout) as { skills: SkillSummary[] }).skills.find((s) => s.name === 'git');
    expect(git).toMatchObject({
      root: { kind: 'bundled', path: join(resources, 'skills') },
      trust: 'bundled',
      identity: { manifest: 'match', unverified: null },
    });
  });
});
