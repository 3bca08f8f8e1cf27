/** The process that owns runs for a home, as the CLI reaches it: by the one owner-routing policy (server/owner-routing.ts). */
import { OwnerRouting, type RoutedOwner } from '../server/owner-routing.js';

export type RunningOwner = RoutedOwner;

/** Where this command's calls for `home` go; its HTTP client loads only when server.json names an owner. */
export function cliRouting(home: string): OwnerRouting {
  return new OwnerRouting({ home, surface: 'cli' });
}

/** The live owner of runs for `home`, or null. */
export function findRunningOwner(home: string): Promise<RunningOwner | null> {
  return cliRouting(home).owner();
}
