/** Where a run's network leads, in the words every surface shows (approval, history, dry run, CLI). */
import type { SandboxProfile } from './runs.js';

/** `*` alone in a host list: any host (`network: true`). */
export const ANY_HOST = '*';

/**
 * "no network", "network to any host", "network to api.github.com, *.example.org", or "this
 * computer's own network"; a list longer than `max` ends "and N more" (the full list is beside it).
 */
export function networkWords(profile: Pick<SandboxProfile, 'network' | 'hosts'>, max = Infinity): string {
  if (!profile.network) return 'no network';
  if (profile.hosts === 'host') return "this computer's own network";
  if (profile.hosts.includes(ANY_HOST)) return 'network to any host';
  const shown = profile.hosts.slice(0, max);
  const more = profile.hosts.length - shown.length;
  return `network to ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
