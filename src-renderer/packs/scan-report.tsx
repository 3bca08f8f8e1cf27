/**
 * The scan report as a person reads it before saying yes: where the pack comes from and who signed
 * it, the findings worst first (with the text that matched), then each skill with the program each
 * tool runs, its sandbox and network, the environment it asks for, and its scripts.
 */
import type { ReactNode } from 'react';
import type { FindingSeverity, PackOrigin, PackSignature, ScanFinding, ScannedSkill, ScanReport } from '../../src-main/shared/packs.js';
import { displayText } from '../../src-main/shared/display-text.js';
import { findingCounts, signatureText } from '../../src-main/shared/pack-text.js';
import { formatBytes } from '../app/format.js';
import { PathText } from '../app/path-text.js';

const SEVERITY_BADGE: Record<FindingSeverity, string> = { high: 'badge-bad', medium: 'badge-warn', low: 'badge-neutral' };

/** "signed by …" as a badge: green when a trusted key signed it, amber for an unknown key, grey for none. */
export function SignatureBadge({ signature }: { signature: PackSignature }) {
  const kind = signature.state === 'verified' ? 'badge-ok' : signature.state === 'untrusted' ? 'badge-warn' : 'badge-neutral';
  return (
    <span className={`badge ${kind}`} title={signature.detail ?? undefined}>
      {signatureText(signature)}
    </span>
  );
}

/** Kind, source, ref, path and commit of a pack (and its signature, unless shown elsewhere), as facts. */
export function OriginFacts({ origin, signature = true, children }: { origin: PackOrigin; signature?: boolean; children?: ReactNode }) {
  return (
    <dl className="facts">
      <div className="fact-wide">
        <dt>Source ({origin.kind})</dt>
        <dd>
          <PathText path={origin.source} />
        </dd>
      </div>
      {origin.ref !== null ? (
        <div>
          <dt>Ref</dt>
          <dd>
            <code>{displayText(origin.ref)}</code>
          </dd>
        </div>
      ) : null}
      {origin.path !== null ? (
        <div>
          <dt>Folder in it</dt>
          <dd>
            <code>{displayText(origin.path)}</code>
          </dd>
        </div>
      ) : null}
      {origin.commit !== null ? (
        <div>
          <dt>Commit</dt>
          <dd>
            <code title={origin.commit}>{origin.commit.slice(0, 12)}</code>
          </dd>
        </div>
      ) : null}
      {signature ? (
        <div>
          <dt>Signature</dt>
          <dd>
            <SignatureBadge signature={origin.signature} />
            {origin.signature.detail !== null ? <span className="fact-note">{displayText(origin.signature.detail)}</span> : null}
          </dd>
        </div>
      ) : null}
      {children}
    </dl>
  );
}

/** The findings, worst first, each with its code, place and the text that matched. */
export function Findings({ findings }: { findings: readonly ScanFinding[] }) {
  if (findings.length === 0)
    return <p className="note note-ok">Nothing alarming found: no fetch-and-run, no decode-and-run, no binaries, hidden files, symlinks out or setuid bits.</p>;
  return (
    <ul className="findings" aria-label="Findings">
      {findings.map((f, i) => (
        <li key={`${f.code}\n${f.file}\n${f.line ?? ''}\n${i}`} className={`finding finding-${f.severity}`}>
          <span className="badges">
            <span className={`badge ${SEVERITY_BADGE[f.severity]}`}>{f.severity}</span>
            <code className="finding-code">{f.code}</code>
          </span>
          <span className="finding-text">
            <span className="finding-where">
              <code>
                {f.file === '' ? '(the pack)' : displayText(f.file)}
                {f.line === null ? '' : `:${f.line}`}
              </code>
            </span>{' '}
            {displayText(f.message)}
          </span>
          {f.excerpt !== null ? <code className="finding-excerpt">{displayText(f.excerpt)}</code> : null}
        </li>
      ))}
    </ul>
  );
}

