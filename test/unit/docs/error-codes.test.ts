import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTICS } from '../../../src-main/core/skills/diagnostics.js';
import { ERROR_KINDS } from '../../../src-main/shared/errors.js';
import { SEVERITY } from '../../../src-main/core/packs/findings.js';
import { FINDING_CODES } from '../../../src-main/shared/packs.js';

const DOCS = join(import.meta.dirname, '..', '..', '..', 'docs');
const rows = (file: string) =>
  new Map([...readFileSync(join(DOCS, file), 'utf8').matchAll(/^\| ([EW]\d{3}) \| ([^|]+) \|/gm)].map((m) => [m[1], (m[2] ?? '').trim()]));

describe('the error reference stays true', () => {
  it('docs/errors.md documents every error code with its kind, and no code that does not exist', () => {
    const documented = rows('errors.md');
    expect([...documented.keys()].sort()).toEqual(Object.keys(ERROR_KINDS).sort());
    for (const [code, kind] of Object.entries(ERROR_KINDS)) expect(documented.get(code), code).toBe(kind);
  });

  it('docs/errors.md documents every pack scan finding with its kind and severity', () => {
    const text = readFileSync(join(DOCS, 'errors.md'), 'utf8');
    const documented = new Map([...text.matchAll(/^\| (S\d{3}) \| ([^|]+) \| ([^|]+) \|/gm)].map((m) => [m[1], [(m[2] ?? '').trim(), (m[3] ?? '').trim()]]));
    expect([...documented.keys()].sort()).toEqual(Object.keys(FINDING_CODES).sort());
    for (const [code, kind] of Object.entries(FINDING_CODES)) expect(documented.get(code), code).toEqual([kind, SEVERITY[code as keyof typeof SEVERITY]]);
  });

  it('docs/skill-format.md documents every loader diagnostic with its severity', () => {
    const documented = rows('skill-format.md');
    expect([...documented.keys()].sort()).toEqual(Object.keys(DIAGNOSTICS).sort());
    for (const [code, spec] of Object.entries(DIAGNOSTICS)) expect(documented.get(code), code).toBe(spec.severity);
  });
});
