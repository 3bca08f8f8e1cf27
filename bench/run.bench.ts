/** A tool call through render → policy → spawn → record, against a raw child_process.spawn of the same program. */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkilltrayCore } from '../src-main/core/api.js';
import { resolveConfig } from '../src-main/core/config.js';
import { median, type Figure } from './measure.js';

const TRUE_SKILL = `---
name: truth
description: Runs true. Use when benchmarking.
version: 1.0.0
read_only: true
---

### yes

Exits with status 0.

#### Parameters

None.

#### Command

\`\`\`
true
\`\`\`
`;

function rawSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}

export async function runBench(dir: string): Promise<Figure[]> {
  const bundled = join(dir, 'bundled');
  mkdirSync(join(bundled, 'truth'), { recursive: true });
  writeFileSync(join(bundled, 'truth', 'SKILL.md'), TRUE_SKILL);
  const core = new SkilltrayCore(resolveConfig({ env: { HOME: dir, SKILLTRAY_HOME: join(dir, 'home'), PATH: process.env.PATH }, bundledDir: bundled }));
  try {
    const call = () => core.run({ skill: 'truth', tool: 'yes', surface: 'cli', cwd: dir }, { approval: { kind: 'none' } });
    const raw = await median(rawSpawn, 31, 3);
    const full = await median(call, 31, 3);
    return [{ name: 'run `true`: render+policy+spawn+record', ms: full, baseline: 'raw child_process.spawn of true', baselineMs: raw }];
  } finally {
    await core.close();
  }
}
