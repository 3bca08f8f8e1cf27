/**
 * The scan against droppers as they are really written (test/fixtures/scan-evasions.yaml): each
 * evasion found with exactly its codes, every high one refused without --force; and nothing found
 * in benign packs, the bundled skills/ included.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SEVERITY } from '../../../src-main/core/packs/findings.js';
import type { FindingCode } from '../../../src-main/shared/packs.js';
import { toolSkill } from '../../support/pack-sources.js';
import { tempDir, testHome, writeSkill } from '../../support/temp.js';
import { rejectionOf } from '../../support/errors.js';
import { coresClosedAfterEach } from '../../support/cores.js';

const open = coresClosedAfterEach();

interface Case {
  name: string;
  expect?: FindingCode[];
  command?: string;
  prose?: string;
  files?: Record<string, string>;
}

const corpus = parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'scan-evasions.yaml'), 'utf8')) as { evasions: Case[]; benign: Case[] };
const BUNDLED = join(import.meta.dirname, '..', '..', '..', 'skills');

/** The case as a one-skill folder pack named `name`. */
function packOf(c: Case, name: string): string {
  return writeSkill(tempDir(), name, toolSkill(name, c.command ?? 'echo <<what>>', {}, c.prose ?? ''), c.files ?? {});
}

describe('the evasion corpus', () => {
  it('holds at least 30 evasions, each with the codes it must be found with', () => {
    expect(corpus.evasions.length).toBeGreaterThanOrEqual(30);
    for (const c of corpus.evasions) expect(c.expect?.length, c.name).toBeGreaterThan(0);
  });

  it.each(corpus.evasions.map((c, i) => [c.name, c, `evasion-${i + 1}`] as const))('%s', async (_name, c, name) => {
    const t = testHome();
    const source = packOf(c, name);
    const core = open(t);
    const report = await (await core.packs()).preview({ source }, t.home);
    expect(report.findings.map((f) => [f.code, f.excerpt])).toEqual((c.expect ?? []).map((code) => [code, expect.any(String)]));
    if ((c.expect ?? []).some((code) => SEVERITY[code] === 'high')) {
      expect((await rejectionOf((await core.packs()).install({ source }, t.home, { confirm: report.digest }))).code).toBe('E303');
    } else {
      expect(report.worst).toBe('medium');
    }
  });
});

describe('no false positives', () => {
  it.each(corpus.benign.map((c, i) => [c.name, c, `benign-${i + 1}`] as const))('%s: no finding, installs', async (_name, c, name) => {
    const t = testHome();
    const source = packOf(c, name);
    const core = open(t);
    const report = await (await core.packs()).preview({ source }, t.home);
    expect(report.findings).toEqual([]);
    expect((await (await core.packs()).install({ source }, t.home, { confirm: report.digest })).action).toBe('installed');
  });

  it('the bundled skills/, scanned as a pack, have no finding and install', async () => {
    // An empty bundled root: the bundled skills are what is installed here, so nothing clashes.
    const t = testHome({ bundled: tempDir() });
    const core = open(t);
    const report = await (await core.packs()).preview({ source: BUNDLED }, t.home);
    expect(report.skills.length).toBeGreaterThan(5);
    expect(report.findings).toEqual([]);
    expect((await (await core.packs()).install({ source: BUNDLED }, t.home, { confirm: report.digest })).action).toBe('installed');
  });
});
