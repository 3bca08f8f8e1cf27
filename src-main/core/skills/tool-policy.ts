/**
 * A tool's `#### Policy` section in SKILL.md: lines `read_only: true`, `always_ask: true`,
 * `timeout: 30`, `network: [api.github.com]`. Each overrides the skill's frontmatter for that tool
 * within what the frontmatter permits: a tool may always narrow (read-only, always ask, less
 * network, a shorter timeout); it may not widen what the frontmatter declares (read_only,
 * always_ask, its network, a timeout it writes), and such a line is reported (W450) and ignored.
 */
import type { NetworkHosts, ToolPolicy } from '../../shared/model.js';
import { ANY_HOST } from '../../shared/network-reach.js';
import { nearestNames } from '../did-you-mean.js';
import type { Block } from '../markdown/blocks.js';
import type { DiagnosticList } from './diagnostics.js';
import { formatHostPattern, parseHostPattern } from './network-hosts.js';

/** What the skill's frontmatter permits its tools: its own values, and whether it wrote a timeout at all. */
export interface PolicyCeiling {
  readOnly: boolean;
  alwaysAsk: boolean;
  timeoutSec: number;
  /** Without a `timeout:` in the frontmatter a tool may take any timeout up to the maximum. */
  timeoutWritten: boolean;
  network: boolean;
  hosts: NetworkHosts;
  writes: readonly string[];
}

/** The keys a Policy line may set, as written. */
export const POLICY_KEYS = ['read_only', 'always_ask', 'timeout', 'network'] as const;

/** Longest timeout anyone may ask for, as the frontmatter's `timeout:` (seconds). */
export const MAX_TIMEOUT_SEC = 300;

interface PolicyLine {
  key: string;
  value: string;
  line: number;
}

/** A line of the section: a `key: value`, or text of another shape (reported where it stands). */
type SectionLine = PolicyLine | { text: string; line: number };

