/**
 * The policy decision for one tool call: a pure function of the skill, the settings, the rules,
 * any remembered approval, how the run would be contained and the environment. Checks run in a
 * fixed order (docs/policy.md): what cannot run is refused first, then a deny rule, then a skill
 * whose files cannot be vouched for and always_ask, then what allows a run without asking (an allow
 * rule made for this very skill; a remembered approval or bundled read-only policy, both only for a
 * contained run); the rest asks. Rules and approvals are pinned to who the skill is (pins.ts).
 * Every reason and error message is a sentence an assistant can relay to the person.
 */
import type { Mode, Skill, Tool } from '../../shared/model.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { policyErrors } from '../../shared/error-messages/policy.js';
import { runnerErrors } from '../../shared/error-messages/runner.js';
import type { Remembered, Rule, SandboxView } from '../../shared/runs.js';
import { alwaysBlindTo } from './always.js';
import { isOffered } from './modes.js';
import { networkAsks } from './network-policy.js';
import { coverage, profileOf, rememberedElsewhere, type Coverage } from './pins.js';
import { describeProfile, widening } from './profile.js';
import { governingRule, parseRulePattern } from './rules.js';
import type { SensitiveArgument } from './sensitive-paths.js';
import { effectivePolicy } from '../../shared/tool-policy.js';

export interface DecideInput {
  skill: Skill;
  tool: Tool;
  mode: Mode;
  paused: boolean;
  rules: readonly Rule[];
  /** The live remembered approval for this tool in this folder (pins.ts rememberedFor), if any. */
  remembered: Remembered | null;
  /** The run's working folder, canonical: a remembered approval holds in its own folder and those inside it. */
  cwd: string;
  /** Resolved absolute path of the rendered program; null when it was not found. */
  programPath: string | null;
  /** The rendered program as written, to name it when it is not found. */
  program?: string;
  /** Why the resolved program may not run at all (it lies in a secret place: sensitive-paths.ts secretProgram), or null. */
  programRefused?: SkilltrayError | null;
  /** PATH lookup for requires.bins (injected so the function stays pure). */
  resolveBin: (name: string) => string | null;
  /** The environment requires.env is checked against. */
  env: NodeJS.ProcessEnv;
  /** A request part naming a hidden path or Skilltray's own data (see sensitive-paths.ts), or null. */
  sensitive?: SensitiveArgument | null;
  /** False when the person turned the skill off, everywhere or in this mode. */
  enabled: boolean;
  /** How the run would be contained: only a contained run goes unasked on a remembered approval or bundled policy. */
  sandbox: SandboxView;
}

export type Decision =
  | { outcome: 'auto'; by: 'policy' | 'rule' | 'remembered'; ruleId?: number; reason: string }
  | { outcome: 'ask'; reason: string }
  | { outcome: 'deny'; by: 'rule'; ruleId: number; error: SkilltrayError }
  | { outcome: 'refuse'; error: SkilltrayError };

/** Why a remembered approval no longer applies, or null when it still does. */
function lapse(remembered: Remembered, skill: Skill, programPath: string, sandbox: SandboxView, cwd: string): string | null {
  const elsewhere = rememberedElsewhere(remembered, skill, cwd);
  if (elsewhere !== null) return elsewhere;
  const blind = alwaysBlindTo(skill);
  if (blind !== null) return blind;
  if (remembered.skillHash !== skill.hash) {
    return `the skill's files have changed since you chose to always allow it`;
  }
  if (remembered.programPath !== programPath) {
    return `the program now resolves to ${programPath} instead of ${remembered.programPath}`;
  }
  if (remembered.folder === null && sandbox.name !== 'read-only') {
    return 'it was allowed in any folder, which holds only for a read-only tool, and this one can change files';
  }
  return widening(sandbox, remembered.profile);
}

/** What an uncontained run that would otherwise go unasked says instead. */
function notContained(sandbox: SandboxView): string {
  return sandbox.name === 'none' ? 'you turned its sandbox off' : `it cannot be contained here (${sandbox.why ?? 'no sandbox'})`;
}

/**
 * Decides whether a tool call runs on its own, needs the person's approval, is denied or is refused.
 * Whatever would run without asking asks instead when the request reaches for a sensitive path.
 */
export function decide(input: DecideInput): Decision {
  const decision = decideInOrder(input);
  const sensitive = input.sensitive;
  if (decision.outcome !== 'auto' || !sensitive) return decision;
  const what = sensitive.param === 'cwd' ? 'its working directory' : `its argument '${sensitive.param}'`;
  return {
    outcome: 'ask',
    reason: `'${input.skill.name}/${input.tool.name}' would run without asking (${decision.reason}), but ${what} ${JSON.stringify(sensitive.value)}: ${sensitive.why}; it runs only with your approval`,
  };
}

