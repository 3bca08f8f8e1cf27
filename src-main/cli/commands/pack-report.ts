/**
 * The scan report, the update diff and the pack list as text a person reads before saying yes;
 * every line goes through displayText, so nothing a pack names can reorder or fake a line.
 */
import { displayLines } from '../../shared/display-text.js';
import type { PackInfo, ScanReport, TextDiff, UpdateReport } from '../../shared/packs.js';
import { signatureText } from '../../shared/pack-text.js';

const MIB = 1024 * 1024;

function originLine(report: ScanReport): string {
  const o = report.origin;
  const at = [o.ref === null ? null : `ref ${o.ref}`, o.path === null ? null : `path ${o.path}`, o.commit === null ? null : `commit ${o.commit.slice(0, 12)}`]
    .filter(Boolean)
    .join(', ');
  return `${o.kind} ${o.source}${at === '' ? '' : ` (${at})`} — ${signatureText(o.signature)}`;
}

/** The scan report: origin, each skill with its tools (program, profile, network) and scripts, then the findings. */
export function scanReportText(report: ScanReport): string {
  const lines = [`pack ${report.pack || '(not extracted)'} from ${originLine(report)}`, `  ${report.files} files, ${(report.bytes / MIB).toFixed(2)} MiB`];
  for (const skill of report.skills) {
    lines.push(
      `skill ${skill.name}${skill.originalName === null ? '' : ` (was ${skill.originalName})`}${skill.version === null ? '' : ` ${skill.version}`}: ${skill.description.replace(/\s+/g, ' ').slice(0, 100)}`,
    );
    if (skill.clash !== null) lines.push(`  ! name clash: a ${skill.clash.root} skill '${skill.name}' is at ${skill.clash.path}`);
    for (const tool of skill.tools) {
      lines.push(
        `  tool ${tool.name}: runs ${tool.program}${tool.programInPack ? ' (from the pack)' : ''} — ${tool.profile}${tool.env.length === 0 ? '' : `; env ${tool.env.join(', ')}`}`,
      );
      if (tool.reads.length > 0) lines.push(`    reads ${tool.reads.join(', ')}`);
      if (tool.writes.length > 0) lines.push(`    writes ${tool.writes.join(', ')}`);
      lines.push(`    ${tool.command}`);
    }
    for (const script of skill.scripts) lines.push(`  script ${script}`);
    for (const error of skill.errors) lines.push(`  error ${error}`);
  }
  if (report.findings.length === 0) lines.push('findings: none');
  for (const f of report.findings) {
    lines.push(`${f.severity.toUpperCase().padEnd(6)} ${f.code} ${f.file}${f.line === null ? '' : `:${f.line}`} ${f.message}`);
    if (f.excerpt !== null) lines.push(`         ${f.excerpt}`);
  }
  return displayLines(lines);
}

/** A unified diff's lines, indented, with what was left out said. */
function diffLines(diff: TextDiff, indent: string): string[] {
  if (diff.omitted !== null) return [`${indent}(${diff.omitted}: not shown)`];
  return [...diff.lines.map((l) => `${indent}${l}`), ...(diff.more > 0 ? [`${indent}… ${diff.more} more line${diff.more === 1 ? '' : 's'}`] : [])];
}

/** The update diff: per skill, each tool's Command lines and what may widen; each script's own lines; then the new version's findings. */
export function updateReportText(report: UpdateReport): string {
  const from = report.from.commit === null ? 'installed copy' : report.from.commit.slice(0, 12);
  const to = report.scan.origin.commit === null ? 'the source now' : report.scan.origin.commit.slice(0, 12);
  if (report.upToDate) return `pack ${report.pack} is up to date (${from})\n`;
  const lines = [`pack ${report.pack}: ${from} → ${to} — ${signatureText(report.scan.origin.signature)}${report.widened ? ' — MAY DO MORE THAN BEFORE' : ''}`];
  for (const skill of report.skills) {
    if (skill.change === 'unchanged') continue;
    lines.push(`skill ${skill.name}: ${skill.change}`);
    for (const tool of skill.tools) {
      if (tool.change === 'unchanged') continue;
      lines.push(`  tool ${tool.name}: ${tool.change}${tool.widened ? ' — MAY DO MORE THAN BEFORE' : ''}`);
      if (tool.commandDiff !== null) lines.push(...diffLines(tool.commandDiff, '    '));
      if (tool.newProgram !== null) lines.push(`    new program: ${tool.newProgram}`);
      if (tool.profileBefore !== tool.profileAfter) lines.push(`    sandbox: ${tool.profileBefore ?? '—'} → ${tool.profileAfter ?? '—'}`);
      if (tool.newEnv.length > 0) lines.push(`    new environment: ${tool.newEnv.join(', ')}`);
    }
    for (const script of skill.scripts) {
      lines.push(`  script ${script.path}: ${script.change}${script.mayDoMore ? ' — MAY DO MORE THAN BEFORE (it now downloads)' : ''}`);
      lines.push(...diffLines(script.diff, '    '));
    }
    for (const file of skill.files) lines.push(`  file ${file.path}: ${file.change}`);
  }
  const findings = scanReportText(report.scan)
    .split('\n')
    .filter((l) => /^(HIGH|MEDIUM|LOW)|^ {9}/.test(l));
  lines.push(findings.length === 0 ? 'findings in the new version: none' : 'findings in the new version:', ...findings);
  return displayLines(lines);
}

/** Two lines per installed pack. */
export function packListText(packs: readonly PackInfo[]): string {
  if (packs.length === 0) return 'No packs installed. Install one with: skilltray install SOURCE\n';
  return displayLines(
    packs.flatMap((p) => {
      const commit = p.origin.commit === null ? '' : ` @ ${p.origin.commit.slice(0, 12)}`;
      const state =
        p.modified.length === 0
          ? 'verified against the lock'
          : `MODIFIED: ${p.modified
              .slice(0, 3)
              .map((m) => `${m.path} (${m.change})`)
              .join(', ')}`;
      return [
        `${p.name}  ${p.skills.join(', ')}`,
        `  ${p.origin.kind} ${p.origin.source}${commit} — ${signatureText(p.origin.signature)}; ${state}; installed ${new Date(p.installedAt).toISOString()}`,
      ];
    }),
  );
}

/** Per pack, every file that differs from its lock, and how to put it back; nothing for a pack that matches. */
export function lockCheckText(packs: readonly PackInfo[]): string {
  const lines = packs
    .filter((p) => p.modified.length > 0)
    .flatMap((p) => [
      `${p.name}: ${p.modified.length} file${p.modified.length === 1 ? '' : 's'} differ${p.modified.length === 1 ? 's' : ''} from the lock:`,
      ...p.modified.map((m) => `  ${m.change.padEnd(8)} ${m.path}`),
      `  put it back: skilltray install --repair ${p.name}`,
    ]);
  return lines.length === 0 ? '' : displayLines(lines);
}
