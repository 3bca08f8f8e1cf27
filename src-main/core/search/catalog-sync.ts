/**
 * Bringing the search catalog in line with the loaded skills (catalog.ts tells what it is for): by
 * content hash in one write transaction, so unchanged skills cost nothing; many changed rows are
 * indexed in bulk rather than row by row, and a damaged or unwritable catalog is rebuilt.
 */
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import { runInParallel } from '../parallel.js';
import { walkSkill, type SkillFile } from '../skills/walk.js';
import { catalogRowsJob, type CatalogRow } from './catalog-rows.js';
import { CATALOG_INDEX_ROWS, CATALOG_WORDS_TRIGGERS, WORDS_TRIGGER } from './catalog-sql.js';
import { isCorruption, type CatalogStore, type SkillRecord } from './catalog-store.js';
import type { CatalogProgress, CatalogSkill, CatalogSync } from './catalog-types.js';
import { isIndexedFile } from './documents.js';

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

/** Writes the catalog: every sync of one open catalog goes through one writer. */
export class CatalogWriter {
  /** The list given to the last sync, to rebuild from when a read finds the catalog corrupt. */
  private lastSkills: readonly CatalogSkill[] | null = null;

  constructor(private readonly store: CatalogStore) {}

  /**
   * Brings the catalog in line with `skills`: adds, replaces (hash or dir changed) and removes
   * skills; `progress` hears how many of the skills that changed have been read. A catalog that
   * cannot be written (read-only home, full disk) is rebuilt in memory instead.
   */
  sync(skills: readonly CatalogSkill[], progress?: CatalogProgress): CatalogSync {
    this.lastSkills = skills;
    try {
      return this.apply(skills, this.store.rebuiltOnOpen, progress);
    } catch (error) {
      if (isCorruption(error)) {
        this.store.recreate();
        return this.apply(skills, true, progress);
      }
      if (!this.store.canLiveInMemory(error)) throw toSkilltrayError(error);
      this.store.recreate();
      return this.apply(skills, true, progress);
    } finally {
      this.store.rebuiltOnOpen = false;
    }
  }

  /**
   * Brings one skill's rows in line (added, or replaced when its hash or directory changed) and leaves
   * every other skill as it is: what a search of one skill needs, without loading the rest.
   */
  syncOne(skill: CatalogSkill): CatalogSync {
    try {
      return this.apply([skill], this.store.rebuiltOnOpen, undefined, false);
    } catch (error) {
      if (!isCorruption(error) && !this.store.canLiveInMemory(error)) throw toSkilltrayError(error);
      this.store.recreate();
      return this.apply([skill], true, undefined, false);
    } finally {
      this.store.rebuiltOnOpen = false;
    }
  }

  /**
   * The catalog's data version when it holds `skill` as given (syncOne would change nothing), else
   * null (also when it cannot be read: a sync then finds out why). A search made at that version
   * answers as one made after syncOne would, for as long as the version stays.
   */
  holding(skill: CatalogSkill): number | null {
    try {
      const now = this.store.recordsOf([skill.name]);
      return differs(now.records, new Map([[skill.name, skill]]), false) ? null : now.version;
    } catch {
      return null;
    }
  }

