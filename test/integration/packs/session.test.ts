/**
 * The scripted session of bench/session.ts, pinned: of twenty typical requests against the bundled
 * packs, ten asked before runs were contained and three ask now (the two network checks, which send
 * text off the machine, and the read of `.env`); with no sandbox available, every bundled read-only
 * request asks again.
 */
import { describe, expect, it } from 'vitest';
import { SESSION, prompts, runSession } from '../../../bench/session.js';
import { requireSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/temp.js';
import { SKILLS_DIR } from './bundled-packs.js';

describe('a twenty-request assistant session against the bundled packs', () => {
  it('asks at most five times now (three), against ten before', async () => {
    requireSandbox();
    const { before, after, uncontained } = await runSession(tempDir(), SKILLS_DIR);
    const asked = (decisions: string[]) => SESSION.filter((_, i) => decisions[i] === 'ask').map((r) => `${r.skill}/${r.tool} ${JSON.stringify(r.args)}`);
    expect(after.filter((d) => d === 'refuse')).toEqual([]);
    expect(asked(after)).toEqual([
      'network/resolve_host {"name":"example.com"}',
      'network/ping_host {"host":"example.com","count":2}',
      'files/file_head {"path":".env"}',
    ]);
    expect(prompts(after)).toBeLessThanOrEqual(5);
    expect(prompts(before)).toBe(10);
    expect(asked(before).filter((r) => r.startsWith('git/'))).toHaveLength(7);
    expect(prompts(uncontained)).toBe(20);
  });
});
