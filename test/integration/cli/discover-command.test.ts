/** `skilltray discover` as a person reads it: ranked skills, and the better match of a role the call left out (#39.7). */
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.js';
import { testHome } from '../../support/temp.js';
import { SKILLS_DIR } from '../packs/bundled-packs.js';

describe('skilltray discover', () => {
  it('says when the best match is a sidecar, with its score and how to ask for it', async () => {
    const t = testHome({ bundled: SKILLS_DIR });
    const { stdout, code } = await cli(['discover', 'verify the sha256 of my release tarball'], t);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^also: artifact-checksum, a sidecar, 0\.\d\d \(--role sidecar\)$/m);
    const json = JSON.parse((await cli(['discover', 'verify the sha256 of my release tarball', '--json'], t)).stdout) as {
      results: { skill_id: string }[];
      also: { skill_id: string; role: string }[];
    };
    expect(json.also[0]).toMatchObject({ skill_id: 'artifact-checksum', role: 'sidecar' });
    expect(json.results.map((r) => r.skill_id)).not.toContain('artifact-checksum');
  });

  it('says nothing more when the best match is among the results', async () => {
    const t = testHome({ bundled: SKILLS_DIR });
    const { stdout } = await cli(['discover', 'verify the sha256 of my release tarball', '--role', 'sidecar'], t);
    expect(stdout).toMatch(/^1\. artifact-checksum /);
    expect(stdout).not.toContain('also:');
  });
});
