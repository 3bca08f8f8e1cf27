/** Vitest's global setup: tests spawn `bin/skilltray.js`, which runs dist/node, so that build must match the sources. */
import { ensureFreshBuild } from './fresh-build.js';

export default function setup(): void {
  ensureFreshBuild(['node']);
}
