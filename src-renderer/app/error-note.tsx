/** An error from the app as a person reads it: the registry code first, then the message. */
import { SkilltrayClientError } from '../../src-main/shared/contract.js';

/** Shows `error[E603] the person at the desktop denied …`; `role="alert"` so it is heard at once. */
export function ErrorNote({ error, title }: { error: Error; title?: string }) {
  const code = error instanceof SkilltrayClientError ? error.code : null;
  return (
    <div className="note note-error" role="alert">
      {title ? <strong className="note-title">{title}</strong> : null}
      <p>
        {code ? <code className="error-code">error[{code}]</code> : null} {error.message}
      </p>
    </div>
  );
}

/** The error's registry code, when it came from the app. */
export function errorCode(error: unknown): string | null {
  return error instanceof SkilltrayClientError ? error.code : null;
}
