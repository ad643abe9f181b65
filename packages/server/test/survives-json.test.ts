import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { survivesJson } from '../src/json';

const holdsNegativeZero = (v: unknown): boolean =>
  Object.is(v, -0) || (typeof v === 'object' && v !== null && Object.values(v).some(holdsNegativeZero));

describe('survivesJson: an event kept as decided must equal its stored copy', () => {
  it('holds for every JSON value, and a value it accepts reads back equal', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // fast-check's JSON values may hold -0, which JSON writes as 0: the one thing refused here.
        const readBack = JSON.parse(JSON.stringify(value)) as unknown;
        if (survivesJson(value)) expect(readBack).toStrictEqual(value);
        else expect(holdsNegativeZero(value)).toBe(true);
      }),
    );
  });

  it('refuses what JSON would change or drop', () => {
    class Point {
      x = 1;
    }
    const cases: Array<[string, unknown]> = [
      ['an undefined field', { a: 1, b: undefined }],
      ['a hole', [1, , 3]],
      ['undefined in an array', [undefined]],
      ['-0', { n: -0 }],
      ['NaN', [Number.NaN]],
      ['Infinity', { n: Number.POSITIVE_INFINITY }],
      ['a date', { at: new Date(0) }],
      ['a class instance', { p: new Point() }],
      ['a symbol key', { [Symbol('s')]: 1 }],
      ['a function', { f: () => 1 }],
      ['a bigint', { n: 1n }],
      ['a map', new Map()],
    ];
    for (const [what, value] of cases) expect(survivesJson(value), what).toBe(false);
    expect(survivesJson({ a: [1, 'x', true, null, { b: 2.5 }], c: Object.assign(Object.create(null) as object, { d: 1 }) })).toBe(true);
  });

  it('refuses nesting deeper than the JSON bound instead of recursing on', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    expect(survivesJson(deep)).toBe(false);
  });
});
