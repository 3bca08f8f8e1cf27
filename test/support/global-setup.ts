/** Vitest's global setup: tests spawn `bin/skilltray.js`, which runs the CLI bundle made from dist/node, so both must match the sources. */
import { ensureFreshBuild } from './fresh-build.js';

export default function setup(): void {
  ensureFreshBuild(['node', 'cli']);
}
