/**
 * RFC-0004:C-INDEX tokenizer preference: `porter unicode61` where this SQLite has the porter
 * stemmer, `unicode61` otherwise. Detected once per process (and per native binding).
 */
import Database from 'better-sqlite3';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { TokenizerName } from '../../shared/gateway.js';

/** The `tokenize=` argument that builds an FTS5 table with the named tokenizer. */
export const TOKENIZE_CLAUSE: Record<TokenizerName, string> = {
  porter: 'porter unicode61',
  unicode61: 'unicode61',
};

const detected = new Map<string, TokenizerName>();

function supports(db: Database.Database, tokenizer: TokenizerName): boolean {
  try {
    db.exec(`CREATE VIRTUAL TABLE temp.probe_${tokenizer} USING fts5(x, tokenize='${TOKENIZE_CLAUSE[tokenizer]}')`);
    return true;
  } catch {
    return false;
  }
}

/** The tokenizer indexes are built with and checked against. */
export function tokenizerPreference(nativeBinding?: string): TokenizerName {
  const key = nativeBinding ?? '';
  const known = detected.get(key);
  if (known !== undefined) return known;
  const db = new Database(':memory:', nativeBinding === undefined ? {} : { nativeBinding });
  try {
    const choice: TokenizerName | null = supports(db, 'porter') ? 'porter' : supports(db, 'unicode61') ? 'unicode61' : null;
    if (choice === null) throw skillcErrors.internal('this SQLite build has no FTS5 unicode61 tokenizer');
    detected.set(key, choice);
    return choice;
  } finally {
    db.close();
  }
}
