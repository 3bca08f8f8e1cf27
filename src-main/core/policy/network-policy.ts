/**
 * What the network adds to a decision (docs/policy.md#network), apart from the rest of decide.ts so
 * the two change apart: a contained run with a network goes unasked only on a rule of the person's,
 * or on their Always given for exactly this reach (the same host list; `*` for `*`). Bundled policy
 * never runs one unasked, and `network: host` (this computer's own network) asks every time.
 */
import { networkWords } from '../../shared/network-reach.js';
import type { Skill, Tool } from '../../shared/model.js';
import type { Remembered, SandboxView } from '../../shared/runs.js';
import { sameHosts } from './profile.js';

/** Why a run that a remembered approval or bundled policy would let through must ask instead, or null. */
export function networkAsks(input: { skill: Skill; tool: Tool; sandbox: SandboxView; remembered: Remembered | null }): string | null {
  const { skill, tool, sandbox } = input;
  if (!sandbox.network || !sandbox.contained) return null;
  const name = `'${skill.name}/${tool.name}'`;
  if (sandbox.hosts === 'host') {
    return `${name} shares this computer's own network (ICMP and the system resolver, no Unix sockets), so every run asks unless a rule of yours allows it`;
  }
  const remembered = input.remembered;
  if (remembered !== null && remembered.revokedAt === null && remembered.skill === skill.name && remembered.tool === tool.name) {
    if (sameHosts(remembered.profile.hosts, sandbox.hosts)) return null;
    return `you chose to always allow ${name} with ${networkWords(remembered.profile)}; it now asks for ${networkWords(sandbox)}, so it asks`;
  }
  if (skill.trust === 'bundled') return `${name} is bundled but reaches the network (${networkWords(sandbox)}), so it asks`;
  return null;
}
