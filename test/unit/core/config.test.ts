import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src-main/core/config.js';

const home = (env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string => resolveConfig({ env, platform, bundledDir: '/bundled' }).home;

describe('the home Skilltray keeps its state in', () => {
  it('is SKILLTRAY_HOME when set', () => {
    expect(home({ SKILLTRAY_HOME: '/data/st', HOME: '/home/ana' }, 'linux')).toBe(resolve('/data/st'));
  });

  it("is otherwise the platform's data directory for skilltray, as the README lists them", () => {
    expect(home({ HOME: '/home/ana' }, 'linux')).toBe(resolve('/home/ana/.local/share/skilltray'));
    expect(home({ HOME: '/home/ana', XDG_DATA_HOME: '/xdg' }, 'linux')).toBe(resolve('/xdg/skilltray'));
    expect(home({ HOME: '/Users/ana' }, 'darwin')).toBe(resolve('/Users/ana/Library/Application Support/skilltray'));
    expect(home({ USERPROFILE: 'C:\\Users\\ana', LOCALAPPDATA: '/lad' }, 'win32')).toBe(resolve(join('/lad', 'skilltray', 'Data')));
    expect(home({ USERPROFILE: '/users/ana' }, 'win32')).toBe(resolve(join('/users/ana', 'AppData', 'Local', 'skilltray', 'Data')));
  });
});
