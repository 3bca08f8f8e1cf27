/**
 * One ranked search across every loaded skill (`skilltray search --all`, search-as-you-type in the
 * UI and the palette): a catalog at `<home>/runtime/.catalog/search.db` holding each skill's
 * sections as plain text (its own index keeps the Markdown) plus the skill's name, and text in
 * scripts written without spaces a second time as character pairs (unspaced-text.ts). `sync` brings
 * it in line with the loaded skills by content hash in one transaction, so unchanged skills cost
 * nothing (their records are kept in memory until another process writes the catalog); a catalog
 * that fails to open or read is deleted and rebuilt. Schema and queries are in catalog-sql.ts; how
 * ranked rows become hits (nesting merged, grouped by skill) in catalog-hits.ts.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { diskFault, errnoOf } from '../disk-faults.js';
import { editDistance, typoLimit } from '../did-you-mean.js';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import { checkIntegerOption } from '../options.js';
import { mergeNested, toolsFirst, type RowPlace } from './catalog-hits.js';
import { walkSkill, type SkillFile } from '../skills/walk.js';
import { catalogRowsJob, type CatalogRow } from './catalog-rows.js';
import { runInParallel } from '../parallel.js';
import { isIndexedFile } from './documents.js';
import {
  CATALOG_SCHEMA_VERSION,
  catalogMarkExpression,
  catalogFunctions,
  catalogMarkSql,
  catalogMatch,
  catalogSchema,
  matchAttempts,
  catalogSearchParams,
  catalogSearchSql,
  catalogTitleSql,
  catalogHoldingSql,
  catalogRankOfSql,
  catalogStandInSql,
  SKILL_ROWS_SQL,
  type RowRange,
  headingMatch,
  unspacedSearchSql,
  CATALOG_INDEX_ROWS,
  CATALOG_WORDS_TRIGGERS,
  WORDS_TRIGGER,
  type CatalogMatch,
  type MatchLevel,
} from './catalog-sql.js';
import { corruptIndexError } from './skill-index.js';
import { oneLine } from './plain-text.js';
import { DEFAULT_SEARCH_LIMIT, queryTokens } from './query.js';
import { isStopword } from './stopwords.js';
import { tokenizerPreference } from './tokenizer.js';
import { hasUnspacedRun, markPieces, unspacedMatch, unspacedSnippet, type UnspacedMatch } from './unspaced-text.js';
import type { ToolCommands } from './tool-text.js';
import type { TokenizerName } from '../../shared/gateway.js';

export interface CatalogSkill {
  name: string;
  dir: string;
  /** The skill's content hash (RFC-0001 manifest hash); a skill whose hash is unchanged is skipped. */
  hash: string;
  /** Its tools: a SKILL.md section under one of their headings is that tool's hit, and their Commands are read as callers see them. */
  commands?: ToolCommands;
  /** Its files as the load walked them (the ones its hash covers); walked at sync when not given. */
  files?: readonly SkillFile[];
  /** Its description (from SKILL.md's frontmatter), indexed as a row of its own. */
  description?: string | null;
}

export interface CatalogSync {
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
  /** Set when the catalog was unreadable and has been rebuilt from scratch. */
  rebuilt: boolean;
}

export interface CatalogSearchOptions {
  limit?: number;
  /** Search-as-you-type: the last token matches as a word prefix (`"tok"*`), unstemmed. */
  prefix?: boolean;
  /** Only this skill's rows. */
  skill?: string;
  /** Whether a skill is broken (has errors, so its tools will not run): its tools come after every other hit. */
  broken?: (skill: string) => boolean;
}

/** One ranked hit of the catalog, before the gateway names its tool. */
export interface CatalogHit extends RowPlace {
  section: string;
  /** A hit on the skill's description (SKILL.md's frontmatter), not on a section. */
  about: boolean;
  /** The section's heading with the query's words marked. */
  title: string;
  trail: string[];
  /** The tool the section documents, by name. */
  tool: string | null;
  snippet: string;
  /** 0–1: its BM25 against the strongest hit's. */
  score: number;
}

export interface CatalogResult {
  query: string;
  /** Whether every hit holds every word of the query that says something (`all`), or some hold only some of them (`any`). */
  matched: MatchLevel;
  results: CatalogHit[];
}

export interface CatalogOptions {
  nativeBinding?: string;
  /** Threads a sync may read skills on, this one included (core/parallel.ts); 1 by default. */
  threads?: number;
  /** Told before skills are read into the catalog: which, and how many bytes of their files will be indexed. */
  onIndexing?(work: IndexingWork): void;
}

/** Skills about to be (re)indexed. */
export interface IndexingWork {
  skills: string[];
  /** Bytes of the files that will be read (Markdown and text). */
  bytes: number;
}

/** Told while a sync reads the skills that changed: `done` of `total` read so far. */
export type CatalogProgress = (done: number, total: number) => void;

/** Where the catalog lives: `.catalog` can never be a skill's slug, so never a skill's runtime dir. */
export function catalogPath(home: string): string {
  return join(home, 'runtime', '.catalog', 'search.db');
}

/** How long a sync waits for another process's sync of the same catalog (a cold one of 10,000 skills takes seconds). */
const BUSY_TIMEOUT_MS = 120_000;

/** Changed skills from which a sync stores every row first and indexes them in one pass (see suspendIndexing). */
const BULK_MIN = 64;

/** Bytes of changed files from which a sync does so too, however few the skills: one big skill's rows cost as many skills' would. */
const BULK_MIN_BYTES = 1024 * 1024;

