/**
 * Which sandbox profile a tool asks for. The skill decides how much it needs (read_only or an
 * ADR-001 read_only effect → `read-only`, anything else → `workspace`; `network:` adds the network,
 * to the hosts it lists or any, or this computer's own); only the person can take a skill out of
 * the sandbox (`none`), never its frontmatter. The runner applies the profile (core/runner/sandbox);
 * policy only compares profiles.
 */
import type { Skill } from '../../shared/model.js';
import { ANY_HOST, networkWords } from '../../shared/network-reach.js';
import type { NetworkHosts, SandboxProfile, SandboxProfileName } from '../../shared/runs.js';

/** How much each profile lets a run touch, narrowest first. */
const BREADTH: Record<SandboxProfileName, number> = { 'read-only': 0, workspace: 1, none: 2 };

/** The profile a run of `skill` gets; `unsandboxed` is the person's own per-skill setting. */
export function profileFor(skill: Pick<Skill, 'readOnly' | 'network' | 'hosts' | 'classification'>, unsandboxed: boolean): SandboxProfile {
  const readOnly = skill.readOnly || skill.classification?.effectMode === 'read_only';
  const name: SandboxProfileName = unsandboxed ? 'none' : readOnly ? 'read-only' : 'workspace';
  // Without a sandbox nothing holds the network back, so `none` always has this computer's own.
  if (unsandboxed) return { name, network: true, hosts: 'host' };
  return { name, network: skill.network, hosts: skill.network ? skill.hosts : [] };
}

/** True when `wanted` reaches a host `granted` does not: this computer's own network covers every list, `*` every list of hosts. */
function reachesMore(wanted: NetworkHosts, granted: NetworkHosts): boolean {
  if (granted === 'host') return false;
  if (wanted === 'host') return true;
  return !granted.includes(ANY_HOST) && wanted.some((host) => !granted.includes(host));
}

/** True when the two host lists are the same (in any order). */
export function sameHosts(a: NetworkHosts, b: NetworkHosts): boolean {
  if (a === 'host' || b === 'host') return a === b;
  return a.length === b.length && a.every((host) => b.includes(host));
}

/** True when `profile` lets a run do something `granted` did not (more of the filesystem, the network, or more hosts). */
export function widens(profile: SandboxProfile, granted: SandboxProfile): boolean {
  if (BREADTH[profile.name] > BREADTH[granted.name]) return true;
  if (!profile.network) return false;
  return !granted.network || reachesMore(profile.hosts, granted.hosts);
}

/** The profile in a few words: "read-only, no network", "may write in its working directory, network to api.github.com". */
export function describeProfile(profile: SandboxProfile): string {
  if (profile.name === 'none') return 'not sandboxed';
  const files = profile.name === 'read-only' ? 'read-only' : 'may write in its working directory';
  return `${files}, ${networkWords(profile)}`;
}
