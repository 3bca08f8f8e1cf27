/**
 * What a CLI command is, and what it gets to work with. This module and the command list import
 * nothing heavy: a command loads the core, SQLite or the MCP SDK only when it runs.
 */
import type { SkilltrayCore } from '../core/api.js';
import type { SkillLibrary } from '../core/library.js';
import type { CoreConfig } from '../core/config.js';
import type { OptionSpec, ParsedArgs, PositionalSpec } from './args.js';
import { jsonPieces } from './json-pieces.js';

export interface CliIo {
  /** Writes to stdout; bytes (a file `open` prints) go out exactly as given, never re-encoded. */
  out(text: string | Uint8Array): void;
  err(text: string): void;
  /** Whether a person is at the terminal (stdin and stdout are TTYs). */
  interactive: boolean;
  /** Whether stdout is a terminal, where text may carry emphasis (bold, underline). */
  stdoutIsTty: boolean;
  /** Whether stderr is a terminal, where a long step may show its progress on one line it rewrites. */
  stderrIsTty: boolean;
  /** Asks a question on the terminal and returns the answer; only when interactive. */
  ask(question: string): Promise<string>;
}

export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  io: CliIo;
  /** The bundled skill packs, located by the entry point. */
  bundledDir: string;
  /** Their manifest, where the entry point knows it is not beside them (inside a packaged app's app.asar). */
  bundledManifest?: string;
  /** Skilltray's version (package.json), for `--version`, `serve` and `mcp`. */
  version: string;
  /** Home and skill roots from this environment, resolved once; reading them opens nothing. */
  config(): CoreConfig;
  /** The core over config(), loaded and opened on first use so `--help` and bad options never touch the disk. */
  core(): Promise<SkilltrayCore>;
  /**
   * Only the skills and the gateway (the core's read side, without state.db, runs or packs): what a
   * read-only command needs. `strict` (the first call decides) reads as RFC-0004 says: E002 for an
   * index not built or out of date, where a read otherwise builds it. `about`: the one skill the
   * command reads, whose big tree is then checked on a helper thread started before the library loads.
   */
  library(options?: { strict?: boolean; about?: string }): Promise<SkillLibrary>;
}

export interface Command {
  name: string;
  summary: string;
  /** The usage line after `skilltray`, when the positionals alone would say it wrong (`search [skill] <query>`). */
  synopsis?: string;
  positionals: PositionalSpec[];
  options: Record<string, OptionSpec>;
  /** Lines `--help` shows after the summary: how the arguments are read, where that needs saying. */
  notes?: string[];
  /** Command lines `--help` shows, each with what it does: `['list --status error', 'only the skills that failed to load']`. */
  examples: [line: string, what: string][];
  run(ctx: CliContext, args: ParsedArgs): Promise<number> | number;
}

/** `--json`, which every command that prints data takes. */
export const JSON_OPTION: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'print JSON (the stable contract) instead of text' },
};

/** Text gathered before it is written: a few large writes, never the whole answer at once. */
const WRITE_CHUNK = 1 << 16;

/** Prints a value as the command's JSON output (written as it is made: see json-pieces.ts). */
export function printJson(ctx: CliContext, value: unknown): void {
  let pending = '';
  for (const piece of jsonPieces(value)) {
    pending += piece;
    if (pending.length >= WRITE_CHUNK) {
      ctx.io.out(pending);
      pending = '';
    }
  }
  ctx.io.out(`${pending}\n`);
}
