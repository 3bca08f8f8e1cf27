/**
 * Where a tool's run works, as both run forms (the skill page's and the palette's) ask for it: the
 * folder the skill last ran in comes back; a skill that never ran names none, and the form asks
 * rather than run somewhere the person did not choose (the box shows a tool only that folder).
 */
import { useId, useState } from 'react';
import { useRunFolder } from './use-run-folder.js';

/** The folder state of `skill`'s form: the value, its setter, and whether Run must wait for one. */
export function useFolderChoice(skill: string): { cwd: string; setFolder: (folder: string) => void; needsFolder: boolean } {
  const [folder, setFolder] = useRunFolder(skill);
  const cwd = folder ?? '';
  // No folder known for this skill yet (history loaded, none there): ask before running.
  return { cwd, setFolder, needsFolder: folder !== null && cwd.trim() === '' };
}

export function FolderField({ skill, cwd, setFolder, needsFolder }: { skill: string; cwd: string; setFolder: (folder: string) => void; needsFolder: boolean }) {
  const cwdId = useId();
  // Opened because a folder was needed, it stays open once one is typed: closing it would take the focus from the field mid-typing.
  const [open, setOpen] = useState(needsFolder);
  if (needsFolder && !open) setOpen(true);
  return (
    <details className="advanced" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Folder to run in{cwd.trim() === '' ? '' : `: ${cwd.trim()}`}</summary>
      <div className="field">
        <label htmlFor={cwdId}>Folder to run in (an absolute path; the last one used for {skill} comes back next time)</label>
        <input
          id={cwdId}
          type="text"
          value={cwd}
          required
          placeholder="/home/you/code/project"
          spellCheck={false}
          onChange={(e) => setFolder(e.target.value)}
        />
      </div>
      {needsFolder ? <p className="hint">{skill} has not run yet: choose the folder it runs in first.</p> : null}
    </details>
  );
}
