/**
 * What an update changes, in the terms a person judges it by: per tool the Command's lines removed
 * and added, a new program, the sandbox and the network before and after, new environment; per
 * script its own lines removed and added; the other files that changed; what may do more than
 * before is marked.
 */
import type { SkillChangeReport, TextDiff, ToolChange, UpdateReport } from '../../src-main/shared/packs.js';
import { displayText } from '../../src-main/shared/display-text.js';
import { Findings, SignatureBadge } from './scan-report.js';

const CHANGE_BADGE: Record<ToolChange['change'], string> = { added: 'badge-info', removed: 'badge-neutral', changed: 'badge-warn', unchanged: 'badge-quiet' };

const LINE_CLASS = (line: string): string | undefined =>
  line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : line.startsWith('@@') ? 'diff-hunk' : undefined;

/** A unified diff's lines, coloured by kind, with what was left out said. */
function DiffLines({ diff, label }: { diff: TextDiff; label: string }) {
  if (diff.omitted !== null)
    return (
      <p className="muted">
        {label}: {diff.omitted}, not shown
      </p>
    );
  return (
    <pre className="command-diff" aria-label={label}>
      {diff.lines.map((line, i) => (
        <span key={i} className={LINE_CLASS(line)}>
          {displayText(line)}
          {'\n'}
        </span>
      ))}
      {diff.more > 0 ? (
        <span className="muted">
          … {diff.more} more line{diff.more === 1 ? '' : 's'}
        </span>
      ) : null}
    </pre>
  );
}

function ToolDiff({ tool }: { tool: ToolChange }) {
  return (
    <li className="tool-diff" aria-label={`Tool ${tool.name}: ${tool.change}`}>
      <div className="scanned-tool-head">
        <code className="tool-name">{displayText(tool.name)}</code> <span className={`badge ${CHANGE_BADGE[tool.change]}`}>{tool.change}</span>
        {tool.widened ? <span className="badge badge-bad">may do more than before</span> : null}
      </div>
      {tool.commandDiff !== null ? <DiffLines diff={tool.commandDiff} label="Command before and after" /> : null}
      <ul className="diff-facts">
        {tool.newProgram !== null ? (
          <li>
            New program: <code className="program">{displayText(tool.newProgram)}</code>
          </li>
        ) : null}
        {tool.profileBefore !== tool.profileAfter ? (
          <li>
            Sandbox: {tool.profileBefore ?? '—'} → <strong>{tool.profileAfter ?? '—'}</strong>
          </li>
        ) : tool.profileAfter !== null ? (
          <li className="muted">Sandbox: {tool.profileAfter}</li>
        ) : null}
        {tool.networkBefore !== tool.networkAfter && tool.networkAfter !== null ? (
          <li>{tool.networkAfter ? 'Now claims the network' : 'No longer claims the network'}</li>
        ) : null}
        {tool.newEnv.length > 0 ? <li>New environment: {displayText(tool.newEnv.join(', '))}</li> : null}
      </ul>
    </li>
  );
}

function SkillDiff({ skill }: { skill: SkillChangeReport }) {
  const tools = skill.tools.filter((t) => t.change !== 'unchanged');
  return (
    <li className="scanned-skill" aria-label={`Skill ${skill.name}: ${skill.change}`}>
      <div className="scanned-skill-head">
        <strong>{skill.name}</strong> <span className={`badge ${CHANGE_BADGE[skill.change]}`}>{skill.change}</span>
      </div>
      {tools.length > 0 ? (
        <ul className="scanned-tools">
          {tools.map((tool) => (
            <ToolDiff key={tool.name} tool={tool} />
          ))}
        </ul>
      ) : null}
      {skill.scripts.length + skill.files.length > 0 ? (
        <ul className="file-changes" aria-label={`Files of ${skill.name} that change`}>
          {skill.scripts.map((f) => (
            <li key={`s\n${f.path}`} aria-label={`Script ${f.path}: ${f.change}`}>
              <span className="badge badge-warn">script {f.change}</span> <code>{displayText(f.path)}</code>
              {f.mayDoMore ? (
                <>
                  {' '}
                  <span className="badge badge-bad">may do more than before: it now downloads</span>
                </>
              ) : null}
              <DiffLines diff={f.diff} label={`Lines of ${f.path}`} />
            </li>
          ))}
          {skill.files.map((f) => (
            <li key={`f\n${f.path}`}>
              <span className="badge badge-neutral">{f.change}</span> <code>{displayText(f.path)}</code>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The diff of an update: from which commit to which, who signed the new one, what changes, and the new version's findings. */
export function UpdateDiff({ report }: { report: UpdateReport }) {
  const from = report.from.commit === null ? 'the installed copy' : <code>{report.from.commit.slice(0, 12)}</code>;
  const to = report.scan.origin.commit === null ? 'the source as it is now' : <code>{report.scan.origin.commit.slice(0, 12)}</code>;
  const changed = report.skills.filter((s) => s.change !== 'unchanged');
  return (
    <div className="update-diff" role="region" aria-label={`Update of ${report.pack}`}>
      <p>
        From {from} to {to}, <SignatureBadge signature={report.scan.origin.signature} />
        {report.widened ? <span className="badge badge-bad">may do more than before</span> : null}
      </p>
      <ul className="scanned-skills">
        {changed.map((skill) => (
          <SkillDiff key={skill.name} skill={skill} />
        ))}
      </ul>
      <h3 className="report-title">Findings in the new version</h3>
      <Findings findings={report.scan.findings} />
    </div>
  );
}
