/**
 * MCP servers as sources of skills (the client side of SEP-2640). The person adds one (a command
 * Skilltray starts, or a Streamable HTTP URL) under a name of their own — the label every skill it
 * serves is loaded under, `<source>.<skill>`, never the server's own name for itself — and approves
 * each skill as shown, bound to its whole `{uri, digest}` set. What is loaded is the verified copy
 * kept in Skilltray's home; a fetch that finds any file of an approved skill changed takes it out
 * until the person approves it again, shown what changed. One change at a time for each source, and
 * each fetch within FETCH_DEADLINE_MS: a slow or stuck source holds up no other, nor its own removal.
 */
import type { McpSourceStatus, McpSourceTransport, ServedSkillStatus } from '../../shared/served.js';
import { servedErrors } from '../../shared/error-messages/served.js';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import type { SkillRegistry } from '../skills/registry.js';
import { fetchSource } from './source-fetch.js';
import { SourceFiles, type SourceRecord, type SourceState } from './source-files.js';
import { isLoaded } from './served-state.js';

const SOURCE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** How long one fetch of a source may take in all (E863 past it): each request has 30 s, but a listing may ask for a hundred thousand files. */
export const FETCH_DEADLINE_MS = 5 * 60_000;
/** A variable or header name: letters, digits and the usual punctuation, no space, colon or line break. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export interface McpSourcesDeps {
  home: string;
  /** The environment a started server's variables are taken from (the SDK's default list of them). */
  env: NodeJS.ProcessEnv;
  registry: SkillRegistry;
  /** Told which `<source>.<skill>` folders were written or removed, once they are. */
  onChanged(names: readonly string[]): void;
  /** How long one fetch may take (FETCH_DEADLINE_MS unless told). */
  fetchDeadlineMs?: number | undefined;
}

export interface AddSource {
  name: string;
  command?: readonly string[] | undefined;
  env?: Record<string, string> | undefined;
  url?: string | undefined;
  headers?: Record<string, string> | undefined;
}

function checkFields(what: string, fields: Record<string, string> | undefined): Record<string, string> {
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (!FIELD_NAME.test(key) || /[\r\n\0]/.test(value))
      throw servedErrors.invalidSource(`${what} '${key}' is not a name with a value on one line`, { [what]: key });
  }
  return { ...fields };
}

/** How to reach the source the person described (E860 for anything else). */
function transportOf(input: AddSource): McpSourceTransport {
  const { command, url } = input;
  if ((command === undefined) === (url === undefined)) throw servedErrors.invalidSource('give either the command that starts the server or its URL');
  if (command !== undefined) {
    const [program, ...args] = command;
    if (program === undefined || program.trim() === '') throw servedErrors.invalidSource('the command is empty');
    if (input.headers !== undefined) throw servedErrors.invalidSource('headers go with a URL, not a command');
    return { kind: 'stdio', command: program, args, env: checkFields('variable', input.env) };
  }
  let parsed: URL;
  try {
    parsed = new URL(url as string);
  } catch {
    throw servedErrors.invalidSource(`'${url}' is not a URL`, { url });
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw servedErrors.invalidSource(`'${url}' is neither https:// nor http:// on this computer (a header sent in the clear could be read on the way)`, {
      url,
    });
  }
  if (input.env !== undefined) throw servedErrors.invalidSource('environment variables go with a command, not a URL');
  return { kind: 'http', url: parsed.href, headers: checkFields('header', input.headers) };
}

export class McpSources {
  readonly files: SourceFiles;
  /** The last change to each source, by name: one at a time for a source, each after the one before. */
  private readonly queues = new Map<string, Promise<unknown>>();
  /** The fetch under way for each source, to be given up when the source is removed. */
  private readonly fetching = new Map<string, AbortController>();

  constructor(private readonly deps: McpSourcesDeps) {
    this.files = new SourceFiles(deps.home);
  }

  private serial<T>(source: string, work: () => Promise<T>): Promise<T> {
    const next = (this.queues.get(source) ?? Promise.resolve()).then(work, work);
    const settled = next.catch(() => undefined);
    this.queues.set(source, settled);
    void settled.then(() => {
      if (this.queues.get(source) === settled) this.queues.delete(source);
    });
    return next;
  }

  private record(name: string): SourceRecord {
    const sources = this.files.sources();
    const found = sources.find((source) => source.name === name);
    if (found === undefined)
      throw servedErrors.sourceNotFound(
        name,
        sources.map((source) => source.name),
      );
    return found;
  }

  /** Gives up every fetch under way (Skilltray is stopping): each source keeps what it had. */
  close(): void {
    for (const [name, abort] of this.fetching) abort.abort(servedErrors.unreachable(name, 'Skilltray stopped while it fetched it'));
  }

  /** Every source and what it serves. */
  async list(): Promise<McpSourceStatus[]> {
    return this.statuses(this.files.sources());
  }

  /** How `records` stand; the diffing this needs loads with the first call (the core starts without it). */
  private async statuses(records: readonly SourceRecord[]): Promise<McpSourceStatus[]> {
    const { sourceStatus } = await import('./source-status.js');
    return records.map((record) => sourceStatus(this.files, this.deps.registry, record));
  }

  /** Adds a source once it answers and declares the extension (nothing is kept otherwise), and fetches its skills. */
  add(input: AddSource): Promise<McpSourceStatus> {
    return this.serial(input.name, async () => {
      if (!SOURCE_NAME.test(input.name) || input.name.length > 32) {
        throw servedErrors.invalidSource(`'${input.name}' is not a name of lowercase letters, digits and single inner hyphens (at most 32)`, {
          source: input.name,
        });
      }
      if (this.files.sources().some((source) => source.name === input.name)) throw servedErrors.sourceExists(input.name);
      const record: SourceRecord = { name: input.name, transport: transportOf(input), addedAt: Date.now() };
      const state: SourceState = { checkedAt: null, error: null, skills: {}, approved: {} };
      this.files.removeSource(record.name);
      await this.fetchInto(record, state, true);
      this.files.saveSources([...this.files.sources(), record]);
      return (await this.statuses([record]))[0] as McpSourceStatus;
    });
  }

