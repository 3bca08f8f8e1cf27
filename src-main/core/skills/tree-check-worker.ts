/**
 * The helper thread of tree-check.ts: takes stats of the one tree it is sent, a block at a time
 * beside the caller's thread, posts the digest when it took the last ones before the caller asked,
 * and ends. A port closed without a tree (the command needed none) ends it too.
 */
import { workerData } from 'node:worker_threads';
import { claimHash, hashPosted, type TreeCheckData, type TreeCheckWork } from './tree-check.js';
import { hashStats, takeStats } from './tree-fingerprint.js';

const { port } = workerData as TreeCheckData;

port.once('message', (work: TreeCheckWork) => {
  const { dir, tree, stats } = work;
  takeStats(dir, tree, stats);
  if (claimHash(work)) {
    port.postMessage(hashStats(tree, stats.stats).fingerprint);
    hashPosted(work);
  }
  port.close();
});
