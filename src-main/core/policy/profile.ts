/**
 * Which sandbox profile a tool asks for. The skill decides how much it needs (read_only or an
 * ADR-001 read_only effect → `read-only`, anything else → `workspace`; `network: true` adds the
 * network); only the person can take a skill out of the sandbox (`none`), never its frontmatter.
 * The runner applies the profile (core/runner/sandbox); policy only compares profiles.
 */
import type { Skill } from '../../shared/model.js';
import type { SandboxProfile, SandboxProfileName } from '../../shared/runs.js';

/** How much each profile lets a run touch, narrowest first. */
const BREADTH: Record<SandboxProfileName, number> = { 'read-only': 0, workspace: 1, none: 2 };

/** The profile a run of `skill` gets; `unsandboxed` is the person's own per-skill setting. */
export function profileFor(skill: Pick<Skill, 'readOnly' | 'network' | 'classification'>, unsandboxed: boolean): SandboxProfile {
  const readOnly = skill.readOnly || skill.classification?.effectMode === 'read_only';
  const name: SandboxProfileName = unsandboxed ? 'none' : readOnly ? 'read-only' : 'workspace';
  // Without a sandbox nothing holds the network back, so `none` always has it.
  return { name, network: unsandboxed || skill.network };
}

/** True when `profile` lets a run do something `granted` did not (more of the filesystem, or the network). */
export function widens(profile: SandboxProfile, granted: SandboxProfile): boolean {
  return BREADTH[profile.name] > BREADTH[granted.name] || (profile.network && !granted.network);
}

/** The profile in a few words: "read-only, no network", "writes in its folder, network". */
export function describeProfile(profile: SandboxProfile): string {
  if (profile.name === 'none') return 'not sandboxed';
  const files = profile.name === 'read-only' ? 'read-only' : 'may write in its working directory';
  return `${files}, ${profile.network ? 'with network' : 'no network'}`;
}
