/**
 * TOML config files (Codex's config.toml), edited with toml_edit — the format-preserving editor
 * Cargo and Codex itself (`codex mcp add`) write TOML with — compiled to WebAssembly
 * (@rainbowatcher/toml-edit-js): the entry is written as its own `[mcp_servers.skilltray]` table
 * beside the other servers, and removing it leaves every other byte as it was.
 */
import type * as TomlEditModule from '@rainbowatcher/toml-edit-js';
import { connectErrors } from '../../shared/error-messages/connect.js';
import type { OpenDocument, ServersDocument } from './config-document.js';

type TomlEdit = typeof TomlEditModule;

let loading: Promise<TomlEdit> | undefined;

/** The WebAssembly module, compiled once per process and only when a TOML file is edited. */
function tomlEdit(): Promise<TomlEdit> {
  loading ??= import('@rainbowatcher/toml-edit-js').then(async (module) => {
    await module.default();
    return module;
  });
  return loading;
}

/** `TOML parse error at line 2, column 3 … <reason>` as line, column and reason. */
function parseFailure(error: unknown): { line: number; column: number; reason: string } {
  const text = error instanceof Error ? error.message : String(error);
  const at = /line (\d+), column (\d+)/.exec(text);
  const reason = text.trim().split('\n').at(-1)?.trim() || 'not valid TOML';
  return { line: Number(at?.[1] ?? 1), column: Number(at?.[2] ?? 1), reason };
}

/** A key as one segment of toml_edit's dotted path (quoted, so a dot in a name never splits it). */
const segment = (key: string): string => JSON.stringify(key);

export const openToml: OpenDocument = async (text, key, file) => {
  const toml = await tomlEdit();
  let data: Record<string, unknown>;
  try {
    data = toml.parse(text) as Record<string, unknown>;
  } catch (error) {
    const { line, column, reason } = parseFailure(error);
    throw connectErrors.invalidConfig(file, line, column, reason);
  }
  const servers = data[key];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    throw connectErrors.invalidConfig(file, 1, 1, `'${key}' is not a table`);
  }
  const path = (name: string): string => `${segment(key)}.${segment(name)}`;
  const document: ServersDocument = {
    entry: (name) => (servers as Record<string, unknown> | undefined)?.[name],
    withEntry: (name, value) => toml.edit(text, path(name), value, { inline: false, finalNewline: text === '' || text.endsWith('\n') }),
    withoutEntry: (name) => (document.entry(name) === undefined ? text : toml.edit(text, path(name), undefined, { finalNewline: text.endsWith('\n') })),
  };
  return document;
};
