import { describe, expect, it } from 'vitest';
import { parseParamType } from '../../../src-main/core/template/param-types.js';

describe('parseParamType', () => {
  it.each([
    ['string', { type: 'string', enumValues: [], allowDash: false }],
    ['integer', { type: 'integer', enumValues: [], allowDash: false }],
    ['number', { type: 'number', enumValues: [], allowDash: false }],
    ['boolean', { type: 'boolean', enumValues: [], allowDash: false }],
    ['  String  ', { type: 'string', enumValues: [], allowDash: false }],
    ['INTEGER', { type: 'integer', enumValues: [], allowDash: false }],
    ['string, allow-dash', { type: 'string', enumValues: [], allowDash: true }],
    ['string,allow-dash', { type: 'string', enumValues: [], allowDash: true }],
    ['Integer , Allow-Dash ', { type: 'integer', enumValues: [], allowDash: true }],
    ['number, allow-dash, allow-dash', { type: 'number', enumValues: [], allowDash: true }],
    ['enum: short, medium, long', { type: 'enum', enumValues: ['short', 'medium', 'long'], allowDash: false }],
    ['ENUM:short,medium', { type: 'enum', enumValues: ['short', 'medium'], allowDash: false }],
    ['enum : one', { type: 'enum', enumValues: ['one'], allowDash: false }],
    // Enum values keep their case and may begin with a dash: the author wrote them.
    ['enum: -v, Quiet, allow-dash', { type: 'enum', enumValues: ['-v', 'Quiet', 'allow-dash'], allowDash: false }],
  ])('%j is understood', (text, expected) => {
    expect(parseParamType(text)).toEqual(expected);
  });

  it.each([
    ['', /type is empty/],
    ['   ', /type is empty/],
    ['int', /unknown type "int"/],
    ['str', /unknown type "str"/],
    ['array', /unknown type "array"/],
    ['string, required', /unknown modifier "required"/],
    ['string, allow_dash', /unknown modifier "allow_dash"/],
    ['string,', /empty modifier/],
    ['boolean, , allow-dash', /empty modifier/],
    ['enum', /enum needs its values/],
    ['enum:', /enum has no values/],
    ['enum:   ', /enum has no values/],
    ['enum: a,, b', /empty value/],
    ['enum: a, b,', /empty value/],
    ['enum: a, b, a', /"a" is listed twice/],
    ['allow-dash', /unknown type "allow-dash"/],
  ])('%j is an error', (text, message) => {
    const result = parseParamType(text);
    expect(result).toHaveProperty('error');
    expect((result as { error: string }).error).toMatch(message);
  });
});
