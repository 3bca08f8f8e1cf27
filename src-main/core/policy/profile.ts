/**
 * Which sandbox profile a tool asks for. The skill decides how much it needs (read_only or an
 * ADR-001 read_only effect → `read-only`, anything else → `workspace`; `network:` adds the network,
 * to the hosts it lists or any, or this computer's own); only the person can take a skill out of
 * the sandbox (`none`), never its frontmatter. The runner applies the profile (core/process/sandbox);
 * policy only compares profiles.
 */
import type { NetworkHosts, ResourceLimits, Skill, Tool } from '../../shared/model.js';
import { effectiveReach } from '../../shared/tool-policy.js';
import { RESOURCE_LIMIT_NAMES } from '../../shared/model.js';
import { ANY_HOST, networkWords } from '../../shared/network-reach.js';
import type { SandboxProfile, SandboxProfileName } from '../../shared/runs.js';
import { DEFAULT_LIMIT_CEILING, effectiveLimits } from './resource-limits.js';

/** How much each profile lets a run touch, narrowest first. */
const BREADTH: Record<SandboxProfileName, number> = { 'read-only': 0, workspace: 1, none: 2 };

/**
 * The profile a run of `tool` of `skill` gets (without a tool: the skill's own, the widest its
 * tools may ask for); `unsandboxed` is the person's own per-skill setting, `ceiling` the most of
 * each resource they let a skill ask for. Read-only and the network are the tool's effective policy
 * (shared/tool-policy.ts); what the box shows beyond its profile (`reads`, `writes`) and the limits
 * come from the skill's frontmatter.
 */
export function profileFor(
  skill: Pick<Skill, 'readOnly' | 'network' | 'hosts' | 'classification' | 'box'>,
  unsandboxed: boolean,
  ceiling: ResourceLimits = DEFAULT_LIMIT_CEILING,
  tool?: Pick<Tool, 'policy'> | null,
): SandboxProfile {
  const policy = effectiveReach(skill, tool);
  const readOnly = policy.readOnly || skill.classification?.effectMode === 'read_only';
  const name: SandboxProfileName = unsandboxed ? 'none' : readOnly ? 'read-only' : 'workspace';
  const box = {
    reads: [...skill.box.reads],
    writes: name === 'workspace' ? [...skill.box.writes] : [],
    limits: effectiveLimits(skill.box.limits, ceiling),
  };
  // Without a sandbox nothing holds the network back, so `none` always has this computer's own.
  if (unsandboxed) return { name, network: true, hosts: 'host', ...box };
  return { name, network: policy.network, hosts: policy.network ? policy.hosts : [], ...box };
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

/** Entries of `mine` that `theirs` lacks; none when `theirs` is absent (remembered before the box had the field: it covered all). */
function beyond(mine: readonly string[] | undefined, theirs: readonly string[] | undefined): string[] {
  return theirs === undefined ? [] : (mine ?? []).filter((entry) => !theirs.includes(entry));
}

/**
 * What `profile` lets a run do that `granted` did not, as the end of a sentence, or null: more of
 * the filesystem, the network or more hosts, a home file it did not read, a guarded entry it did not
 * write, more of a resource.
 */
export function widening(profile: SandboxProfile, granted: SandboxProfile): string | null {
  if (BREADTH[profile.name] > BREADTH[granted.name] || (profile.network && (!granted.network || reachesMore(profile.hosts, granted.hosts)))) {
    return `it would now run ${describeProfile(profile)}, more than the ${describeProfile(granted)} you allowed`;
  }
  const reads = beyond(profile.reads, granted.reads);
  if (reads.length > 0) return `it would now also read ${reads.join(', ')}`;
  const readsAt = beyond(profile.readsAt, granted.readsAt);
  if (readsAt.length > 0) return `what it declares it reads now leads to ${readsAt.join(', ')}`;
  const writes = beyond(profile.writes, granted.writes);
  if (writes.length > 0) return `it would now also write ${writes.join(', ')} in its folder`;
  const { limits } = profile;
  const allowed = granted.limits;
  const more = limits === undefined || allowed === undefined ? [] : RESOURCE_LIMIT_NAMES.filter((name) => limits[name] > allowed[name]);
  if (more.length > 0) return `it would now get more ${more.join(', ')} than you allowed`;
  return null;
}

/** True when `profile` lets a run do something `granted` did not. */
export function widens(profile: SandboxProfile, granted: SandboxProfile): boolean {
  return widening(profile, granted) !== null;
}

/** The profile in a few words: "read-only, no network", "may write in its working directory, network to api.github.com". */
export function describeProfile(profile: SandboxProfile): string {
  if (profile.name === 'none') return 'not sandboxed';
  const files = profile.name === 'read-only' ? 'read-only' : 'may write in its working directory';
  return `${files}, ${networkWords(profile)}`;
}
