import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { setupTray, type TrayActions } from '../../../src-main/electron/tray.js';
import type { WindowRoute } from '../../../src-main/shared/contract.js';
import { Menu, Tray } from '../../support/electron-stand-in.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';

type Item = { label?: string; checked?: boolean; enabled?: boolean; click?: (item: { checked: boolean }) => void; submenu?: Item[] };

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

function trayOverCore() {
  const t = testHome();
  const tool = `\n### go\n\nPrints.\n\n#### Command\n\n\`\`\`\n${process.execPath} -e 0\n\`\`\`\n`;
  writeSkill(t.skills, 'asks', skillMd({ name: 'asks', description: 'Asks first. Use when testing.', version: '1.0.0' }, tool));
  const core = new SkilltrayCore(t.config());
  cores.push(core);
  const tray = new Tray({});
  const opened: WindowRoute[] = [];
  let quits = 0;
  const actions: TrayActions = { open: (route) => void opened.push(route), openSkillsFolder: () => void opened.push('skills'), quit: () => void quits++ };
  setupTray({ core, tray, buildMenu: (template) => Menu.buildFromTemplate(template), actions });
  const menu = () => tray.menus.at(-1)!.template as Item[];
  const item = (label: string) => menu().find((i) => i.label === label)!;
  return { core, tray, opened, menu, item, quits: () => quits };
}

describe('the tray menu', () => {
  it('starts with the mode, no pending approvals, and opens windows from its items and its icon', () => {
    const { tray, opened, menu, item, quits } = trayOverCore();
    expect(menu()[0]).toMatchObject({ label: 'No pending approvals', enabled: false });
    expect(tray.tooltip).toBe('Skilltray — Global');
    item('Open skill browser…').click?.({ checked: false });
    item('History…').click?.({ checked: false });
    item('Settings…').click?.({ checked: false });
    tray.emit('click');
    item('Quit Skilltray').click?.({ checked: false });
    expect(opened).toEqual(['skills', 'history', 'settings', 'tray']);
    expect(quits()).toBe(1);
  });

  it('is rebuilt when settings change, from the menu or elsewhere', () => {
    const { core, tray, item } = trayOverCore();
    item('Mode: Global')
      .submenu?.find((mode) => mode.label === 'Dev')
      ?.click?.({ checked: true });
    expect(core.preferences.settings().mode).toBe('Dev');
    expect(item('Mode: Dev').submenu?.find((mode) => mode.checked)?.label).toBe('Dev');
    item('Pause all runs').click?.({ checked: true });
    expect(item('Pause all runs').checked).toBe(true);
    expect(tray.tooltip).toBe('Skilltray — Dev, paused');
    core.preferences.setPaused(false);
    expect(item('Pause all runs').checked).toBe(false);
  });

  it('is rebuilt when an approval arrives and when it is answered', async () => {
    const { core, tray, menu, opened } = trayOverCore();
    const added = new Promise<string>((resolve) => core.on('event', (e) => e.type === 'approval.added' && resolve(e.entry.id)));
    const run = core.runs.run({ skill: 'asks', tool: 'go', surface: 'http' }, { approval: { kind: 'broker' } });
    const id = await added;
    expect(menu()[0]).toMatchObject({ label: 'Pending approvals (1)…', enabled: true });
    expect(tray.tooltip).toBe('Skilltray — 1 waiting for you');
    menu()[0]?.click?.({ checked: false });
    expect(opened).toEqual(['approvals']);
    core.broker.resolve(id, 'deny', 'tray');
    await run.catch(() => undefined);
    expect(menu()[0]).toMatchObject({ label: 'No pending approvals' });
  });
});
