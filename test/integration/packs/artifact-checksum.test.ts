import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../support/run-tool.js';
import { tempDir } from '../../support/temp.js';
import { loadPacks } from './bundled-packs.js';

const skill = loadPacks().get('artifact-checksum')!;

describe('artifact-checksum pack: real runs', () => {
  it('checksum_artifact prints the SHA-256 of the target file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'app.tar.gz'), 'not really a tarball\n');
    const { rendered, result } = await runTool(skill, 'checksum_artifact', { target_ref: 'app.tar.gz' }, dir);
    expect(rendered.args).toEqual(['-a', '256', '--', 'app.tar.gz']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${createHash('sha256').update('not really a tarball\n').digest('hex')}  app.tar.gz\n`);
  });

  it('refuses a target that looks like an option (E504) and reports a missing file as a failed run', async () => {
    const dir = tempDir();
    await expect(runTool(skill, 'checksum_artifact', { target_ref: '--status' }, dir)).rejects.toMatchObject({ code: 'E504' });
    const { result } = await runTool(skill, 'checksum_artifact', { target_ref: 'missing.bin' }, dir);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('missing.bin');
  });
});
