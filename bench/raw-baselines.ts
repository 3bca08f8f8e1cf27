/**
 * The raw baselines the CLI is measured against, as processes of their own (run with `node
 * dist/node/bench/raw-baselines.js <what> …`): a bare FTS5 query on an index, reading every file
 * of a directory, and a bare FTS5 insert of rows given as JSON (timed inside, after the rows are
 * read, and printed as `{"ms": …}`). Nothing of Skilltray is imported.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';

function readAll(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += readAll(path);
    else bytes += readFileSync(path, 'utf8').length;
  }
  return bytes;
}

const [what, ...args] = process.argv.slice(2);
if (what === 'query') {
  const [index, match] = args as [string, string];
  const db = new Database(index, { readonly: true, fileMustExist: true });
  const rows = db
    .prepare(
      "SELECT file, section, snippet(sections, 2, '[MATCH]', '[/MATCH]', '...', 32) AS snippet, bm25(sections) AS rank FROM sections WHERE sections MATCH ? ORDER BY rank LIMIT 10",
    )
    .all(match);
  process.stdout.write(`${JSON.stringify(rows)}\n`);
} else if (what === 'read') {
  process.stdout.write(`${readAll(args[0] as string)}\n`);
} else if (what === 'insert') {
  const [rowsFile, dbFile] = args as [string, string];
  const rows = JSON.parse(readFileSync(rowsFile, 'utf8')) as [string, string, string][];
  rmSync(dbFile, { force: true });
  const start = performance.now();
  const db = new Database(dbFile);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec("CREATE VIRTUAL TABLE sections USING fts5(file, section, content, tokenize='porter unicode61')");
  const insert = db.prepare('INSERT INTO sections (file, section, content) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const row of rows) insert.run(...row);
  })();
  db.close();
  process.stdout.write(`${JSON.stringify({ ms: performance.now() - start })}\n`);
} else {
  process.stderr.write('usage: raw-baselines query <index> <fts-match> | read <dir> | insert <rows.json> <db>\n');
  process.exitCode = 2;
}
