/** Browser mode without a working token: how to get one, and a field to paste it. */
import { useId, useState, type FormEvent } from 'react';
import { useConnection } from '../app/connection-context.js';
import { BrandMark } from '../app/brand-mark.js';

export function ConnectScreen({ refused }: { refused: boolean }) {
  const connection = useConnection();
  const id = useId();
  const [token, setToken] = useState('');
  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (token.trim() !== '') connection.useToken(token);
  };
  return (
    <main className="connect" aria-labelledby="connect-title">
      <div className="card connect-card">
        <BrandMark className="brand-mark brand-mark-large" />
        <h1 id="connect-title">Connect to Skilltray</h1>
        <p>
          {refused ? 'The app refused this page’s token (it may have been rotated). ' : 'This page needs the token of the Skilltray running on this machine. '}
          Open the address <code>skilltray serve --web</code> printed (it ends in <code>#token=…</code>), or paste the token from{' '}
          <code>skilltray token --show</code>.
        </p>
        <form onSubmit={submit} className="inline-form">
          <div className="field">
            <label htmlFor={id}>Token</label>
            <input id={id} type="password" autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} required />
          </div>
          <button type="submit" className="button button-primary">
            Connect
          </button>
        </form>
        <p className="hint">The token stays in this tab only (session storage) and is sent to 127.0.0.1 alone.</p>
      </div>
    </main>
  );
}
