/**
 * The Skills extension (SEP-2640) on the MCP bridge: declared in `initialize`
 * (`capabilities.extensions["io.modelcontextprotocol/skills"]`, with `directoryRead`), `skills/list`
 * and `skills/get`, every file of a served skill as a `skill://<name>/<path>` resource, and
 * `resources/directory/read` for its folders. Each is one contract operation (servedSkills,
 * servedSkill, servedFile, servedDirectory), so what is served and every rule about it is the core's
 * (core/services/skill-serving.ts); this file only turns URIs into names and paths and back.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { OperationName, OperationOutputs } from '../shared/contract.js';
import { SKILLS_EXTENSION } from '../shared/served.js';
import { decodePath, skillFileUri, splitServedUri } from '../shared/served-uri.js';
import { skillcErrors } from '../shared/error-messages/skillc.js';
import type { ErrorShape } from '../shared/errors.js';
import { protocolError } from './mcp-errors.js';
import type { OperationCall } from './mcp-executor.js';

const ListRequest = z.object({ method: z.literal('skills/list'), params: z.looseObject({ cursor: z.string().optional() }).optional() });
const GetRequest = z.object({ method: z.literal('skills/get'), params: z.looseObject({ uri: z.string() }) });
const DirectoryRequest = z.object({ method: z.literal('resources/directory/read'), params: z.looseObject({ uri: z.string(), cursor: z.string().optional() }) });

/** MCP's code for a resource that does not exist, which resources/read of a skill:// file answers with, as of any other resource. */
const RESOURCE_NOT_FOUND = -32002;
const NOT_FOUND = new Set(['E001', 'E021', 'E022']);

/** A skill:// URI as the skill it names and the path in it; E012 for a path that would leave it, E001 for no skill Skilltray serves. */
function served(uri: string): { skill: string; path: string } {
  const split = splitServedUri(uri);
  if (split === null) throw skillcErrors.skillNotFound(uri);
  if (split.rest === '') return { skill: split.skill, path: '' };
  const decoded = decodePath(split.rest);
  if (!decoded.ok) throw skillcErrors.pathEscapesRoot(split.rest);
  return { skill: split.skill, path: decoded.rel };
}

/** Declares the extension on `mcp` and answers its methods with `call`; before the server is connected. */
export function registerSkillsExtension(mcp: McpServer, call: OperationCall): void {
  /** An operation's value, or its error as -32602 (the SEP's code for what it does not serve) or, for `resources/read`, as any resource read says it. */
  async function value<K extends OperationName>(operation: K, input: unknown, signal: AbortSignal, read = false): Promise<OperationOutputs[K]> {
    const envelope = await call(operation, input, signal);
    if (!envelope.ok) throw protocolError(envelope.error, read ? { codes: NOT_FOUND, as: RESOURCE_NOT_FOUND } : null);
    return envelope.value as OperationOutputs[K];
  }
  /** `work` with a thrown Skilltray error answered as `value` answers an operation's. */
  async function guarded<T>(work: () => Promise<T>, read = false): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const shape = (error as { toJSON?: () => ErrorShape }).toJSON?.();
      if (shape !== undefined && typeof shape.code === 'string') throw protocolError(shape, read ? { codes: NOT_FOUND, as: RESOURCE_NOT_FOUND } : null);
      throw error;
    }
  }

  mcp.server.registerCapabilities({ extensions: { [SKILLS_EXTENSION]: { directoryRead: true } } });

  mcp.server.setRequestHandler(ListRequest, async (request, extra) => {
    const cursor = request.params?.cursor;
    const page = await value('servedSkills', cursor === undefined ? {} : { cursor }, extra.signal);
    return page.nextCursor === null ? { skills: page.skills } : { skills: page.skills, nextCursor: page.nextCursor };
  });

  mcp.server.setRequestHandler(GetRequest, (request, extra) =>
    guarded(async () => {
      const { skill, path } = served(request.params.uri);
      if (path !== 'SKILL.md') throw skillcErrors.skillNotFound(request.params.uri);
      return { skill: await value('servedSkill', { skill }, extra.signal) };
    }),
  );

  mcp.server.setRequestHandler(DirectoryRequest, (request, extra) =>
    guarded(async () => {
      const { skill, path } = served(request.params.uri);
      const { cursor } = request.params;
      const listed = await value('servedDirectory', { skill, dir: path, ...(cursor === undefined ? {} : { cursor }) }, extra.signal);
      const resources: Resource[] = listed.entries.map((entry) => ({
        uri: skillFileUri(skill, entry.path),
        name: entry.name,
        ...(entry.kind === 'directory' ? { mimeType: 'inode/directory' } : /\.(md|markdown)$/i.test(entry.name) ? { mimeType: 'text/markdown' } : {}),
      }));
      return listed.nextCursor === null ? { resources } : { resources, nextCursor: listed.nextCursor };
    }),
  );

  // Files are read on demand, never listed in resources/list: skills/list is how a client learns them.
  mcp.registerResource(
    'skill-resource',
    new ResourceTemplate('skill://{name}/{+path}', { list: undefined }),
    {
      title: 'Skill file (Skills extension)',
      description: "A file of a served skill, by the skill's name and its path in the skill, as skills/list lists it.",
    },
    (uri, _variables, extra): Promise<ReadResourceResult> =>
      guarded(async () => {
        const { skill, path } = served(uri.href);
        const file = await value('servedFile', { skill, path }, extra.signal, true);
        const content = file.encoding === 'base64' ? { blob: file.content } : { text: file.content };
        return { contents: [{ uri: uri.href, mimeType: file.mimeType, ...content }] };
      }, true),
  );
}
