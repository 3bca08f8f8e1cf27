/** `#/packs`: install a pack (scan report first), and the installed ones with their switches, updates and removal. */
import { useState } from 'react';
import type { PackChange } from '../../src-main/shared/packs.js';
import { ErrorNote } from '../app/error-note.js';
import { useResource } from '../app/use-resource.js';
import { InstallForm } from './install-form.js';
import { InstalledPack } from './installed-pack.js';

/** The screen: the install card over the installed packs. */
export function PacksScreen() {
  const packs = useResource(
    'packs',
    (client) => client.packs({}),
    (e) => e.type === 'skills.changed',
  );
  const skills = useResource(
    'skills',
    (client) => client.list({ limit: 10_000 }),
    (e) => e.type === 'skills.changed' || e.type === 'settings',
  );
  const [last, setLast] = useState<PackChange | null>(null);
  const reload = (): void => {
    packs.reload();
    skills.reload();
  };
  const byName = new Map((skills.data?.skills ?? []).map((s) => [s.name, s]));
  return (
    <div className="page">
      <header className="page-head">
        <h1>Packs</h1>
        <p className="lede">
          Skills installed from a git repository, a folder or an archive, each checked before it is written and verified against its lock after.
        </p>
      </header>
      <section className="card" aria-labelledby="install-title">
        <h2 id="install-title">Install a pack</h2>
        <InstallForm
          onInstalled={(change) => {
            setLast(change);
            reload();
          }}
        />
        {last ? (
          <p className="note note-ok" role="status">
            {last.action === 'reinstalled' ? 'Reinstalled' : 'Installed'} <strong>{last.pack}</strong>: {last.skills.join(', ')}.
          </p>
        ) : null}
      </section>
      <section aria-labelledby="installed-title">
        <h2 id="installed-title">Installed</h2>
        {packs.error ? <ErrorNote error={packs.error} title="Packs could not be listed" /> : null}
        {packs.data && packs.data.length === 0 ? <p className="empty">No packs installed yet.</p> : null}
        <ul className="installed-packs">
          {(packs.data ?? []).map((pack) => (
            <InstalledPack key={pack.name} pack={pack} skills={byName} onChanged={reload} />
          ))}
        </ul>
      </section>
    </div>
  );
}
