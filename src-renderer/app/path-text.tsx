/** A file path that wraps after its separators instead of mid-name, its hidden characters escaped (displayText). */
import { Fragment } from 'react';
import { displayText } from '../../src-main/shared/display-text.js';

/** Text with a line-break opportunity after every `/` and `\`. */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[/\\])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}

/** A path in code style that wraps at its separators. */
export function PathText({ path }: { path: string }) {
  return (
    <code className="path">
      <Breakable text={displayText(path)} />
    </code>
  );
}