/** One skill of the report: its tools (program, sandbox, network, environment), scripts and errors. */
function ScannedSkillView({ skill }: { skill: ScannedSkill }) {
  return (
    <li className="scanned-skill" aria-label={`Skill ${skill.name}`}>
      <div className="scanned-skill-head">
        <strong>{skill.name}</strong>
        {skill.originalName !== null ? <span className="muted">(named {displayText(skill.originalName)} in the source)</span> : null}
        {skill.version !== null ? <span className="version">v{displayText(skill.version)}</span> : null}
      </div>
      {skill.description !== '' ? <p className="skill-desc">{displayText(skill.description)}</p> : null}
      {skill.clash !== null ? (
        <p className="note note-error">
          A {skill.clash.root} skill named <strong>{skill.name}</strong> is already loaded from <PathText path={skill.clash.path} />: install this one under
          another name.
        </p>
      ) : null}
      {skill.tools.length === 0 ? (
        <p className="muted">No tools: instructions only.</p>
      ) : (
        <ul className="scanned-tools">
          {skill.tools.map((tool) => (
            <li key={tool.name} className="scanned-tool">
              <div className="scanned-tool-head">
                <code className="tool-name">{displayText(tool.name)}</code> runs <code className="program">{displayText(tool.program)}</code>
                {tool.programInPack ? <span className="muted"> (a script of the pack)</span> : null}
              </div>
              <span className="badges">
                {/* The profile's words say the network claim too ("…, with network"); a claim of it is marked. */}
                <span
                  className={`badge badge-wrap ${tool.network ? 'badge-warn' : tool.profileName === 'read-only' ? 'badge-ok' : 'badge-neutral'}`}
                  title="The sandbox its runs get, and whether they may reach the network"
                >
                  sandbox: {tool.profile}
                </span>
                {tool.env.length > 0 ? <span className="badge badge-wrap badge-warn">env: {tool.env.join(', ')}</span> : null}
                {tool.reads.length > 0 ? (
                  <span className="badge badge-wrap badge-warn" title="What the box shows it beyond its folder (reads:)">
                    reads: {tool.reads.map((read) => displayText(read)).join(', ')}
                  </span>
                ) : null}
                {tool.writes.length > 0 ? (
                  <span className="badge badge-wrap badge-warn" title="Guarded entries of its folder it may change (writes:)">
                    writes: {tool.writes.map((write) => displayText(write)).join(', ')}
                  </span>
                ) : null}
              </span>
              <pre className="command-template">{displayText(tool.command)}</pre>
            </li>
          ))}
        </ul>
      )}
      {skill.scripts.length > 0 ? (
        <p className="scanned-scripts">
          Scripts:{' '}
          {skill.scripts.map((script) => (
            <code key={script} className="chip">
              {displayText(script)}
            </code>
          ))}
        </p>
      ) : null}
      {skill.errors.length > 0 ? (
        <ul className="item-list" aria-label={`Errors of ${skill.name}`}>
          {skill.errors.map((error) => (
            <li key={error}>
              <span className="badge badge-bad">error</span> {displayText(error)}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The whole report: origin, size, findings, skills. */
export function ScanReportView({ report }: { report: ScanReport }) {
  return (
    <div className="scan-report" aria-label={`Scan report of ${report.pack || 'the archive'}`} role="region">
      <OriginFacts origin={report.origin}>
        <div>
          <dt>Files</dt>
          <dd>
            {report.files} ({formatBytes(report.bytes)})
          </dd>
        </div>
      </OriginFacts>
      <h3 className="report-title">Findings: {findingCounts(report)}</h3>
      <Findings findings={report.findings} />
      {report.extracted ? (
        <>
          <h3 className="report-title">
            {report.skills.length} {report.skills.length === 1 ? 'skill' : 'skills'}
          </h3>
          <ul className="scanned-skills">
            {report.skills.map((skill) => (
              <ScannedSkillView key={skill.name} skill={skill} />
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
