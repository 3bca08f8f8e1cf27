import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../../src-main/shared/errors.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MODULES = join(ROOT, 'src-main', 'shared', 'error-messages');

/** Each message module and the codes of its range (docs/errors.md's sections). */
const RANGES: Record<string, RegExp> = {
  'skillc.ts': /^E(0\d\d|1\d\d|999)$/,
  'packs.ts': /^E3\d\d$/,
  'templates.ts': /^E5\d\d$/,
  'policy.ts': /^E6(?!3)\d\d$/,
  'voice.ts': /^E63\d$/,
  'runner.ts': /^E7\d\d$/,
  'gateway.ts': /^E8[0-4]\d$/,
  'connect.ts': /^E85\d$/,
  'served.ts': /^E86\d$/,
  'state.ts': /^E9(?!99)\d\d$/,
};

const sourcesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));

const codesIn = (text: string): string[] => [...new Set([...text.matchAll(/'(E\d{3})'/g)].map((m) => m[1] as string))];
const moduleText = (name: string): string => readFileSync(join(MODULES, name), 'utf8');
const documented = (): string[] => [...readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8').matchAll(/^\| (E\d{3}) \|/gm)].map((m) => m[1] as string);

describe('one message module per error range', () => {
  it('each module builds only codes of its own range, and there is no module for no range', () => {
    expect(readdirSync(MODULES).sort()).toEqual(Object.keys(RANGES).sort());
    for (const [name, range] of Object.entries(RANGES)) {
      const codes = codesIn(moduleText(name));
      expect(codes.length, name).toBeGreaterThan(0);
      for (const code of codes) expect(code, `${name} builds ${code}`).toMatch(range);
    }
  });

  it('docs/errors.md documents every code a module builds, and every documented code is built by one', () => {
    const built = new Set(Object.keys(RANGES).flatMap((name) => codesIn(moduleText(name))));
    const table = new Set(documented());
    expect(
      [...built].filter((code) => !table.has(code)),
      'built but not documented',
    ).toEqual([]);
    expect(
      [...table].filter((code) => !built.has(code)),
      'documented but built nowhere',
    ).toEqual([]);
    expect([...built].sort()).toEqual(Object.keys(ERROR_KINDS).sort());
  });

  it('no coded error is built outside the message modules (but for the class wrapping an unknown throw as E999)', () => {
    const inline = sourcesUnder(join(ROOT, 'src-main'))
      .filter((file) => !file.startsWith(MODULES) && file !== join(ROOT, 'src-main', 'shared', 'skilltray-error.ts'))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/new SkilltrayError\(\s*['"`]E\d{3}/g)].map((m) => `${relative(ROOT, file)}: ${m[0]}`));
    expect(inline).toEqual([]);
  });

  it('every builder is called somewhere outside its module', async () => {
    const callers = sourcesUnder(join(ROOT, 'src-main'))
      .filter((file) => !file.startsWith(MODULES))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused: string[] = [];
    for (const name of Object.keys(RANGES)) {
      const exported = (await import(join(MODULES, name))) as Record<string, Record<string, unknown>>;
      for (const [group, builders] of Object.entries(exported)) {
        for (const builder of Object.keys(builders)) if (!callers.includes(`${group}.${builder}(`)) unused.push(`${group}.${builder}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
