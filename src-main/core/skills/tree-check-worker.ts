/**
 * The helper thread of tree-check.ts: says it has started, takes the one tree it is sent, posts its
 * fingerprint and ends. Its state cell tells the caller's thread, which may be blocked waiting
 * and so cannot hear events, whether an answer is coming.
 */
import { workerData } from 'node:worker_threads';
import { HELPER_ANSWERED, HELPER_FAILED, HELPER_READY, type TreeCheckData, type TreeCheckWork } from './tree-check.js';
import { treeFingerprint } from './tree-fingerprint.js';

const { port, state } = workerData as TreeCheckData;

const tell = (what: number): void => {
  Atomics.store(state, 0, what);
  Atomics.notify(state, 0);
};

// A port closed without a tree (the command needed none) ends the helper.
port.once('message', ({ dir, tree }: TreeCheckWork) => {
  try {
    port.postMessage(treeFingerprint(dir, tree).fingerprint);
    tell(HELPER_ANSWERED);
  } catch {
    tell(HELPER_FAILED);
  }
  port.close();
});
tell(HELPER_READY);
