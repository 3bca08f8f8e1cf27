import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { locateIndex } from '../../../src-main/core/search/index.js';
import { runtimeDir } from '../../../src-main/core/gateway/runtime-dir.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

describe('the app keeps search indexes current by itself', () => {
  it('builds every index after load and rebuilds after a watched change, so search never meets E002', async () => {
    const t = testHome();
    for (const name of ['alpha', 'beta']) writeSkill(t.skills, name, skillMd({ name, description: `${name} skill`, version: '1.0.0' }, `# ${name}\n\nOriginal words.\n`));
    const core = new SkilltrayCore(t.config(), { autoBuild: true });
    cores.push(core);
    await core.startWatching();
    for (const name of ['alpha', 'beta']) {
      const skill = core.getSkill(name);
      expect(existsSync(locateIndex(skill.dir, runtimeDir(t.home, name)).path)).toBe(true);
    }
    const changed = new Promise((resolve) => core.registry.once('change', resolve));
    writeFileSync(join(t.skills, 'alpha', 'SKILL.md'), skillMd({ name: 'alpha', description: 'alpha skill', version: '1.0.0' }, '# alpha\n\nFreshly edited words.\n'));
    await changed;
    expect(core.search('alpha', 'freshly', {}, t.home).results).toHaveLength(1);
    expect(core.searchAll('freshly').results.map((r) => r.skill)).toEqual(['alpha']);
  });

  it('the CLI mode keeps the RFC behaviour: no index, E002', () => {
    const t = testHome();
    writeSkill(t.skills, 'alpha', skillMd({ name: 'alpha', description: 'alpha skill', version: '1.0.0' }, '# alpha\n'));
    const core = new SkilltrayCore(t.config());
    cores.push(core);
    expect(() => core.search('alpha', 'alpha', {}, t.home)).toThrow(expect.objectContaining({ code: 'E002' }));
  });
});