  /** Adds and replaces `skills`; with `complete`, they are every skill there is and the others are removed. */
  private apply(skills: readonly CatalogSkill[], rebuilt: boolean, progress?: CatalogProgress, complete = true): CatalogSync {
    const wanted = new Map(skills.map((skill) => [skill.name, skill]));
    const before = complete ? this.store.records() : this.store.recordsOf(wanted.keys());
    if (!differs(before.records, wanted, complete)) {
      if (complete) this.store.known = before;
      return { added: [], updated: [], removed: [], unchanged: wanted.size, rebuilt };
    }
    // Forgotten until this sync commits: a failed one leaves the records to be read again.
    this.store.known = null;
    // The write lock is taken before anything is read: a second process syncing the same skills
    // (two cold searches at once) waits for the first, then finds its work done instead of redoing it.
    return this.store.db.transaction(() => this.write(wanted, rebuilt, new Map(), progress, complete)).immediate();
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
      if (this.store.db.open) this.wordsIndex();
    } catch {
      // Left to the first prefix search, which rebuilds a damaged catalog or moves it to memory.
    }
    return result;
  }

  private async syncRowsInBackground(skills: readonly CatalogSkill[], progress?: CatalogProgress): Promise<CatalogSync> {
    this.lastSkills = skills;
    const wanted = new Map(skills.map((skill) => [skill.name, skill]));
    const before = this.store.records();
    if (!differs(before.records, wanted)) {
      this.store.known = before;
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
        if (!this.store.db.open) return { added: [], updated: [], removed: [], unchanged: 0, rebuilt: false };
      }
    }
    try {
      this.store.known = null;
      return this.store.db.transaction(() => this.write(wanted, this.store.rebuiltOnOpen, read)).immediate();
    } catch (error) {
      if (!isCorruption(error) && !this.store.canLiveInMemory(error)) throw toSkilltrayError(error);
      this.store.recreate();
      return this.store.db.transaction(() => this.write(wanted, true, read)).immediate();
    } finally {
      this.store.rebuiltOnOpen = false;
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
    const { version, records: existing } = this.store.records();
    const result: CatalogSync = { added: [], updated: [], removed: [], unchanged: 0, rebuilt };
    const changed = [...wanted.values()].filter((skill) => !sameRecord(existing.get(skill.name), skill));
    result.unchanged = wanted.size - changed.length;
    const gone = complete ? [...existing.values()].filter((record) => !wanted.has(record.name)) : [];
    const walked = new Map(changed.filter((skill) => !read.has(skill.name)).map((skill) => [skill.name, filesOf(skill)]));
    if (walked.size > 0 && this.store.options.onIndexing !== undefined) {
      this.store.options.onIndexing({ skills: [...walked.keys()], bytes: [...walked.values()].reduce((sum, files) => sum + indexedBytes(files), 0) });
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
    const deleteRows = this.store.statement('DELETE FROM catalog_rows WHERE skill_id = ?');
    const deleteSkill = this.store.statement('DELETE FROM catalog_skills WHERE id = ?');
    const insertSkill = this.store.statement('INSERT INTO catalog_skills (name, dir, hash, sections) VALUES (?, ?, ?, ?)');
    const updateSkill = this.store.statement('UPDATE catalog_skills SET dir = ?, hash = ?, sections = ? WHERE id = ?');
    const setRows = this.store.statement('UPDATE catalog_skills SET about = ?, first_row = ?, last_row = ? WHERE id = ?');
    const insertRow = this.store.statement(
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
      threads: read.size > 0 ? 1 : (this.store.options.threads ?? 1),
      here: (input, i) => read.get((changed[i] as CatalogSkill).name) ?? catalogRowsJob.run(input),
      // Helpers read no further ahead of this thread's writes than this many bytes of files.
      weigh: (_input, i) => bytes[i] as number,
      window: READ_AHEAD_BYTES,
    });
    bulk?.resume();
    // This connection's own commit leaves data_version as it was: the version read inside the transaction still says whether anyone else wrote.
    this.store.known = { version, records: next };
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
      this.store.db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'catalog_rows'").all() as {
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
    const maxId = (): number => this.store.db.prepare('SELECT coalesce(max(id), 0) FROM catalog_rows').pluck().get() as number;
    const indexRows = (after: number): void => {
      for (const table of targets) this.store.statement(CATALOG_INDEX_ROWS[table] as string).run({ after });
    };
    // The last row indexed so far, while rows are indexed as they come; null: every row is indexed at the end. Ids only grow (AUTOINCREMENT).
    let indexed = mode === 'whole' ? null : maxId();
    for (const trigger of triggers) this.store.db.exec(`DROP TRIGGER "${trigger.name}"`);
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
          for (const table of targets) this.store.db.exec(`INSERT INTO "${table}" ("${table}") VALUES ('delete-all')`);
          indexRows(0);
        }
        for (const trigger of triggers) if (!deferred(trigger)) this.store.db.exec(trigger.sql);
        // The statements prepared before the triggers went are prepared again.
        this.store.forgetStatements();
      },
    };
  }

  /**
   * Makes `catalog_words` whole when a bulk sync left it unbuilt (its triggers gone): rebuilt from
   * the rows and its triggers put back, in one write transaction, so a process that finds it whole
   * never reads it half made. Costs one lookup when it is whole already.
   */
  wordsIndex(): void {
    const whole = (): boolean =>
      this.store.statement("SELECT 1 FROM sqlite_schema WHERE type = 'trigger' AND name = ?").pluck().get(WORDS_TRIGGER) !== undefined;
    if (whole()) return;
    this.store.db
      .transaction(() => {
        // Another process may have built it while this one waited for the lock.
        if (whole()) return;
        this.store.db.exec("INSERT INTO catalog_words (catalog_words) VALUES ('rebuild')");
        this.store.db.exec(CATALOG_WORDS_TRIGGERS);
        this.store.forgetStatements();
      })
      .immediate();
  }

  /** Rebuilds a damaged catalog from the skills the last sync was given; false when no sync has given any. */
  rebuild(): boolean {
    if (this.lastSkills === null) return false;
    this.store.recreate();
    this.apply(this.lastSkills, true);
    return true;
  }
}
