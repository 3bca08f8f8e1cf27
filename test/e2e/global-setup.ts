/** Playwright's global setup: the scenarios spawn `skilltray serve --web`, which runs the CLI bundle (dist/cli) and serves dist/web. */
import { ensureFreshBuild } from '../support/fresh-build.js';

export default function setup(): void {
  ensureFreshBuild(['node', 'cli', 'web']);
}
