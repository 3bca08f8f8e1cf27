/**
 * A cold catalog in the owner (issues 22 and 26): the catalog every search reads is built in the
 * background, so start-up does not wait for it, and a search over every skill waits for it while
 * `index.progress` events tell subscribers (the UI's "Indexing N of M") how far it has got.
 */
import { describe, expect, it } from 'vitest';
import { writeCorpus } from '../../../bench/corpus.js';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import { testHome } from '../../support/temp.js';
import { readEvents, serverHome } from './helpers.js';

type Progress = Extract<ServerEvent, { type: 'index.progress' }>;
const isProgress = (e: ServerEvent): e is Progress => e.type === 'index.progress';

// serverHome adds three skills of its own to the generated ones.
const GENERATED = 120;
const TOTAL = GENERATED + 3;

describe('a cold catalog in the process that owns runs', () => {
  it('over HTTP, a search over every skill waits for the catalog while its progress streams, then finds what it should', async () => {
    const t = testHome();
    writeCorpus(t.skills, GENERATED);
    const h = await serverHome({}, t);
    const events = await readEvents(h.server);
    const answer = await h.call('searchAll', { query: 'deploy', limit: 3 });
    const before = events.events.filter(isProgress);
    expect(answer.status).toBe(200);
    expect(answer.envelope.ok && (answer.envelope.value as { results: { skill: string }[] }).results[0]?.skill).toMatch(/^skill-\d+$/);
    // Told while the search waited, not in one burst after it.
    expect(before.some((e) => e.done < e.total)).toBe(true);
    expect(before.every((e) => e.total === TOTAL)).toBe(true);
    expect((await events.next((e): e is Progress => isProgress(e) && e.done === e.total)).total).toBe(TOTAL);
    events.close();
  }, 120_000);

  it('start-up does not wait for the catalog: startWatching returns while it is being built, and it finishes in the background', async () => {
    const t = testHome();
    writeCorpus(t.skills, GENERATED);
    const h = await serverHome({}, t);
    const told: Progress[] = [];
    h.core.on('event', (e) => isProgress(e) && told.push(e));
    await h.core.startWatching();
    expect(told.length).toBeGreaterThan(0);
    expect(told.at(-1)?.done).toBeLessThan(TOTAL);
    await h.core.library.catalogCurrent();
    expect(told.at(-1)).toEqual({ type: 'index.progress', done: TOTAL, total: TOTAL });
    expect(h.core.gateway.searchAll('deploy', { limit: 1 }).results).toHaveLength(1);
  }, 120_000);
});
