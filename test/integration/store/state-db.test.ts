import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Migration } from '../../../src-main/core/store/migrations.js';
import { MIGRATIONS, SCHEMA_VERSION, applyMigrations, userVersion } from '../../../src-main/core/store/migrations.js';
import { openStateDb } from '../../../src-main/core/store/state-db.js';
import { useTempHomes } from './temp-home.js';
import { thrownBy } from '../../support/errors.js';

const homes = useTempHomes();

const tables = (db: Database.Database): string[] =>
  db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((r) => r.name);

describe('openStateDb', () => {
  it('creates the parent directory and migrates an empty file to the latest version', () => {
    const path = join(homes.dir(), 'nested', 'home', 'state.db');
    const db = homes.open(path);
    expect(existsSync(path)).toBe(true);
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(tables(db)).toEqual(expect.arrayContaining(['runs', 'remembered_approvals', 'rules', 'settings', 'runs_by_time']));
  });

  it('turns on WAL, foreign keys and a 5 s busy timeout', () => {
    const db = homes.fresh();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('re-opens an existing database without re-running migrations and keeps its data', () => {
    const path = join(homes.dir(), 'state.db');
    const first = homes.open(path);
    first.prepare("INSERT INTO rules (pattern, effect, created_at) VALUES ('skill:*', 'deny', 1)").run();
    const schema = tables(first);
    first.close();
    const again = homes.open(path);
    expect(userVersion(again)).toBe(SCHEMA_VERSION);
    expect(tables(again)).toEqual(schema);
    expect(again.prepare('SELECT pattern FROM rules').all()).toEqual([{ pattern: 'skill:*' }]);
  });

  it('runs every migration body twice without harm (each is idempotent)', () => {
    const db = homes.fresh();
    for (const m of MIGRATIONS) m.up(db);
    expect(db.prepare('SELECT count(*) AS n FROM settings').get()).toEqual({ n: 1 });
  });

  it('refuses a database written by a newer Skilltray with E999, and leaves it untouched and closed', () => {
    const path = join(homes.dir(), 'state.db');
    homes.open(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const error = thrownBy(() => openStateDb(path));
    expect(error.code).toBe('E999');
    expect(error.message).toContain(`schema version ${SCHEMA_VERSION + 1}, newer than this Skilltray understands (${SCHEMA_VERSION})`);
    const check = new Database(path);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('replaces a file that is not a database with a fresh one, keeping the old file beside it', () => {
    const path = join(homes.dir(), 'state.db');
    writeFileSync(path, 'this is not sqlite, just text long enough to fill a header page '.repeat(20));
    const db = homes.open(path);
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(readdirSync(dirname(path)).filter((f) => f.startsWith('state.db.corrupt-'))).toHaveLength(1);
  });
});

describe('applyMigrations', () => {
  const create =
    (name: string): Migration['up'] =>
    (db) =>
      db.exec(`CREATE TABLE ${name} (x INTEGER)`);

  it('applies only the steps above the current version, in order', () => {
    const db = new Database(':memory:');
    const seen: number[] = [];
    const steps: Migration[] = [1, 2, 3].map((version) => ({
      version,
      up: (d) => {
        seen.push(version);
        create(`t${version}`)(d);
      },
    }));
    expect(applyMigrations(db, steps.slice(0, 1))).toBe(1);
    expect(applyMigrations(db, steps)).toBe(3);
    expect(seen).toEqual([1, 2, 3]);
    expect(userVersion(db)).toBe(3);
    db.close();
  });

  it('rolls a failing step back entirely: neither its changes nor its version bump stay', () => {
    const db = new Database(':memory:');
    const steps: Migration[] = [
      { version: 1, up: create('t1') },
      {
        version: 2,
        up: (d) => {
          create('t2')(d);
          throw new Error('boom');
        },
      },
    ];
    expect(() => applyMigrations(db, steps)).toThrow('boom');
    expect(userVersion(db)).toBe(1);
    expect(tables(db)).toEqual(['t1']);
    db.close();
  });

  it('rejects a misnumbered migration list before touching the database', () => {
    const db = new Database(':memory:');
    const error = thrownBy(() =>
      applyMigrations(db, [
        { version: 1, up: create('a') },
        { version: 3, up: create('b') },
      ]),
    );
    expect(error.code).toBe('E999');
    expect(error.message).toContain('expected version 2, found 3');
    expect(userVersion(db)).toBe(0);
    db.close();
  });

  it('numbers the shipped migrations 1..N', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });
});

describe('two connections (the app writing, a CLI reading)', () => {
  it('lets a reader see the last commit while a writer holds a transaction open', () => {
    const path = join(homes.dir(), 'state.db');
    const writer = homes.open(path);
    const reader = homes.open(path);
    writer.prepare("INSERT INTO rules (pattern, effect, created_at) VALUES ('skill:a', 'deny', 1)").run();
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare("INSERT INTO rules (pattern, effect, created_at) VALUES ('skill:b', 'deny', 2)").run();
    expect(reader.prepare('SELECT pattern FROM rules ORDER BY id').all()).toEqual([{ pattern: 'skill:a' }]);
    writer.exec('COMMIT');
    expect(reader.prepare('SELECT pattern FROM rules ORDER BY id').all()).toEqual([{ pattern: 'skill:a' }, { pattern: 'skill:b' }]);
  });
});
