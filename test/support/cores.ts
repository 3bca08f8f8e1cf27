/** Cores a test file opens on a test home, each closed after its test. */
import { afterEach } from 'vitest';
import { SkilltrayCore } from '../../src-main/core/api.js';
import type { TestHome } from './temp.js';

/** Registers the closing hook (call it at the top of a test file) and returns the opener. */
export function coresClosedAfterEach(): (t: TestHome, env?: NodeJS.ProcessEnv) => SkilltrayCore {
  const cores: SkilltrayCore[] = [];
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close();
  });
  return (t, env = {}) => {
    const core = new SkilltrayCore(t.config(env));
    cores.push(core);
    return core;
  };
}
