/**
 * Corpora shared by the sub-benches of one run, each written once, on first use: N generated
 * skills (corpus.ts) and the 79 MB skill (big-skill.ts). Each is left to settle before it is
 * handed out, so the freshness fingerprints the benches rely on are recorded as they would be for
 * files that were not written a moment ago.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SETTLE_MS } from '../src-main/core/skills/fingerprint.js';
import { writeBigSkill } from './big-skill.js';
import { writeCorpus } from './corpus.js';

export interface Corpus {
  /** The skill root holding the skills. */
  root: string;
  /** Every file written, SKILL.md and reference, in order. */
  files: string[];
}

export interface BigSkill {
  /** The skill root holding `big-skill` alone. */
  root: string;
  dir: string;
  bytes: number;
  files: number;
}

/** Waits until files written up to now have settled (see skills/fingerprint.ts). */
async function settle(writtenAt: number): Promise<void> {
  const wait = writtenAt + SETTLE_MS + 100 - Date.now();
  if (wait > 0) await sleep(wait);
}

export class BenchFixtures {
  private readonly corpora = new Map<number, Promise<Corpus>>();
  private big: Promise<BigSkill> | undefined;

  /** `sizes`: the skill counts the scale benches run at (1,000 and 10,000 unless narrowed for a quick run). */
  constructor(
    private readonly base: string,
    readonly sizes: readonly number[] = [1000, 10_000],
  ) {}

  /** `count` generated skills in a root of their own. */
  skills(count: number): Promise<Corpus> {
    let corpus = this.corpora.get(count);
    if (corpus === undefined) {
      corpus = (async () => {
        const root = join(this.base, `skills-${count}`);
        const files = writeCorpus(root, count);
        await settle(Date.now());
        return { root, files };
      })();
      this.corpora.set(count, corpus);
    }
    return corpus;
  }

  /** The generated 79 MB skill (5,000 files, ~105,000 sections) in a root of its own. */
  bigSkill(): Promise<BigSkill> {
    this.big ??= (async () => {
      const root = join(this.base, 'big');
      mkdirSync(root, { recursive: true });
      const written = writeBigSkill(root);
      await settle(Date.now());
      return { root, ...written };
    })();
    return this.big;
  }
}
