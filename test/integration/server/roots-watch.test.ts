import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.js';
import { captureWarnings } from '../../support/warnings.js';
import { serverHome } from './helpers.js';

describe('skilltray roots says how the owner watches each root', () => {
  it('shows the running owner’s watch mode and its problems; with no owner, that nothing watches', async () => {
    const h = await serverHome();
    await h.core.registry.watch();
    // The registry's RootWatcher and, inside it, its chokidar watcher.
    const watcher = (h.core.registry as unknown as { watcher: { watcher: NodeJS.EventEmitter } }).watcher.watcher;
    const locked = join(h.t.skills, 'locked');
    const warnings = captureWarnings();
    watcher.emit('error', Object.assign(new Error(`EACCES: permission denied, watch '${locked}'`), { code: 'EACCES', path: locked }));
    expect(warnings.messages).toEqual([`skill roots: ${locked} not watched: EACCES: permission denied, watch '${locked}'`]);

    const listed = await cli(['roots'], h.t);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^1 +env +user +angle +native +${h.t.skills}$`, 'm'));
    expect(listed.stdout).toContain(`warning: ${locked}: not watched: EACCES: permission denied`);
    const json = JSON.parse((await cli(['roots', '--json'], h.t)).stdout) as { roots: { path: string; watch: unknown }[] };
    expect(json.roots[0]).toMatchObject({ path: h.t.skills, watch: { mode: 'native', problems: [{ path: locked, code: 'EACCES' }] } });

    await h.server.close();
    const alone = await cli(['roots'], h.t);
    expect(alone.stdout).toMatch(new RegExp(`^1 +env +user +angle +- +${h.t.skills}$`, 'm'));
    expect(alone.stdout).toContain('note: no Skilltray app or serve is running, so no root is being watched');
  });
});
