/** The skill page's reading views: one section rendered as Markdown, or one file as text. */
import { ErrorNote } from '../app/error-note.js';
import { formatBytes } from '../app/format.js';
import { useResource } from '../app/use-resource.js';
import { SkillMarkdown } from './markdown.js';

const refreshFor = (skill: string) => (e: { type: string; name?: string }) => e.type === 'skills.changed' && e.name === skill;

/** A section (show op) rendered as Markdown, with where it comes from. */
export function SectionView({ skill, section, file }: { skill: string; section: string; file: string | null }) {
  const shown = useResource(`show\n${skill}\n${file ?? ''}\n${section}`, (client) => client.show({ skill, section, ...(file === null ? {} : { file }) }), refreshFor(skill));
  if (shown.error) return <ErrorNote error={shown.error} title={`Section “${section}” could not be shown`} />;
  if (!shown.data) return <p className="muted">Loading section…</p>;
  const s = shown.data;
  return (
    <article className="reading" aria-label={`Section ${s.section}`}>
      <p className="reading-source muted">
        {s.file}, lines {s.start_line}–{s.end_line}
      </p>
      {s.warning ? <p className="note note-warn">{s.warning}</p> : null}
      <SkillMarkdown skill={skill} file={s.file} text={s.content} />
      {s.more_lines > 0 ? <p className="hint">{s.more_lines} more lines not shown.</p> : null}
    </article>
  );
}

/** A file (open op): text in a <pre>, or a note for binary content. */
export function FileView({ skill, path }: { skill: string; path: string }) {
  const opened = useResource(`open\n${skill}\n${path}`, (client) => client.open({ skill, path }), refreshFor(skill));
  if (opened.error) return <ErrorNote error={opened.error} title={`${path} could not be opened`} />;
  if (!opened.data) return <p className="muted">Loading file…</p>;
  const f = opened.data;
  return (
    <article className="reading" aria-label={`File ${f.file}`}>
      <p className="reading-source muted">
        {f.file} · {formatBytes(f.size)}
      </p>
      {f.encoding === 'base64' ? (
        <p className="note">
          Binary file, {f.size} bytes.
        </p>
      ) : (
        <pre className="file-text" tabIndex={0} aria-label={`Contents of ${f.file}`}>
          {f.content}
        </pre>
      )}
      {f.more_lines > 0 ? <p className="hint">{f.more_lines} more lines not shown.</p> : null}
    </article>
  );
}
