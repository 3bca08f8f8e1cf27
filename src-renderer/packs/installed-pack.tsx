/**
 * One installed pack: where it came from and who signed it, whether its files still match the lock,
 * a switch per skill, and its update (fetched, shown as a diff, applied on a click) and removal.
 */
import { useState } from 'react';
import { displayText } from '../../src-main/shared/display-text.js';
import type { SkillSummary } from '../../src-main/shared/model.js';
import type { PackInfo, UpdateReport } from '../../src-main/shared/packs.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { formatTime } from '../app/format.js';
import { skillHref } from '../app/route.js';
import { SkillSwitch } from '../skills/skill-switch.js';
import { ConfirmReport } from './confirm-report.js';
import { OriginFacts, SignatureBadge } from './scan-report.js';
import { UpdateDiff } from './update-diff.js';

type Step =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'diff'; report: UpdateReport }
  | { kind: 'updating'; report: UpdateReport }
  | { kind: 'remove' }
  | { kind: 'removing' };

/** Files edited behind the lock listed on the card; `skilltray packs --check` lists them all. */
const MODIFIED_SHOWN = 20;

/** The pack's name, whether it is signed and matches its lock, and where it came from. */
function PackHead({ pack, modified }: { pack: PackInfo; modified: boolean }) {
  return (
    <>
      <div className="installed-pack-head">
        <h3 id={`pack-${pack.name}`}>{pack.name}</h3>
        <span className="badges">
          <SignatureBadge signature={pack.origin.signature} />
          {modified ? <span className="badge badge-bad">edited behind the lock</span> : <span className="badge badge-ok">matches the lock</span>}
        </span>
      </div>
      <OriginFacts origin={pack.origin} signature={false}>
        <div>
          <dt>Installed</dt>
          <dd>{formatTime(pack.installedAt)}</dd>
        </div>
      </OriginFacts>
    </>
  );
}

/** The files edited behind the lock (W416), the first MODIFIED_SHOWN of them, and the two ways back. */
function ModifiedFiles({ pack }: { pack: PackInfo }) {
  return (
    <div className="note note-error">
      <strong className="note-title">Files changed since Skilltray installed them (W416)</strong>
      <ul className="plain">
        {pack.modified.slice(0, MODIFIED_SHOWN).map((m) => (
          <li key={m.path}>
            <code>{displayText(m.path)}</code> {m.change}
          </li>
        ))}
        {pack.modified.length > MODIFIED_SHOWN ? <li className="muted">and {pack.modified.length - MODIFIED_SHOWN} more</li> : null}
      </ul>
      <p>
        Update the pack, or put its files back with <code>skilltray install --repair {pack.name}</code>.
      </p>
    </div>
  );
}

/** The pack's skills, each with its switch. */
function PackSkills({ pack, skills }: { pack: PackInfo; skills: ReadonlyMap<string, SkillSummary> }) {
  return (
    <ul className="pack-skills" aria-label={`Skills of ${pack.name}`}>
      {pack.skills.map((name) => {
        const skill = skills.get(name);
        return (
          <li key={name}>
            <a href={skillHref(name)}>{name}</a>
            {skill ? <SkillSwitch skill={skill} /> : <span className="muted">not loaded</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** Removing asks once, saying what goes and what stays. */
function RemoveConfirm({ pack, removing, onRemove, onKeep }: { pack: string; removing: boolean; onRemove: () => void; onKeep: () => void }) {
  return (
    <div className="note note-warn" role="group" aria-label={`Remove ${pack}`}>
      <p>
        Remove <strong>{pack}</strong>? Its files, its lock entry, its search indexes and the remembered approvals of its skills go; their run history stays.
      </p>
      <div className="button-row">
        <button type="button" className="button button-danger" onClick={onRemove} disabled={removing}>
          {removing ? 'Removing…' : `Remove ${pack}`}
        </button>
        <button type="button" className="button" onClick={onKeep} disabled={removing}>
          Keep it
        </button>
      </div>
    </div>
  );
}

/** An installed pack's card; `skills` gives its skills' switches, `onChanged` is told after an update or removal. */
export function InstalledPack({ pack, skills, onChanged }: { pack: PackInfo; skills: ReadonlyMap<string, SkillSummary>; onChanged: () => void }) {
  const client = useClient();
  const announce = useAnnounce();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const fail = (e: Error, back: Step): void => {
    setError(e);
    setStep(back);
  };

  const check = (): void => {
    setStep({ kind: 'checking' });
    setError(null);
    setNote(null);
    client.checkPackUpdate({ pack: pack.name }).then(
      (report) => {
        if (report.upToDate) {
          setNote(`${pack.name} is up to date.`);
          setStep({ kind: 'idle' });
        } else setStep({ kind: 'diff', report });
      },
      (e: Error) => fail(e, { kind: 'idle' }),
    );
  };

  const update = (report: UpdateReport, force: boolean): void => {
    setStep({ kind: 'updating', report });
    setError(null);
    client.updatePack({ pack: pack.name, confirm: report.scan.digest, ...(force ? { force: true } : {}) }).then(
      (change) => {
        const revoked = change.revoked.length === 0 ? '' : `; remembered approvals revoked: ${change.revoked.map((r) => `${r.skill}/${r.tool}`).join(', ')}`;
        setNote(`Updated ${pack.name}${revoked}.`);
        announce(`Updated pack ${pack.name}`);
        setStep({ kind: 'idle' });
        onChanged();
      },
      (e: Error) => fail(e, { kind: 'diff', report }),
    );
  };

  const remove = (): void => {
    setStep({ kind: 'removing' });
    setError(null);
    client.uninstallPack({ pack: pack.name }).then(
      () => {
        announce(`Removed pack ${pack.name}`);
        onChanged();
      },
      (e: Error) => fail(e, { kind: 'remove' }),
    );
  };

  const modified = pack.modified.length > 0;
  return (
    <li className="card installed-pack" aria-labelledby={`pack-${pack.name}`}>
      <PackHead pack={pack} modified={modified} />
      {modified ? <ModifiedFiles pack={pack} /> : null}
      <PackSkills pack={pack} skills={skills} />
      {note ? (
        <p className="note note-ok" role="status">
          {note}
        </p>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
      {step.kind === 'diff' || step.kind === 'updating' ? (
        <section className="report-card" aria-label={`Update of ${pack.name}`}>
          <h4>What the update changes</h4>
          <UpdateDiff report={step.report} />
          <ConfirmReport
            report={step.report.scan}
            action="Update"
            doing="Updating…"
            busy={step.kind === 'updating'}
            onConfirm={(force) => update(step.report, force)}
            onCancel={() => setStep({ kind: 'idle' })}
          />
        </section>
      ) : step.kind === 'remove' || step.kind === 'removing' ? (
        <RemoveConfirm pack={pack.name} removing={step.kind === 'removing'} onRemove={remove} onKeep={() => setStep({ kind: 'idle' })} />
      ) : (
        <div className="button-row">
          <button type="button" className="button" onClick={check} disabled={step.kind === 'checking'}>
            {step.kind === 'checking' ? 'Checking…' : 'Check for update'}
          </button>
          <button type="button" className="button button-danger-quiet" onClick={() => setStep({ kind: 'remove' })}>
            Remove…
          </button>
        </div>
      )}
    </li>
  );
}
