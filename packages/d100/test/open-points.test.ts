import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONTRADICTIONS, OPEN_TERMS, OPTION_NAMES, OPTION_SPECS, resolveOptions, RULE_DETAILS } from '../src';

const all = [...OPEN_TERMS, ...CONTRADICTIONS, ...RULE_DETAILS];
const src = fileURLToPath(new URL('../src/', import.meta.url));

describe('every point of the d100 rule inventory has its handling', () => {
  it('U1..U53 and C1..C22, each once, in order; the rule details are numbered rules D1..D133', () => {
    expect(OPEN_TERMS.map((p) => p.id)).toEqual(Array.from({ length: 53 }, (_, i) => `U${i + 1}`));
    expect(CONTRADICTIONS.map((p) => p.id)).toEqual(Array.from({ length: 22 }, (_, i) => `C${i + 1}`));
    for (const p of RULE_DETAILS) {
      expect(p.id, p.id).toMatch(/^D\d+$/);
      expect(Number(p.id.slice(1)), p.id).toBeGreaterThanOrEqual(1);
      expect(Number(p.id.slice(1)), p.id).toBeLessThanOrEqual(133);
    }
  });
  it('every option is listed once, under the point its own `settles` names, and takes its default', () => {
    const listed = all.flatMap((p) => (p.handling.kind === 'option' ? p.handling.options.map((o) => [o, p.id] as const) : []));
    expect(listed.map(([o]) => o).sort()).toEqual([...OPTION_NAMES].sort());
    const defaults = resolveOptions() as Record<string, unknown>;
    for (const [o, id] of listed) {
      expect(OPTION_SPECS[o].settles, o).toBe(id);
      expect(defaults[o]).toBe(OPTION_SPECS[o].default);
    }
  });
  it('whatever is not an option says where it lives and why', () => {
    for (const p of all) if (p.handling.kind !== 'option') expect(p.handling.where.length * p.handling.reason.length, p.id).toBeGreaterThan(0);
  });
  it('every inventory point the code cites (U, C or D and a number) exists', () => {
    const known = new Set(all.map((p) => p.id));
    for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
      for (const [id] of readFileSync(src + file, 'utf8').matchAll(/\b[UCD]\d{1,3}\b/g)) {
        if (id.startsWith('D')) expect(Number(id.slice(1)), `${file}: ${id}`).toBeLessThanOrEqual(133);
        else expect(known.has(id), `${file}: ${id}`).toBe(true);
      }
    }
  });
});
