import { describe, expect, it } from 'vitest';
import type { ToolParam } from '../../../src-main/shared/model.js';
import { newTraceId } from '../../../src-renderer/app/trace-id.js';
import { toolArgs } from '../../../src-renderer/tools/tool-args.js';

const param = (name: string, type: ToolParam['type'], required = false): ToolParam => ({
  name,
  type,
  required,
  enumValues: type === 'enum' ? ['a', 'b'] : [],
  allowDash: false,
  description: '',
  default: null,
  line: 1,
});

describe('tool form values as run arguments', () => {
  const params = [
    param('text', 'string', true),
    param('n', 'integer'),
    param('x', 'number'),
    param('flag', 'boolean'),
    param('must', 'boolean', true),
    param('pick', 'enum'),
  ];

  it('types each value by its parameter', () => {
    expect(toolArgs(params, { text: 'two words', n: '3', x: '1.5', flag: true, must: true, pick: 'b' })).toEqual({
      text: 'two words',
      n: 3,
      x: 1.5,
      flag: true,
      must: true,
      pick: 'b',
    });
  });

  it('leaves blanks and unchecked optional booleans out, so defaults apply and the core names what is missing', () => {
    expect(toolArgs(params, { text: '   ', n: '', flag: false })).toEqual({ must: false });
  });

  it('passes what does not parse as a number as typed, for the core to refuse', () => {
    expect(toolArgs(params, { n: '3e', x: 'abc' })).toEqual({ n: '3e', x: 'abc', must: false });
  });

  it('ignores values of fields that are not parameters', () => {
    expect(toolArgs([param('a', 'string')], { a: 'x', b: 'y' })).toEqual({ a: 'x' });
  });

  it('makes distinct trace ids', () => {
    const ids = new Set(Array.from({ length: 100 }, newTraceId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^ui-[0-9a-f]{32}$/);
  });
});
