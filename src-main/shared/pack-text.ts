/**
 * How a pack's signature, a finding's severity and a switch read, the same in the terminal, the
 * tray and the browser: "signed by alice@example.com", "signed by an untrusted key", "unsigned".
 */
import type { FindingSeverity, PackSignature, ScanReport, SkillSwitch } from './packs.js';

/** "signed by alice@example.com (ssh)", "signed by an untrusted key (SHA256:…)", "unsigned". */
export function signatureText(signature: PackSignature): string {
  if (signature.state === 'verified') return `signed by ${signature.signer ?? 'a trusted key'} (${signature.format})`;
  if (signature.state === 'untrusted') return `signed by an untrusted key${signature.signer === null ? '' : ` (${signature.signer})`}`;
  return 'unsigned';
}

/** What a person must do before the report can be installed, in one sentence; null when a confirmation is enough. */
export function installBlocker(report: ScanReport): string | null {
  if (!report.extracted) return 'the archive is unsafe to extract, so nothing of it can be installed, forced or not';
  const clash = report.skills.find((s) => s.clash !== null);
  if (clash) return `skill '${clash.name}' has the name of a ${clash.clash?.root} skill: install it under another name (--as)`;
  return null;
}

/** How many findings of each severity, worst first: "2 high, 1 low". */
export function findingCounts(report: Pick<ScanReport, 'findings'>): string {
  const order: FindingSeverity[] = ['high', 'medium', 'low'];
  const counts = order.map((s) => [s, report.findings.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);
  return counts.length === 0 ? 'no findings' : counts.map(([s, n]) => `${n} ${s}`).join(', ');
}

/** "off in Dev, on everywhere else" and the like, from a skill's switches; '' when it has none. */
export function switchesText(switches: readonly Pick<SkillSwitch, 'scope' | 'enabled'>[]): string {
  return switches.map((w) => `${w.enabled ? 'on' : 'off'} ${w.scope === 'all' ? 'everywhere' : `in ${w.scope}`}`).join(', ');
}