/** How far helper threads may read skills ahead of the rows this thread has stored, in bytes of their files (core/parallel.ts). */
const READ_AHEAD_BYTES = 16 * 1024 * 1024;

/** Bytes of the indexed files (Markdown and text) among `files`. */
function indexedBytes(files: readonly SkillFile[]): number {
  let bytes = 0;
  for (const file of files) if (isIndexedFile(file.rel)) bytes += file.size;
  return bytes;
}

/** Skills a bulk sync that only adds stores between two indexing statements (see suspendIndexing). */
const BULK_INDEX_EVERY = 1000;

/** Skills a background sync reads between two turns of the event loop. */
const BACKGROUND_BATCH = 50;

/** Whether the catalog holds `skill` as it is: same hash, same directory. */
function sameRecord(record: SkillRecord | undefined, skill: CatalogSkill): boolean {
  return record !== undefined && record.hash === skill.hash && record.dir === skill.dir;
}

/** Whether the catalog's records differ from the skills wanted: one added, removed (when `wanted` is `complete`), or with another hash or dir. */
function differs(records: ReadonlyMap<string, SkillRecord>, wanted: ReadonlyMap<string, CatalogSkill>, complete = true): boolean {
  if (complete && records.size !== wanted.size) return true;
  for (const skill of wanted.values()) if (!sameRecord(records.get(skill.name), skill)) return true;
  return false;
}

/** A skill's files; none for a directory that vanished since loading (until the next sync). */
function filesOf(skill: CatalogSkill): readonly SkillFile[] {
  if (skill.files !== undefined) return skill.files;
  try {
    return walkSkill(skill.dir).files;
  } catch {
    return [];
  }
}

/** A skill's catalog rows, read from its files. */
function rowsOf(skill: CatalogSkill): CatalogRow[] {
  return catalogRowsJob.run({ files: filesOf(skill), commands: skill.commands ?? null, description: skill.description ?? null });
}

/**
 * Scores from 0 to 1 for hits in answer order, from their BM25 (negative, best lowest): the first
 * is 1, and each is its BM25 against the first's, never more than the one before it. The order is
 * BM25's and then some (tools and headings that say what was asked first, grouped by skill), and a
 * score that rose down the list would say the order is wrong.
 */
export function followingRanks(ranks: readonly number[]): number[] {
  const first = ranks[0];
  let last = 1;
  return ranks.map((rank) => {
    const own = first !== undefined && first < 0 ? rank / first : 1;
    last = Math.min(last, own);
    return last;
  });
}

/** How much of its skill's description's score a section gets (see withDescriptions). */
const DESCRIPTION_SHARE = 0.5;

/**
 * The indexed word a typed `word` most likely meant: within a typo or two (see typoLimit), fewest
 * edits first, then the word in the most rows. `starting(prefix)` lists the indexed words that begin
 * with a prefix; a typo rarely hits both of the first two letters, so the words starting with either
 * are the candidates.
 */
export function closestWord(word: string, starting: (prefix: string) => readonly { term: string; doc: number }[]): string | null {
  const limit = typoLimit([...word].length);
  const firsts = [...new Set([...word].slice(0, 2))];
  let best: { term: string; distance: number; doc: number } | null = null;
  for (const first of firsts) {
    for (const { term, doc } of starting(first)) {
      if (term === word || Math.abs(term.length - word.length) > limit) continue;
      const distance = editDistance(word, term, limit);
      if (distance > limit) continue;
      if (best === null || distance < best.distance || (distance === best.distance && (doc > best.doc || (doc === best.doc && term < best.term))))
        best = { term, distance, doc };
    }
  }
  return best?.term ?? null;
}

/** Ranked rows asked of SQLite per hit wanted: merging a section with its parent and children drops some. */
const FETCH_FACTOR = 4;

/** Errors that mean the file is not a usable catalog (as opposed to busy, full or read-only). */
function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code === 'SQLITE_FORMAT') return true;
  return code === 'SQLITE_ERROR' && /no such (table|column)|malformed|vtable constructor failed/i.test((error as Error).message);
}

interface SkillRecord {
  id: number;
  name: string;
  dir: string;
  hash: string;
}

/** A ranked row as the ranking statements return it. */
interface RankedRow extends RowPlace {
  id: number;
  skill_id: number;
  section: string;
  trail: string;
  tool: string | null;
  /** 1 on the row of the skill's description. */
  about: number;
  rank: number;
}

/** An open catalog; keep it open for search-as-you-type (statements are prepared once). */
export class SkillCatalog {
  readonly path: string;
  private db: Database.Database;
  private readonly options: CatalogOptions;
  private readonly tokenizer: TokenizerName;
  /** The list given to the last sync, to rebuild from when a read finds the catalog corrupt. */
  private lastSkills: readonly CatalogSkill[] | null = null;
  private rebuiltOnOpen = false;
  private statements = new Map<string, Database.Statement>();
  /** The skill records as of `version` (PRAGMA data_version, which moves when another connection commits), so a sync need not read them all again. */
  private known: { version: number; records: Map<string, SkillRecord> } | null = null;
  /** Why the catalog lives in memory for this process (its file could not be written), or null while it is the file. */
  private memoryBecause: string | null = null;

  private constructor(path: string, options: CatalogOptions) {
    this.path = path;
    this.options = options;
    this.tokenizer = tokenizerPreference(options.nativeBinding);
    this.db = this.openOrRecreate();
  }

  /** Opens (creating or rebuilding as needed) the catalog under `home`. */
  static open(home: string, options: CatalogOptions = {}): SkillCatalog {
    return new SkillCatalog(catalogPath(home), options);
  }

