/**
 * The keys a person trusts to sign packs: SSH public keys go into `<home>/trusted-keys` (git's
 * allowed-signers format, for the `git` namespace), armored GPG public keys into the GnuPG home
 * `<home>/gnupg` — Skilltray's own, never the person's keyring.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { packErrors } from '../../shared/error-messages/packs.js';
import { gnupgHome, trustedKeysPath } from './layout.js';

/** What trust-key added. */
export interface TrustedKey {
  format: 'ssh' | 'gpg';
  /** The SSH principal (an email) or the GPG key ids imported. */
  principal: string;
  key: string;
}

const SSH_KEY =
  /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com)\s+([A-Za-z0-9+/=]+)(?:\s+(.*))?$/;

/**
 * Trusts `key` (a public key's text, or a path to one) for signing packs. An SSH key needs a
 * principal — `principal`, else the key's comment when it is an email.
 */
export async function trustKey(home: string, env: NodeJS.ProcessEnv, key: string, principal: string | null): Promise<TrustedKey> {
  const text = (existsSync(key) ? readFileSync(key, 'utf8') : key).trim();
  if (text.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----')) {
    mkdirSync(gnupgHome(home), { recursive: true, mode: 0o700 });
    const imported = await execa('gpg', ['--batch', '--import', '--import-options', 'import-minimal'], {
      input: text,
      env: { ...env, GNUPGHOME: gnupgHome(home) },
      reject: false,
    });
    if (imported.exitCode !== 0) throw packErrors.invalidKey(`gpg could not import it (${imported.stderr.split('\n')[0] ?? ''})`);
    const ids = [...imported.stderr.matchAll(/key ([0-9A-F]{8,40}):/g)].map((m) => m[1] as string);
    // A key imported here is one the person chose: trust it fully, so git calls its signatures good.
    for (const id of ids) await execa('gpg', ['--batch', '--quick-set-ownertrust', id, 'full'], { env: { ...env, GNUPGHOME: gnupgHome(home) }, reject: false });
    return { format: 'gpg', principal: ids.join(', '), key: ids[0] ?? '' };
  }
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '' && !l.startsWith('#')) ?? '';
  const match = SSH_KEY.exec(line);
  if (match === null) throw packErrors.invalidKey('expected an SSH public key (ssh-ed25519 AAAA… comment) or an armored GPG public key block');
  const type = match[1] as string;
  const body = match[2] as string;
  const comment = match[3]?.trim() ?? '';
  const who = principal ?? (/^[^\s@]+@[^\s@]+$/.test(comment) ? comment : null);
  if (who === null || !/^[^\s"]+$/.test(who)) throw packErrors.invalidKey("an SSH key needs the signer's email: --principal alice@example.com");
  const entry = `${who} namespaces="git" ${type} ${body}\n`;
  const path = trustedKeysPath(home);
  if (!existsSync(path) || !readFileSync(path, 'utf8').includes(`${type} ${body}`)) appendFileSync(path, entry, { mode: 0o644 });
  return { format: 'ssh', principal: who, key: `${type} ${body.slice(0, 16)}…` };
}
