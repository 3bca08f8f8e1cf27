/** Statements compiled once per connection and reused: preparing costs more than running, and a kept-open database is read and written many times. */
import type Database from 'better-sqlite3';

const statements = new WeakMap<Database.Database, Map<string, Database.Statement<unknown[], unknown>>>();

/** The statement for `sql` on `db`, compiled on first use and reused after. */
export function prepared<P extends unknown[] | object = unknown[], R = unknown>(db: Database.Database, sql: string): Database.Statement<P, R> {
  let cache = statements.get(db);
  if (cache === undefined) {
    cache = new Map();
    statements.set(db, cache);
  }
  let statement = cache.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement as unknown as Database.Statement<P, R>;
}