  /** A catalog in memory, gone once closed: for a skill read by path, which no stored catalog holds. */
  static inMemory(options: CatalogOptions = {}): SkillCatalog {
    return new SkillCatalog(':memory:', options);
  }

  private connect(): Database.Database {
    const db = new Database(
      this.memoryBecause === null ? this.path : ':memory:',
      this.options.nativeBinding === undefined ? {} : { nativeBinding: this.options.nativeBinding },
    );
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      if (this.memoryBecause === null) {
        // WAL lets the app search while a CLI process syncs; NORMAL syncs the disk at checkpoints only, not at every commit:
        // a power cut may lose the last sync (the next one redoes it) but never tears the file.
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
      }
      catalogFunctions(db);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Reads every table once; false when the layout or tokenizer is not this version's. */
  private matchesLayout(db: Database.Database): boolean {
    const rows = db.prepare('SELECT key, value FROM catalog_meta').all() as { key: string; value: string }[];
    const meta = new Map(rows.map((row) => [row.key, row.value]));
    // Every column a query names: a file of another layout under the same version number is rebuilt, not met mid-search.
    db.prepare('SELECT id, name, dir, hash, sections, about, first_row, last_row FROM catalog_skills LIMIT 1').get();
    db.prepare('SELECT id, skill_id, skill, file, section, content, about, level, start_line, end_line, trail, tool, unspaced FROM catalog_rows LIMIT 1').get();
    db.prepare('SELECT rowid FROM catalog WHERE catalog MATCH \'"probe"\' LIMIT 1').all();
    db.prepare('SELECT rowid FROM catalog_words WHERE catalog_words MATCH \'"probe"\' LIMIT 1').all();
    db.prepare('SELECT rowid FROM catalog_grams WHERE catalog_grams MATCH \'"probe"\' LIMIT 1').all();
    return meta.get('schema_version') === String(CATALOG_SCHEMA_VERSION) && meta.get('tokenizer') === this.tokenizer;
  }

  private create(): Database.Database {
    if (this.memoryBecause === null && this.path !== ':memory:') mkdirSync(join(this.path, '..'), { recursive: true });
    const db = this.connect();
    try {
      db.exec(catalogSchema(this.tokenizer));
      const insert = db.prepare('INSERT INTO catalog_meta (key, value) VALUES (?, ?)');
      insert.run('schema_version', String(CATALOG_SCHEMA_VERSION));
      insert.run('tokenizer', this.tokenizer);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  private remove(): void {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${this.path}${suffix}`, { force: true });
  }

  private openOrRecreate(): Database.Database {
    try {
      if (existsSync(this.path)) {
        let db: Database.Database | undefined;
        try {
          db = this.connect();
          if (this.matchesLayout(db)) return db;
        } catch (error) {
          if (!isCorruption(error)) throw error;
        }
        db?.close();
        this.remove();
        this.rebuiltOnOpen = true;
      }
      return this.create();
    } catch (error) {
      if (!this.canLiveInMemory(error)) throw toSkilltrayError(error);
      return this.create();
    }
  }

  /**
   * After `error` kept the file from being opened or written: when that was the disk (a read-only
   * home, a full disk) or another process's lock held too long, not damage, the catalog moves to
   * memory for the life of this process — searches still work, nothing is deleted — and says so.
   */
  private canLiveInMemory(error: unknown): boolean {
    const fault = diskFault(error, this.path);
    if (this.memoryBecause !== null || (fault !== 'read-only' && fault !== 'full' && fault !== 'busy')) return false;
    const why =
      fault === 'read-only' ? "Skilltray's home is read-only" : fault === 'full' ? 'no space left on device' : 'another Skilltray process held it too long';
    this.memoryBecause = `the search catalog ${this.path} could not be written (${why}: ${errnoOf(error)}); it was built in memory for this process`;
    return true;
  }

  /** Why the catalog lives in memory (its file could not be written), for a warning; null while it is the file. */
  get inMemory(): string | null {
    return this.memoryBecause;
  }

  /** Deletes the catalog and starts an empty one (after corruption). */
  private recreate(): void {
    try {
      this.db.close();
    } catch {
      // A corrupt handle may refuse to close cleanly; the file is deleted either way.
    }
    if (this.memoryBecause === null) this.remove();
    this.statements.clear();
    this.known = null;
    this.db = this.create();
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Brings the catalog in line with `skills`: adds, replaces (hash or dir changed) and removes
   * skills; `progress` hears how many of the skills that changed have been read. A catalog that
   * cannot be written (read-only home, full disk) is rebuilt in memory instead.
   */
  sync(skills: readonly CatalogSkill[], progress?: CatalogProgress): CatalogSync {
    this.lastSkills = skills;
    try {
      return this.apply(skills, this.rebuiltOnOpen, progress);
    } catch (error) {
      if (isCorruption(error)) {
        this.recreate();
        return this.apply(skills, true, progress);
      }
      if (!this.canLiveInMemory(error)) throw toSkilltrayError(error);
      this.recreate();
      return this.apply(skills, true, progress);
    } finally {
      this.rebuiltOnOpen = false;
    }
  }

  /**
   * Brings one skill's rows in line (added, or replaced when its hash or directory changed) and leaves
   * every other skill as it is: what a search of one skill needs, without loading the rest.
   */
  syncOne(skill: CatalogSkill): CatalogSync {
    try {
      return this.apply([skill], this.rebuiltOnOpen, undefined, false);
    } catch (error) {
      if (!isCorruption(error) && !this.canLiveInMemory(error)) throw toSkilltrayError(error);
      this.recreate();
      return this.apply([skill], true, undefined, false);
    } finally {
      this.rebuiltOnOpen = false;
    }
  }

  /** The catalog's skill records by name: read again only when another connection has committed since they were last known. */
  private records(): { version: number; records: Map<string, SkillRecord> } {
    const version = this.statement('PRAGMA data_version').pluck().get() as number;
    if (this.known?.version === version) return this.known;
    const records = new Map((this.statement('SELECT id, name, dir, hash FROM catalog_skills').all() as SkillRecord[]).map((r) => [r.name, r]));
    return { version, records };
  }

  /** Adds and replaces `skills`; with `complete`, they are every skill there is and the others are removed. */
  private apply(skills: readonly CatalogSkill[], rebuilt: boolean, progress?: CatalogProgress, complete = true): CatalogSync {
    const wanted = new Map(skills.map((skill) => [skill.name, skill]));
    const before = this.records();
    if (!differs(before.records, wanted, complete)) {
      this.known = before;
      return { added: [], updated: [], removed: [], unchanged: wanted.size, rebuilt };
    }
    // Forgotten until this sync commits: a failed one leaves the records to be read again.
    this.known = null;
    // The write lock is taken before anything is read: a second process syncing the same skills
    // (two cold searches at once) waits for the first, then finds its work done instead of redoing it.
    return this.db.transaction(() => this.write(wanted, rebuilt, new Map(), progress, complete)).immediate();
  }

  /**
   * The same sync for a long-running process that must keep answering while it reads: the changed
   * skills are read a batch at a time with the event loop free in between (progress told as it
   * goes), then written in one transaction. Searches meanwhile read the catalog as it was.
   */
  async syncInBackground(skills: readonly CatalogSkill[], progress?: CatalogProgress): Promise<CatalogSync> {
    const result = await this.syncRowsInBackground(skills, progress);
    // The prefix index too, before anyone types: search-as-you-type is what a long-running process serves.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      if (this.db.open) this.wordsIndex();
    } catch {
      // Left to the first prefix search, which rebuilds a damaged catalog or moves it to memory.
    }
    return result;
  }

  private async syncRowsInBackground(skills: readonly CatalogSkill[], progress?: CatalogProgress): Promise<CatalogSync> {
    this.lastSkills = skills;
    const wanted = new Map(skills.map((skill) => [skill.name, skill]));
    const before = this.records();
    if (!differs(before.records, wanted)) {
      this.known = before;
      return { added: [], updated: [], removed: [], unchanged: wanted.size, rebuilt: false };
    }
    const records = before.records;
    const changed = [...wanted.values()].filter((skill) => !sameRecord(records.get(skill.name), skill));
    const read = new Map<string, CatalogRow[]>();
    for (let i = 0; i < changed.length; i++) {
      const skill = changed[i] as CatalogSkill;
      read.set(skill.name, rowsOf(skill));
      if ((i + 1) % BACKGROUND_BATCH === 0 || i + 1 === changed.length) {
        progress?.(i + 1, changed.length);
        await new Promise((resolve) => setImmediate(resolve));
        // Closed meanwhile (the process is stopping): nothing is written.
        if (!this.db.open) return { added: [], updated: [], removed: [], unchanged: 0, rebuilt: false };
      }
    }
    try {
      this.known = null;
      return this.db.transaction(() => this.write(wanted, this.rebuiltOnOpen, read)).immediate();
    } catch (error) {
      if (!isCorruption(error) && !this.canLiveInMemory(error)) throw toSkilltrayError(error);
      this.recreate();
      return this.db.transaction(() => this.write(wanted, true, read)).immediate();
    } finally {
      this.rebuiltOnOpen = false;
    }
  }

  /**
   * The sync itself, inside the write transaction: compares the records as they are now with the
   * skills wanted, reads the rows of those that changed (unless `read` already holds them), then
   * replaces their rows and removes the skills that are gone.
   */
  private write(
    wanted: ReadonlyMap<string, CatalogSkill>,
    rebuilt: boolean,
    read: ReadonlyMap<string, CatalogRow[]>,
    progress?: CatalogProgress,
    complete = true,
  ): CatalogSync {
    const { version, records: existing } = this.records();
    const result: CatalogSync = { added: [], updated: [], removed: [], unchanged: 0, rebuilt };
    const changed = [...wanted.values()].filter((skill) => !sameRecord(existing.get(skill.name), skill));
    result.unchanged = wanted.size - changed.length;
    const gone = complete ? [...existing.values()].filter((record) => !wanted.has(record.name)) : [];
    const walked = new Map(changed.filter((skill) => !read.has(skill.name)).map((skill) => [skill.name, filesOf(skill)]));
    if (walked.size > 0 && this.options.onIndexing !== undefined) {
      this.options.onIndexing({ skills: [...walked.keys()], bytes: [...walked.values()].reduce((sum, files) => sum + indexedBytes(files), 0) });
    }
    // Many rows at once are indexed a batch at a time (or in one pass after they are stored): FTS5 flushes at every
    // statement a trigger runs in, which costs a hundred skills' worth of time per thousand, or one big skill's seconds.
    const bytes = changed.map((skill) => indexedBytes(walked.get(skill.name) ?? []));
    const changedBytes = bytes.reduce((sum, size) => sum + size, 0);
    const addsOnly = gone.length === 0 && changed.every((skill) => !existing.has(skill.name));
    const most = changed.length >= BULK_MIN && changed.length * 4 >= wanted.size;
    const bulk = most
      ? this.suspendIndexing(addsOnly ? 'adds' : 'whole')
      : changed.length >= BULK_MIN || changedBytes >= BULK_MIN_BYTES
        ? this.suspendIndexing('partial')
        : null;
    const deleteRows = this.statement('DELETE FROM catalog_rows WHERE skill_id = ?');
    const deleteSkill = this.statement('DELETE FROM catalog_skills WHERE id = ?');
    const insertSkill = this.statement('INSERT INTO catalog_skills (name, dir, hash, sections) VALUES (?, ?, ?, ?)');
    const updateSkill = this.statement('UPDATE catalog_skills SET dir = ?, hash = ?, sections = ? WHERE id = ?');
    const setRows = this.statement('UPDATE catalog_skills SET about = ?, first_row = ?, last_row = ? WHERE id = ?');
    const insertRow = this.statement(
      'INSERT INTO catalog_rows (skill_id, skill, file, section, content, about, level, start_line, end_line, trail, tool, unspaced) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const next = new Map(existing);
    for (const record of gone) {
      deleteRows.run(record.id);
      deleteSkill.run(record.id);
      next.delete(record.name);
      result.removed.push(record.name);
    }
    const step = Math.max(1, Math.floor(changed.length / 100));
    const store = (rows: CatalogRow[], i: number): void => {
      const skill = changed[i] as CatalogSkill;
      const previous = existing.get(skill.name);
      let id: number;
      if (previous === undefined) {
        id = Number(insertSkill.run(skill.name, skill.dir, skill.hash, rows.length).lastInsertRowid);
        result.added.push(skill.name);
      } else {
        id = previous.id;
        deleteRows.run(id);
        updateSkill.run(skill.dir, skill.hash, rows.length, id);
        result.updated.push(skill.name);
      }
      let about: number | null = null;
      let first: number | null = null;
      let last: number | null = null;
      for (const row of rows) {
        last = Number(
          insertRow.run(
            id,
            skill.name,
            row.file,
            row.section,
            row.content,
            row.about,
            row.level,
            row.startLine,
            row.endLine,
            row.trail,
            row.tool,
            row.unspaced ? 1 : 0,
          ).lastInsertRowid,
        );
        first ??= last;
        if (row.about !== null) about = last;
      }
      // Stored one after another, a skill's rows are the ids first to last: a search of one skill ranks that range alone.
      setRows.run(about, first, last, id);
      next.set(skill.name, { id, name: skill.name, dir: skill.dir, hash: skill.hash });
      // Indexed while helpers still read rows, which then read more of them (after them, it was a first search's longest step on one thread).
      if ((i + 1) % BULK_INDEX_EVERY === 0) bulk?.indexAdded();
      if (progress !== undefined && ((i + 1) % step === 0 || i + 1 === changed.length)) progress(i + 1, changed.length);
    };
    // Rows are read on helper threads too (a first search reads every skill); rows read already (syncInBackground's) are not read again.
    const inputs = changed.map((skill) => ({ files: walked.get(skill.name) ?? [], commands: skill.commands ?? null, description: skill.description ?? null }));
    runInParallel(catalogRowsJob, inputs, store, {
      threads: read.size > 0 ? 1 : (this.options.threads ?? 1),
      here: (input, i) => read.get((changed[i] as CatalogSkill).name) ?? catalogRowsJob.run(input),
      // Helpers read no further ahead of this thread's writes than this many bytes of files.
      weigh: (_input, i) => bytes[i] as number,
      window: READ_AHEAD_BYTES,
    });
    bulk?.resume();
    // This connection's own commit leaves data_version as it was: the version read inside the transaction still says whether anyone else wrote.
    this.known = { version, records: next };
    return result;
  }

  /**
   * Drops triggers that index each stored row as it comes, for a sync that stores many rows, and
   * indexes the rows itself with one CATALOG_INDEX_ROWS statement per table they fed:
   * - `adds` (a first sync: no row is deleted meanwhile): every trigger goes; `indexAdded` indexes
   *   the rows stored since its last call, and `catalog_words` is left unbuilt (see wordsIndex);
   * - `whole` (most skills replaced): every trigger goes; `resume` empties each table and indexes
   *   every row (a deleted row must leave the index), `catalog_words` left unbuilt;
   * - `partial` (a few skills, or one big one, among many): only the insert triggers go, so rows
   *   deleted meanwhile leave every index as before, and the rows stored since are indexed in every
   *   table the insert triggers fed (`catalog_words` too while it is whole): a big skill of a
   *   catalog of 10,000 costs its own rows, not the catalog's.
   * `resume` indexes what is left and puts the triggers back, but `catalog_words`' after `adds` and
   * `whole`. Null when a trigger feeds a table it has no statement for (no shortcut then).
   */
  private suspendIndexing(mode: 'adds' | 'whole' | 'partial'): { indexAdded: () => void; resume: () => void } | null {
    const triggers = (
      this.db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'catalog_rows'").all() as {
        name: string;
        sql: string;
      }[]
    )
      .map((trigger) => ({ ...trigger, targets: [...trigger.sql.matchAll(/INSERT\s+INTO\s+"?(\w+)"?/gi)].map((m) => m[1] as string) }))
      .filter((trigger) => mode !== 'partial' || /\bAFTER\s+INSERT\b/i.test(trigger.sql));
    const deferred = (trigger: { targets: string[] }): boolean =>
      mode !== 'partial' && trigger.targets.length > 0 && trigger.targets.every((table) => table === 'catalog_words');
    const targets = [...new Set(triggers.filter((trigger) => !deferred(trigger)).flatMap((trigger) => trigger.targets))];
    if (targets.length === 0 || targets.some((target) => CATALOG_INDEX_ROWS[target] === undefined)) return null;
    const maxId = (): number => this.db.prepare('SELECT coalesce(max(id), 0) FROM catalog_rows').pluck().get() as number;
    const indexRows = (after: number): void => {
      for (const table of targets) this.statement(CATALOG_INDEX_ROWS[table] as string).run({ after });
    };
    // The last row indexed so far, while rows are indexed as they come; null: every row is indexed at the end. Ids only grow (AUTOINCREMENT).
    let indexed = mode === 'whole' ? null : maxId();
    for (const trigger of triggers) this.db.exec(`DROP TRIGGER "${trigger.name}"`);
    const indexAdded = (): void => {
      if (indexed === null) return;
      indexRows(indexed);
      indexed = maxId();
    };
    return {
      indexAdded,
      resume: () => {
        if (indexed !== null) indexAdded();
        else {
          for (const table of targets) this.db.exec(`INSERT INTO "${table}" ("${table}") VALUES ('delete-all')`);
          indexRows(0);
        }
        for (const trigger of triggers) if (!deferred(trigger)) this.db.exec(trigger.sql);
        // The statements prepared before the triggers went are prepared again.
        this.statements.clear();
      },
    };
  }

  /**
   * Makes `catalog_words` whole when a bulk sync left it unbuilt (its triggers gone): rebuilt from
   * the rows and its triggers put back, in one write transaction, so a process that finds it whole
   * never reads it half made. Costs one lookup when it is whole already.
   */
  private wordsIndex(): void {
    const whole = (): boolean => this.statement("SELECT 1 FROM sqlite_schema WHERE type = 'trigger' AND name = ?").pluck().get(WORDS_TRIGGER) !== undefined;
    if (whole()) return;
    this.db
      .transaction(() => {
        // Another process may have built it while this one waited for the lock.
        if (whole()) return;
        this.db.exec("INSERT INTO catalog_words (catalog_words) VALUES ('rebuild')");
        this.db.exec(CATALOG_WORDS_TRIGGERS);
        this.statements.clear();
      })
      .immediate();
  }

  /**
   * Ranked search over every skill in the catalog, or one (BM25 with headings weighted): a section
   * merged with the sections that hold it or that it holds, tools first, snippets as plain text on
   * one line with every query word marked `[MATCH]…[/MATCH]`. Rows holding every word come first
   * to answer; then every word that says something (common ones left out); then, in a full search,
   * rows holding any of them (`matched: 'any'`).
   */
  search(query: string, options: CatalogSearchOptions = {}): CatalogResult {
    checkIntegerOption('limit', options.limit, 1);
    const prefix = options.prefix ?? false;
    catalogMatch(query, prefix);
    // A run of a script written without spaces is searched in the pair index instead: every piece, then any of them.
    const unspaced = unspacedMatch(query, prefix);
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const skill = options.skill ?? null;
    const answer = (): CatalogResult => {
      if (prefix) this.wordsIndex();
      if (unspaced !== null) {
        const found = this.run(query, prefix, catalogMatch(query, prefix), unspaced, limit, skill, options.broken);
        const any = unspacedMatch(query, prefix, true);
        if (found.hits.length > 0 || any === null || any.expression === unspaced.expression) return { query, matched: 'all', results: found.hits };
        return { query, matched: 'any', results: this.run(query, prefix, catalogMatch(query, prefix), any, limit, skill, options.broken).hits };
      }
      for (const attempt of matchAttempts(query, prefix)) {
        const match = catalogMatch(query, attempt.prefix, attempt.level);
        const found = this.run(query, attempt.prefix, match, null, limit, skill, options.broken);
        // A description's stand-in may hold only some of the words, whatever the level.
        // Every row of an `all` match holds every word, but a description's stand-in, which may hold only some.
        const matched = attempt.level === 'all' && !found.stoodIn ? 'all' : this.holdingAll(match, found.ids, skill !== null);
        if (found.hits.length > 0) return { query, matched, results: found.hits };
      }
      return { query, matched: 'all', results: [] };
    };
    try {
      return answer();
    } catch (error) {
      // Damage, or a catalog this process cannot write (building the prefix index of a read-only home's): rebuilt, in memory for the latter.
      if (!isCorruption(error) && !this.canLiveInMemory(error)) throw toSkilltrayError(error);
      // Without a skill list to rebuild from, the caller has to sync first.
      if (this.lastSkills === null) throw corruptIndexError('--all', error);
      this.recreate();
      this.apply(this.lastSkills, true);
      return answer();
    }
  }

  /** `all` when every hit holds every word that says something, else `any`. */
  private holdingAll(match: CatalogMatch, ids: readonly number[], scoped: boolean): MatchLevel {
    if (match.required === null) return 'all';
    const holding = this.statement(catalogHoldingSql(scoped))
      .pluck()
      .all({ required: match.required, ids: JSON.stringify(ids) }) as number[];
    return holding.length === ids.length ? 'all' : 'any';
  }

  /** Of `ids`, those whose heading holds every word that says something (the one being typed as a prefix). */
  private titled(query: string, prefix: boolean, ids: readonly number[], scoped: boolean): Set<number> {
    const words = catalogMatch(query, prefix);
    let titled = new Set(ids);
    const keep = (table: 'catalog' | 'catalog_words', expression: string): void => {
      const found = this.statement(catalogTitleSql(table, scoped))
        .pluck()
        .all({ title: headingMatch(expression), ids: JSON.stringify([...titled]) }) as number[];
      titled = new Set(found);
    };
    if (words.required !== null) keep('catalog', words.required);
    if (words.wordPrefix !== null) keep('catalog_words', words.wordPrefix);
    return titled;
  }

  /** The ids of a skill's rows, first to last (none of them when the catalog does not hold it). */
  private skillRows(skill: string): RowRange {
    const rows = this.statement(SKILL_ROWS_SQL).get(skill) as { first: number | null; last: number | null } | undefined;
    const { first = null, last = null } = rows ?? {};
    return first === null || last === null ? { first: 1, last: 0 } : { first, last };
  }

  /**
   * Ranked hits for one match, with the ids of their rows (hits in answer order: see toolsFirst; the
   * tools of skills `broken` says are broken last), and whether a description's stand-in is among them.
   */
  private run(
    query: string,
    prefix: boolean,
    match: CatalogMatch,
    unspaced: UnspacedMatch | null,
    limit: number,
    skill: string | null,
    broken: ((skill: string) => boolean) | undefined,
  ): { hits: CatalogHit[]; ids: number[]; stoodIn: boolean } {
    const fetch = Math.min(1000, limit * FETCH_FACTOR + 10);
    const range = skill === null ? null : this.skillRows(skill);
    const ranking =
      unspaced === null
        ? this.statement(catalogSearchSql(match, range !== null)).all(catalogSearchParams(match, fetch, range))
        : this.statement(unspacedSearchSql(range !== null)).all({ unspaced: unspaced.expression, limit: fetch, ...(range ?? {}) });
    const ranked = ranking as (Omit<RankedRow, 'startLine' | 'endLine'> & { start_line: number; end_line: number })[];
    const rows: RankedRow[] = ranked.map((r) => ({ ...r, startLine: r.start_line, endLine: r.end_line }));
    const any = unspaced === null ? catalogMatch(query, false, 'any').stemmed : (unspacedMatch(query, false, true)?.expression ?? null);
    const described = this.withDescriptions(rows, match, unspaced, any, limit, skill !== null);
    const merged = mergeNested(described.rows);
    // The pair index has no word columns to match headings against: its hits keep the rank they have.
    const titled =
      unspaced === null
        ? this.titled(
            query,
            prefix,
            merged.map((row) => row.id),
            skill !== null,
          )
        : new Set<number>();
    const ordered = toolsFirst(merged.map((row) => ({ ...row, titled: titled.has(row.id) })));
    // A broken skill's tools come after every other hit: a person looking for a tool to run wants one that runs. Its
    // sections keep their place (a prose skill whose name differs from its folder still says what it says), marked by the caller.
    const last = (row: { skill: string; tool: string | null }): boolean => broken !== undefined && row.tool !== null && broken(row.skill);
    const kept = [...ordered.filter((row) => !last(row)), ...ordered.filter(last)].slice(0, limit);
    const marks = new Map(
      this.marks(
        match,
        unspaced,
        kept.map((row) => row.id),
        skill !== null,
      ).map((mark) => [mark.id, mark]),
    );
    const scores = followingRanks(kept.map((row) => row.rank));
    const hits = kept.map((row, i): CatalogHit => {
      const marked = marks.get(row.id);
      return {
        skill: row.skill,
        file: row.file,
        section: row.section,
        about: row.about === 1,
        level: row.level,
        startLine: row.startLine,
        endLine: row.endLine,
        title: marked?.title ?? row.section,
        trail: JSON.parse(row.trail) as string[],
        tool: row.tool,
        snippet: oneLine(marked?.snippet ?? ''),
        score: scores[i] as number,
      };
    });
    return { hits, ids: kept.map((row) => row.id), stoodIn: described.stoodIn };
  }

  /** The BM25 of the description rows of the skills `rows` come from, for `expression` in `table`, by skill id. */
  private descriptionRanks(rows: readonly RankedRow[], table: 'catalog' | 'catalog_grams', expression: string): Map<number, number> {
    const skills = JSON.stringify([...new Set(rows.map((row) => row.skill_id))]);
    const abouts = this.statement('SELECT id, about FROM catalog_skills WHERE id IN (SELECT value FROM json_each(?)) AND about IS NOT NULL').all(skills) as {
      id: number;
      about: number;
    }[];
    const skillOf = new Map(abouts.map((row) => [row.about, row.id]));
    const found = this.statement(catalogRankOfSql(table)).all({ match: expression, ids: JSON.stringify(abouts.map((row) => row.about)) }) as {
      id: number;
      rank: number;
    }[];
    return new Map(found.map((row) => [skillOf.get(row.id) as number, row.rank]));
  }

  /**
   * The rows re-ranked with what their skill's description says: each section's BM25 plus
   * DESCRIPTION_SHARE of its skill's description row's for the same words. A description says what a
   * skill is for, so a section of the skill about Mermaid diagrams that mentions "sequence diagram"
   * beats a long guide that mentions them in passing. A description row that matched stands for its
   * skill as a whole, and the skill is opened where it answers best: at a section or tool of it that
   * matched too, or else at its row that holds the most of the words (`any`, its expression), which
   * takes the description's place and its rank when better, as a section merges with the one
   * holding it. So "how full is my disk" opens disk_usage, not the system skill's description.
   */
  private withDescriptions(
    rows: readonly RankedRow[],
    match: CatalogMatch,
    unspaced: UnspacedMatch | null,
    any: string | null,
    limit: number,
    scoped: boolean,
  ): { rows: RankedRow[]; stoodIn: boolean } {
    const table = unspaced === null ? 'catalog' : 'catalog_grams';
    const expression = unspaced?.expression ?? match.stemmed;
    if (expression === null || rows.length === 0) return { rows: [...rows], stoodIn: false };
    // Within one skill every section would get the same lift: only other skills' descriptions reorder anything.
    const described = scoped ? new Map<number, number>() : this.descriptionRanks(rows, table, expression);
    const boost = (row: RankedRow): RankedRow => (row.about === 1 ? row : { ...row, rank: row.rank + DESCRIPTION_SHARE * (described.get(row.skill_id) ?? 0) });
    let pool = rows.map(boost).sort((a, b) => a.rank - b.rank || a.id - b.id);
    const answered = new Set(pool.filter((row) => row.about !== 1).map((row) => row.skill_id));
    // Only a description that may be shown needs a place to open at: one among the first `limit` rows.
    const alone = [
      ...new Set(
        pool
          .slice(0, limit)
          .filter((row) => row.about === 1 && !answered.has(row.skill_id))
          .map((row) => row.skill_id),
      ),
    ];
    if (alone.length > 0 && any !== null) {
      const more = this.statement(catalogStandInSql(table)).all({ match: any, skills: JSON.stringify(alone) }) as (Omit<RankedRow, 'startLine' | 'endLine'> & {
        start_line: number;
        end_line: number;
      })[];
      const best = new Map<number, RankedRow>();
      for (const row of more) if (!best.has(row.skill_id)) best.set(row.skill_id, boost({ ...row, startLine: row.start_line, endLine: row.end_line }));
      pool = [...pool, ...best.values()];
      for (const skill of best.keys()) answered.add(skill);
    }
    pool.sort((a, b) => a.rank - b.rank || a.id - b.id);
    const standIn = new Map(pool.filter((row) => row.about === 1 && answered.has(row.skill_id)).map((row) => [row.skill_id, row.rank]));
    const taken = new Set<number>();
    const placed = pool
      .filter((row) => row.about !== 1 || !answered.has(row.skill_id))
      .map((row) => {
        const rank = standIn.get(row.skill_id);
        if (rank === undefined || taken.has(row.skill_id)) return row;
        taken.add(row.skill_id);
        return { ...row, rank: Math.min(row.rank, rank) };
      })
      .sort((a, b) => a.rank - b.rank || a.id - b.id);
    return { rows: placed, stoodIn: pool.length > rows.length };
  }

  /** Each kept row's heading and snippet with the query's words marked: by FTS5 from the word indexes, here for the pair index. */
  private marks(
    match: CatalogMatch,
    unspaced: UnspacedMatch | null,
    ids: readonly number[],
    scoped: boolean,
  ): { id: number; snippet: string; title: string }[] {
    const json = JSON.stringify(ids);
    if (unspaced === null)
      return this.statement(catalogMarkSql(match, scoped)).all({ mark: catalogMarkExpression(match), ids: json }) as {
        id: number;
        snippet: string;
        title: string;
      }[];
    const { pieces } = unspaced;
    const rows = this.statement('SELECT id, section, content, about FROM catalog_rows WHERE id IN (SELECT value FROM json_each(?))').all(json) as {
      id: number;
      section: string;
      content: string;
      about: string | null;
    }[];
    return rows.map((row) => ({ id: row.id, title: markPieces(row.section, pieces), snippet: unspacedSnippet(row.about ?? row.content, pieces) }));
  }

  /**
   * What the person probably meant when `query` found nothing (in `skill` when given): each word
   * that is in no skill replaced by the indexed word closest to it (a typo or two away, the more
   * common first), or null when no such query finds anything either. Words come from the unstemmed
   * index (built first if a bulk sync left it unbuilt), so a suggestion is a word as written.
   */
  suggest(query: string, options: { skill?: string } = {}): string | null {
    if (hasUnspacedRun(query)) return null;
    try {
      this.wordsIndex();
      this.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.catalog_vocab USING fts5vocab(main, 'catalog_words', 'row')");
      const known = this.statement('SELECT 1 FROM temp.catalog_vocab WHERE term = ?').pluck();
      const starting = this.statement('SELECT term, doc FROM temp.catalog_vocab WHERE term >= ? AND term < ?');
      let changed = false;
      const words = queryTokens(query).map((token) => {
        const word = token.toLowerCase();
        // Only plain words: one with punctuation is several to the tokenizer, and a common word is never what went wrong.
        if (!/^[\p{L}\p{N}]{3,}$/u.test(word) || isStopword(word) || known.get(word) !== undefined) return token;
        const closest = closestWord(word, (first) => starting.all(first, `${first}\u{10FFFF}`) as { term: string; doc: number }[]);
        if (closest === null) return token;
        changed = true;
        return closest;
      });
      if (!changed) return null;
      const corrected = words.join(' ');
      return this.search(corrected, { limit: 1, ...(options.skill === undefined ? {} : { skill: options.skill }) }).results.length > 0 ? corrected : null;
    } catch (error) {
      // A suggestion is a courtesy: a catalog that cannot build its word index (read-only, damaged) just makes none.
      if (isCorruption(error) || diskFault(error, this.path) !== 'other') return null;
      throw error;
    }
  }

  /** Skills the catalog holds, by name, with their hash and row count. */
  skills(): { name: string; dir: string; hash: string; sections: number }[] {
    return this.statement('SELECT name, dir, hash, sections FROM catalog_skills ORDER BY name').all() as {
      name: string;
      dir: string;
      hash: string;
      sections: number;
    }[];
  }

  close(): void {
    this.db.close();
  }
}
