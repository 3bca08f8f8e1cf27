/**
 * An operation's input as JSON Schema, as the HTTP API's OpenAPI document and the MCP tools show it:
 * the contract's zod schema, input side, without the bounds zod gives every integer
 * (±9007199254740991, JavaScript's safe-integer range), which say nothing to a caller.
 */
import { z } from 'zod';
import { inputs, type OperationName } from '../shared/contract.js';

const SAFE_BOUNDS: Readonly<Record<string, number>> = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/** The schema with every safe-integer bound left out, at any depth. */
function withoutSafeBounds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutSafeBounds);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema as Record<string, unknown>)
      .filter(([key, value]) => SAFE_BOUNDS[key] !== value)
      .map(([key, value]) => [key, withoutSafeBounds(value)]),
  );
}

/** The input schema of `operation` as JSON Schema (no `$schema` dialect line). */
export function inputJsonSchema(operation: OperationName): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = withoutSafeBounds(z.toJSONSchema(inputs[operation], { io: 'input' })) as Record<string, unknown>;
  return schema;
}
