import { describe, expect, it } from 'vitest';
import { CONTRADICTIONS, OPEN_TERMS, OPTION_DEFINITIONS, resolveOptions, TRAIT_NAMES, TRAITS } from '../src';


describe('every open term and contradiction of the inventory has its handling', () => {
  it('U1..U53 and C1..C15, each once, in order', () => {
    expect(OPEN_TERMS.map((p) => p.id)).toEqual(Array.from({ length: 53 }, (_, i) => `U${i + 1}`));
    expect(CONTRADICTIONS.map((p) => p.id)).toEqual(Array.from({ length: 15 }, (_, i) => `C${i + 1}`));
  });
  it('every option named exists and takes its default; every contradiction is an option', () => {
    const defaults = resolveOptions() as Record<string, unknown>;
    for (const p of [...OPEN_TERMS, ...CONTRADICTIONS]) {
      if (p.handling.kind !== 'option') continue;
      for (const name of p.handling.options) {
        expect(OPTION_DEFINITIONS, `${p.id} names ${name}`).toHaveProperty(name);
        expect(defaults[name]).toBe(OPTION_DEFINITIONS[name].default);
      }
    }
    for (const c of CONTRADICTIONS) expect(c.handling.kind, c.id).toBe('option');
  });
  it('whatever is not an option says where it lives and why', () => {
    for (const p of OPEN_TERMS) if (p.handling.kind !== 'option') expect(p.handling.where.length * p.handling.reason.length, p.id).toBeGreaterThan(0);
  });
});

describe('"Creating Traits": the 32 traits', () => {
  it('are 32, each once', () => {
    expect(new Set(TRAIT_NAMES).size).toBe(32);
    expect(TRAITS.map((t) => t.name)).toEqual([...TRAIT_NAMES]);
  });
  it('Resourceful and Businessman are recorded for the GM, not computed: the seed leaves both to the GM', () => {
    const manual = TRAITS.filter((t) => !t.automated).map((t) => [t.name, t.kind]);
    expect(manual).toEqual([
      ['Resourceful', 'equipment'],
      ['Businessman', 'narrative'],
    ]);
  });
});