  /** Removes a source with its cached files and approvals; its skills are unloaded. A fetch of it under way is given up, not waited for. */
  remove(name: string): Promise<void> {
    this.fetching.get(name)?.abort(servedErrors.unreachable(name, 'it was removed while Skilltray fetched it'));
    return this.serial(name, async () => {
      this.record(name);
      const loaded = this.files.loadedSkills(name).map((skill) => `${name}.${skill}`);
      this.files.saveSources(this.files.sources().filter((source) => source.name !== name));
      this.files.removeSource(name);
      this.deps.onChanged(loaded);
    });
  }

  /** Fetches each source (or the one named) again; a source that fails keeps what it had, and says why. */
  async refresh(name?: string): Promise<McpSourceStatus[]> {
    const records = name === undefined ? this.files.sources() : [this.record(name)];
    for (const record of records) {
      await this.serial(record.name, async () => {
        // A source removed (or removed and added again) while waiting its turn is not fetched as it was.
        const current = this.files.sources().find((source) => source.name === record.name);
        if (current !== undefined) await this.fetchInto(current, this.files.state(current.name), false);
      });
    }
    const now = this.files.sources();
    return this.statuses(records.flatMap((record) => now.filter((source) => source.name === record.name)));
  }

  /** Approves `<source>.<skill>` as shown (`confirm`: its digest; E867 when it changed since), with what it declares when `grants`. */
  approve(full: string, confirm: string, grants: boolean): Promise<ServedSkillStatus> {
    const dot = full.indexOf('.');
    const source = dot > 0 ? full.slice(0, dot) : '';
    return this.serial(source, async () => {
      const known = this.files.sources().map((record) => record.name);
      if (!known.includes(source)) throw servedErrors.notServed(full, `is served by no MCP source (the sources: ${known.join(', ') || 'none'})`);
      const skill = full.slice(dot + 1);
      const state = this.files.state(source);
      const seen = state.skills[skill];
      if (seen === undefined) throw servedErrors.notServed(full, `is not served by MCP source '${source}'`);
      if (seen.refusal !== null || seen.digest === null)
        throw servedErrors.notServed(full, `is refused, so it cannot be approved: ${seen.refusal?.message ?? ''}`);
      if (seen.digest !== confirm)
        throw servedErrors.changed(full, 'is not the one you were shown (its files changed since): look at it again and approve it again');
      // The folder first: an approval is kept only once what it loads is written (a folder left without one is removed by the next sync).
      this.files.writeSkill(source, skill, seen.files);
      state.approved[skill] = { uri: seen.uri, files: seen.files, digest: seen.digest, grants, approvedAt: Date.now() };
      this.files.saveState(source, state);
      this.deps.onChanged([full]);
      const { skillStatus } = await import('./source-status.js');
      return skillStatus(this.files, this.deps.registry, source, skill, state);
    });
  }

  /** Fetches `record` into `state`, keeps it, and brings the loaded folders in line; `strict`: a failing source throws. */
  private async fetchInto(record: SourceRecord, state: SourceState, strict: boolean): Promise<void> {
    const abort = new AbortController();
    const deadline = this.deps.fetchDeadlineMs ?? FETCH_DEADLINE_MS;
    const timer = setTimeout(
      () => abort.abort(servedErrors.unreachable(record.name, `its fetch did not end within ${deadline / 1000} s, the most one may take`)),
      deadline,
    );
    this.fetching.set(record.name, abort);
    try {
      // The MCP client and its transports load with the first fetch: nothing else needs them.
      const { openLink } = await import('./mcp-link.js');
      const link = await openLink(record, this.deps.env, '1', abort.signal);
      try {
        state.skills = await fetchSource(link, this.files, record.name, state, abort.signal);
      } finally {
        await link.close();
      }
      state.error = null;
    } catch (error) {
      if (strict) {
        this.files.removeSource(record.name);
        throw error;
      }
      state.error = toSkilltrayError(error).toJSON();
    } finally {
      clearTimeout(timer);
      this.fetching.delete(record.name);
    }
    state.checkedAt = Date.now();
    this.files.saveState(record.name, state);
    try {
      this.sync(record.name, state);
    } catch (error) {
      // A folder that cannot be written is this source's failure: it is said, and the other sources still refresh.
      state.error = toSkilltrayError(error).toJSON();
      this.files.saveState(record.name, state);
    }
  }

  /** Writes the folder of every approved skill served as approved, removes every other, prunes unneeded files, and says what changed. */
  private sync(source: string, state: SourceState): void {
    const changed: string[] = [];
    const loaded = new Set(this.files.loadedSkills(source));
    for (const skill of loaded) {
      if (isLoaded(state.skills[skill], state.approved[skill])) continue;
      this.files.removeSkill(source, skill);
      changed.push(`${source}.${skill}`);
    }
    for (const [skill, approved] of Object.entries(state.approved)) {
      if (loaded.has(skill) || !isLoaded(state.skills[skill], approved)) continue;
      this.files.writeSkill(source, skill, approved.files);
      changed.push(`${source}.${skill}`);
    }
    const keep = new Set([...Object.values(state.skills), ...Object.values(state.approved)].flatMap((skill) => skill.files.map((file) => file.digest)));
    this.files.pruneBlobs(source, keep);
    if (changed.length > 0) this.deps.onChanged(changed);
  }
}