function decideInOrder(input: DecideInput): Decision {
  const { skill, tool, mode } = input;
  const name = `'${skill.name}/${tool.name}'`;

  if (input.paused) {
    return {
      outcome: 'refuse',
      error: policyErrors.runsPaused(skill.name, tool.name),
    };
  }
  if (!input.enabled) {
    return {
      outcome: 'refuse',
      error: policyErrors.skillDisabled(skill.name, tool.name, mode),
    };
  }
  if (!isOffered(skill, mode) || (tool.modes !== undefined && !tool.modes.includes(mode))) {
    return {
      outcome: 'refuse',
      error: policyErrors.notOfferedInMode(skill.name, tool.name, mode, tool.modes ?? skill.modes),
    };
  }
  const missingBins = skill.requires.bins.filter((bin) => input.resolveBin(bin) === null);
  if (missingBins.length > 0) {
    return {
      outcome: 'refuse',
      error: policyErrors.missingBinary(skill.name, tool.name, missingBins),
    };
  }
  const missingEnv = skill.requires.env.filter((key) => !Object.hasOwn(input.env, key) || (input.env[key] ?? '') === '');
  if (missingEnv.length > 0) {
    return {
      outcome: 'refuse',
      error: policyErrors.missingEnvironment(skill.name, tool.name, missingEnv),
    };
  }
  if (input.programPath === null) {
    return {
      outcome: 'refuse',
      error: runnerErrors.programNotFound(skill.name, tool.name, input.program),
    };
  }
  if (input.programRefused) return { outcome: 'refuse', error: input.programRefused };

  const { sandbox } = input;
  // An allow rule made for another skill of this name is not about this one: it neither allows nor outranks.
  const covers = new Map<number, Coverage>();
  for (const r of input.rules)
    if (r.effect === 'allow' && parseRulePattern(r.pattern).matches(skill.name, tool.name)) covers.set(r.id, coverage(r, skill, profileOf(sandbox), tool.name));
  const notAbout = [...covers.values()].flatMap((c) => (c.kind === 'elsewhere' ? [c.why] : []));
  const rule = governingRule(
    input.rules.filter((r) => covers.get(r.id)?.kind !== 'elsewhere'),
    skill.name,
    tool.name,
  );
  if (rule?.effect === 'deny') {
    return {
      outcome: 'deny',
      by: 'rule',
      ruleId: rule.id,
      error: policyErrors.deniedByRule(skill.name, tool.name, rule.id, rule.pattern),
    };
  }
  if (skill.identity.unverified !== null) {
    return { outcome: 'ask', reason: `${skill.identity.unverified}; a skill whose files cannot be vouched for never runs without asking` };
  }
  const policy = effectivePolicy(skill, tool);
  if (policy.alwaysAsk) {
    const who = skill.alwaysAsk
      ? `skill '${skill.name}' sets always_ask`
      : `tool ${name} sets ${tool.file === undefined ? 'always_ask' : 'confirm_before_run'} in its policy`;
    return { outcome: 'ask', reason: `${who}, so every run needs approval` };
  }
  // No rule runs a skill an MCP source serves: only the person's own answer for that very skill does (a deny rule still denies it).
  if (rule !== null && skill.root.kind !== 'mcp') {
    const stands = covers.get(rule.id);
    if (stands?.kind === 'widened') return { outcome: 'ask', reason: `${name} needs approval: ${stands.why}` };
    return { outcome: 'auto', by: 'rule', ruleId: rule.id, reason: `allowed by rule #${rule.id} (${rule.pattern})` };
  }
  const network = networkAsks(input);
  if (network !== null) return { outcome: 'ask', reason: network };
  const remembered = input.remembered;
  if (remembered !== null && remembered.revokedAt === null && remembered.skill === skill.name && remembered.tool === tool.name) {
    const why = lapse(remembered, skill, input.programPath, sandbox, input.cwd);
    if (why !== null) return { outcome: 'ask', reason: `the approval you gave to always allow ${name} has lapsed: ${why}` };
    if (!sandbox.contained) return { outcome: 'ask', reason: `you chose to always allow ${name}, but ${notContained(sandbox)}, so it asks` };
    return { outcome: 'auto', by: 'remembered', reason: `you chose to always allow ${name} (${describeProfile(sandbox)})` };
  }
  if (skill.trust === 'bundled' && policy.readOnly && !sandbox.network) {
    // Bundled trust covers the skill's files and the system's programs, not a program found elsewhere on PATH.
    if ((sandbox.programs ?? []).length > 0) {
      return {
        outcome: 'ask',
        reason: `skill '${skill.name}' is bundled and read-only, but its program ${input.programPath} is not in the system's folders, so bundled trust does not cover it and it asks`,
      };
    }
    if (!sandbox.contained) return { outcome: 'ask', reason: `skill '${skill.name}' is bundled and read-only, but ${notContained(sandbox)}, so it asks` };
    return {
      outcome: 'auto',
      by: 'policy',
      reason: `skill '${skill.name}' is bundled with Skilltray and read-only, and runs contained (${describeProfile(sandbox)})`,
    };
  }
  const why =
    skill.root.kind === 'mcp'
      ? `skill '${skill.name}' is served by an MCP source, so its runs need your approval (rules never allow it)`
      : skill.trust === 'user'
        ? `skill '${skill.name}' is a user skill, so its runs need approval`
        : sandbox.network
          ? `${name} can reach the network, so it needs approval even though it is bundled`
          : `${name} is not read-only, so it needs approval`;
  return { outcome: 'ask', reason: notAbout.length === 0 ? why : `${why} (${notAbout.join('; ')})` };
}
