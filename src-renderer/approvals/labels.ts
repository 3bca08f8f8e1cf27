/** Words for the codes an approval carries. */
import type { Trust } from '../../src-main/shared/model.js';
import type { Surface } from '../../src-main/shared/runs.js';

/** Who asked, by the surface the request came through. */
export const SURFACE_LABELS: Record<Surface, string> = {
  cli: 'command line (skilltray)',
  http: 'HTTP API',
  mcp: 'MCP client',
  ui: 'this app',
  browser: 'the browser UI (over HTTP)',
};

/** What a trust level means for the person deciding. */
export const TRUST_LABELS: Record<Trust, string> = {
  bundled: 'Bundled (ships with Skilltray)',
  user: 'User skill (added on this machine)',
};
