/** What the search catalog (catalog.ts) is given and answers: declarations only. */
import type { RowPlace } from './catalog-hits.js';
import type { MatchLevel } from './catalog-sql.js';
import type { ToolCommands } from './tool-text.js';
import type { SkillFile } from '../skills/walk.js';

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
