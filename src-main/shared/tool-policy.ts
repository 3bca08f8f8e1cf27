/**
 * The one per-tool policy every reader goes by: policy's decision, the sandbox profile, the
 * approval, the dry run, `describe`, `list` and the skill page. A tool's own policy (`#### Policy`
 * in SKILL.md, a tool pack's `policy`) overrides the skill's for that tool; the loader has already
 * held it within what the skill permits (core/skills/tool-policy.ts), so here it simply wins.
 */
import type { NetworkHosts, Skill, Tool } from './model.js';
import { networkWords } from './network-reach.js';

/** What one tool's runs go by. */
export interface EffectivePolicy {
  readOnly: boolean;
  alwaysAsk: boolean;
  timeoutSec: number;
  network: boolean;
  hosts: NetworkHosts;
}

/** How far runs of `tool` reach (the part of its policy the sandbox profile is made of). */
export function effectiveReach(
  skill: Pick<Skill, 'readOnly' | 'network' | 'hosts'>,
  tool?: Pick<Tool, 'policy'> | null,
): Pick<EffectivePolicy, 'readOnly' | 'network' | 'hosts'> {
  const own = tool?.policy ?? {};
  // A tool never reaches past its skill: what takes the skill's network away (a served skill's until approved, W460) takes its tools' too.
  const network = skill.network && (own.network ?? true);
  return { readOnly: own.readOnly ?? skill.readOnly, network, hosts: network ? (own.network === undefined ? skill.hosts : (own.hosts ?? [])) : [] };
}

/** The policy runs of `tool` go by; without a tool, the skill's own (its frontmatter, or for a tool pack folder the widest of its tools). */
export function effectivePolicy(
  skill: Pick<Skill, 'readOnly' | 'alwaysAsk' | 'timeoutSec' | 'network' | 'hosts'>,
  tool?: Pick<Tool, 'policy'> | null,
): EffectivePolicy {
  const own = tool?.policy ?? {};
  return { ...effectiveReach(skill, tool), alwaysAsk: own.alwaysAsk ?? skill.alwaysAsk, timeoutSec: own.timeoutSec ?? skill.timeoutSec };
}

/** The keys a tool sets that differ from its skill's, in the words `describe` and the skill page show ("read-only", "always asks"…). */
export function policyDifferences(skill: Pick<Skill, 'readOnly' | 'alwaysAsk' | 'timeoutSec' | 'network' | 'hosts'>, tool: Pick<Tool, 'policy'>): string[] {
  const mine = effectivePolicy(skill, tool);
  const theirs = effectivePolicy(skill);
  const words: string[] = [];
  if (mine.readOnly !== theirs.readOnly) words.push(mine.readOnly ? 'read-only' : 'may write');
  if (mine.alwaysAsk !== theirs.alwaysAsk) words.push(mine.alwaysAsk ? 'always asks' : 'asks as policy says');
  if (mine.timeoutSec !== theirs.timeoutSec) words.push(`timeout ${mine.timeoutSec} s`);
  if (mine.network !== theirs.network || JSON.stringify(mine.hosts) !== JSON.stringify(theirs.hosts)) {
    words.push(networkWords(mine));
  }
  return words;
}
