/** Words for the codes an approval carries. */
import type { Trust } from '../../src-main/shared/model.js';
import type { SandboxView, Surface } from '../../src-main/shared/runs.js';

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

/** One badge: its words, its tone, and what it means on hover. */
export interface Badge {
  text: string;
  tone: 'ok' | 'warn' | 'bad';
  title: string;
}

/**
 * The badges of a run's sandbox, from the profile policy chose, so they can never disagree with it:
 * a read-only run is never labelled as one that may change things, and an uncontained one says so.
 */
export function sandboxBadges(sandbox: SandboxView): Badge[] {
  if (!sandbox.contained) {
    return [{ text: 'not contained', tone: 'bad', title: sandbox.why ?? 'no sandbox applies to this run' }];
  }
  return [
    sandbox.name === 'read-only'
      ? { text: 'read-only', tone: 'ok', title: 'it can read files but change none; it writes only to a private temporary folder' }
      : { text: 'writes in its folder', tone: 'warn', title: 'it may change files in its working directory, and nowhere else' },
    sandbox.network
      ? { text: 'network', tone: 'warn', title: 'it can reach other computers' }
      : { text: 'no network', tone: 'ok', title: 'it cannot reach any other computer, nor this one over the network' },
  ];
}