/** The lines of the section's blocks, in order, with their lines; a block of another kind is E450. */
function policyLines(blocks: readonly Block[], tool: string, file: string, diags: DiagnosticList): SectionLine[] {
  const lines: SectionLine[] = [];
  for (const block of blocks) {
    const kind = block.token.type;
    if (kind !== 'paragraph' && kind !== 'code' && kind !== 'list') {
      diags.add('E450', `tool ${tool}: write its policy as lines such as \`read_only: true\`, not a ${kind}`, file, block.line);
      continue;
    }
    const raw = (block.token.raw as string).trimStart().split('\n');
    raw.forEach((text, i) => {
      const trimmed = text.trim();
      if (kind === 'code' && /^(`{3,}|~{3,})/.test(trimmed)) return;
      const bare = kind === 'list' ? trimmed.replace(/^[-*+]\s+/, '') : trimmed;
      if (bare === '' || bare.startsWith('#')) return;
      const match = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$/.exec(bare);
      if (match === null) {
        lines.push({ text: bare, line: block.line + i });
        return;
      }
      lines.push({ key: match[1] as string, value: match[2] as string, line: block.line + i });
    });
  }
  return lines;
}

/** `network:` as a line writes it: false, true (any host), host, or `[a, b]` host patterns; a string says why not. */
function parseNetwork(value: string): { network: boolean; hosts: NetworkHosts } | string {
  if (value === 'false') return { network: false, hosts: [] };
  if (value === 'true') return { network: true, hosts: [ANY_HOST] };
  if (value === 'host') return { network: true, hosts: 'host' };
  const list = /^\[(.*)\]$/.exec(value);
  if (list === null) return 'network must be true, false, host or a list such as [api.github.com]';
  const hosts: string[] = [];
  for (const entry of (list[1] as string).split(',')) {
    const text = entry.trim().replace(/^(['"])(.*)\1$/, '$2');
    if (text === '') continue;
    const pattern = parseHostPattern(text);
    if (typeof pattern === 'string') return `network host ${JSON.stringify(text)}: ${pattern}`;
    if (!hosts.includes(formatHostPattern(pattern))) hosts.push(formatHostPattern(pattern));
  }
  return hosts.length === 0 ? { network: false, hosts: [] } : { network: true, hosts };
}

/** Whether the frontmatter's network (`ceiling`) reaches every place `wanted` would. */
function networkWithin(wanted: { network: boolean; hosts: NetworkHosts }, ceiling: PolicyCeiling): boolean {
  if (!wanted.network) return true;
  if (!ceiling.network) return false;
  if (wanted.hosts === 'host' || ceiling.hosts === 'host') return wanted.hosts === ceiling.hosts;
  if (ceiling.hosts.includes(ANY_HOST)) return true;
  return !wanted.hosts.includes(ANY_HOST) && wanted.hosts.every((host) => ceiling.hosts.includes(host));
}

/** A boolean line's value, or null (reported) when it is not true or false. */
function booleanOf(line: PolicyLine, tool: string, file: string, diags: DiagnosticList): boolean | null {
  if (line.value === 'true' || line.value === 'false') return line.value === 'true';
  diags.add('E450', `tool ${tool}: ${line.key} must be true or false, got ${JSON.stringify(line.value)}`, file, line.line);
  return null;
}

/**
 * Reads a tool's `#### Policy` section (its blocks) against what the skill permits; `headingLine` is
 * the line of the `#### Policy` heading. Unknown keys and bad values are E450, widening is W450.
 */
export function readPolicySection(
  blocks: readonly Block[],
  headingLine: number,
  tool: string,
  ceiling: PolicyCeiling,
  file: string,
  diags: DiagnosticList,
): ToolPolicy {
  const policy: ToolPolicy = { line: headingLine };
  const seen = new Set<string>();
  const widens = (line: PolicyLine, why: string): void => diags.add('W450', `tool ${tool}: ${line.key}: ${line.value} is ignored: ${why}`, file, line.line);
  for (const line of policyLines(blocks, tool, file, diags)) {
    if (!('key' in line)) {
      diags.add('E450', `tool ${tool}: policy line ${JSON.stringify(line.text)} is not \`key: value\``, file, line.line);
      continue;
    }
    if (!(POLICY_KEYS as readonly string[]).includes(line.key)) {
      const near = nearestNames(line.key, POLICY_KEYS);
      const hint = near.length > 0 ? `; did you mean '${near[0] as string}'?` : `; a policy sets ${POLICY_KEYS.join(', ')}`;
      diags.add('E450', `tool ${tool}: unknown policy key '${line.key}'${hint}`, file, line.line);
      continue;
    }
    if (seen.has(line.key)) {
      diags.add('E450', `tool ${tool}: policy key '${line.key}' is set twice`, file, line.line);
      continue;
    }
    seen.add(line.key);
    if (line.key === 'read_only') {
      const value = booleanOf(line, tool, file, diags);
      if (value === false && ceiling.readOnly) widens(line, 'the skill says read_only: true, and a tool may not write where its skill says it only reads');
      else if (value !== null) policy.readOnly = value;
    } else if (line.key === 'always_ask') {
      const value = booleanOf(line, tool, file, diags);
      if (value === false && ceiling.alwaysAsk) widens(line, 'the skill says always_ask: true, and a tool may not ask less than its skill');
      else if (value !== null) policy.alwaysAsk = value;
    } else if (line.key === 'timeout') {
      const seconds = /^\d+$/.test(line.value) ? Number(line.value) : NaN;
      if (!(seconds >= 1 && seconds <= MAX_TIMEOUT_SEC)) {
        diags.add('E450', `tool ${tool}: timeout must be a whole number of seconds from 1 to ${MAX_TIMEOUT_SEC}, got ${JSON.stringify(line.value)}`, file, line.line);
      } else if (ceiling.timeoutWritten && seconds > ceiling.timeoutSec) {
        widens(line, `the skill's timeout is ${ceiling.timeoutSec} s, and a tool may only shorten it (or leave timeout: out of the frontmatter)`);
      } else {
        policy.timeoutSec = seconds;
      }
    } else {
      const network = parseNetwork(line.value);
      if (typeof network === 'string') diags.add('E450', `tool ${tool}: ${network}`, file, line.line);
      else if (!networkWithin(network, ceiling)) widens(line, "the skill's network: does not reach that far, and a tool may only narrow it");
      else Object.assign(policy, network);
    }
  }
  if (policy.readOnly === true && !ceiling.readOnly && ceiling.writes.length > 0) {
    diags.add('W450', `tool ${tool} is read-only, so the skill's writes: (${ceiling.writes.join(', ')}) do not apply to it`, file, headingLine);
  }
  return policy;
}
