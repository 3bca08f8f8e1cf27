/** An error from the app as a person reads it: the registry code first, then the message. */
import { SkilltrayClientError } from '../../src-main/shared/contract.js';
import { didYouMeanText } from '../../src-main/shared/did-you-mean.js';

/** Shows `error[E603] the person at the desktop denied …` (and "did you mean …" for a name it does not know); `role="alert"` so it is heard at once. */
export function ErrorNote({ error, title }: { error: Error; title?: string }) {
  const code = error instanceof SkilltrayClientError ? error.code : null;
  const hint = error instanceof SkilltrayClientError ? didYouMeanText(error.details) : null;
  return (
    <div className="note note-error" role="alert">
      {title ? <strong className="note-title">{title}</strong> : null}
      <p>
        {code ? <code className="error-code">error[{code}]</code> : null} {error.message}
      </p>
      {hint ? <p className="did-you-mean">{hint}</p> : null}
    </div>
  );
}

/** The error's registry code, when it came from the app. */
export function errorCode(error: unknown): string | null {
  return error instanceof SkilltrayClientError ? error.code : null;
}
