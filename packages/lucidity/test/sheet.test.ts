import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSheet, parseSheetText, resolveOptions, sheetJsonSchema } from '../src';

const root = join(import.meta.dirname, '../../..');
const load = (path: string): unknown => {
  const r = parseSheetText(readFileSync(join(root, path), 'utf8'));
  if (!r.ok) throw new Error(r.problem.message);
  return r.raw;
};
const problemsOf = (raw: unknown, o = resolveOptions()) => {
  const r = checkSheet(raw, o);
  return r.ok ? [] : r.problems;
};
const base = {
  name: 'Test',
  attributes: { STR: 2, DEX: 1, CON: 1, KNO: 1, AWA: 0, WIL: 0, CHA: -1 },
  creation: { method: 'standard-array' },
  traits: ['Impaler', 'Hunk', 'Fast Healer'],
};

describe('sheets ("Creating a Primary Character")', () => {
  it('Ana Vell (level 1, standard array, Hunk): the derived values computed by hand', () => {
    const r = checkSheet(load('examples/lucidity/characters/ana-vell.yaml'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // Lucidity 1 + 13; Health CON 1 + 6; Energy WIL 0 + 6; slots 18 + STR 2 + Hunk (1 + CON 1); designated 2 + DEX 1; Defense 10 + DEX 1 + AWA 1
    expect(r.derived).toMatchObject({ maxLucidity: 14, maxHealth: 7, maxEnergy: 6, itemSlots: 22, designatedItems: 3, defense: 12, itemSlotsUsed: 10, protection: 4 });
  });
  it('Orrin Moss (level 3, rolled, two raises): Health 3x1 + 12 + 2 = 17, Energy 3x(-1) + 14 = 11, designated 5 + 2 Organized', () => {
    const r = checkSheet(load('examples/lucidity/characters/orrin-moss.yaml'));
    expect(r.ok ? r.derived : r.problems).toMatchObject({ maxLucidity: 16, maxHealth: 17, maxEnergy: 11, itemSlots: 18, designatedItems: 7, defense: 14, itemSlotsUsed: 6 });
  });
  it('every example under examples/lucidity/illegal is refused with problems naming a field and a rule', () => {
    const dir = join(root, 'examples/lucidity/illegal');
    const files = readdirSync(dir);
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      const problems = problemsOf(load(`examples/lucidity/illegal/${f}`));
      expect(problems.length, f).toBeGreaterThan(0);
      for (const p of problems) {
        expect(p.field, f).toBeTruthy();
        expect(p.rule?.document, `${f}: ${p.message}`).toBe('lucidity-primary-character.txt');
      }
    }
  });
  it('skill ranks above 5 and above 8 points are refused ("Creating Skills")', () => {
    const p = problemsOf(load('examples/lucidity/illegal/too-many-skill-points.yaml'));
    expect(p.map((x) => x.field)).toEqual(['skills.Rhetoric', 'skills']);
    expect(p[1]!.message).toMatch(/add up to 10, more than the 8 skill points/);
  });
  it('a skill the seed does not list is a skill ("Creating Skills": the list is examples), and Armor is never ranked', () => {
    expect(problemsOf({ ...base, skills: { 'Basket Weaving': 3, Swords: 2 } })).toEqual([]);
    expect(problemsOf({ ...base, skills: { 'Armor (heavy)': 1 } }).map((p) => p.field)).toEqual(['skills.Armor (heavy)']);
  });
  it('two +2s are not the standard array ("Generating Attributes")', () => {
    expect(problemsOf(load('examples/lucidity/illegal/not-the-standard-array.yaml'))[0]!.message).toMatch(/not the standard array 2, 1, 1, 1, 0, 0, -1/);
  });
  it('a misspelled trait suggests the right one; overloaded slots are counted', () => {
    const p = problemsOf(load('examples/lucidity/illegal/unknown-trait-and-overloaded.yaml'));
    expect(p.find((x) => x.field === 'traits.1')?.message).toMatch(/did you mean "Fast Healer"/);
    // 15 trade goods + greatsword 2 + 1200 coins 3 = 20 > 18 - 1
    expect(p.find((x) => x.field === 'items')?.message).toMatch(/take 20 item slots; the character has 17/);
  });
  it('an attribute of +4 is refused naming the field and value', () => {
    const p = problemsOf(load('examples/lucidity/illegal/level-without-xp.yaml'));
    expect(p[0]).toMatchObject({ field: 'attributes.STR', value: 4 });
  });
  it('level above what XP reaches, and a missing raise, are refused ("Advancement")', () => {
    const p = problemsOf({ ...base, level: 3, xp: 20, advancement: [{ level: 2, attribute: 'CON' }] });
    expect(p.map((x) => x.field)).toEqual(['level', 'advancement']);
    expect(p[0]!.message).toMatch(/level 3 needs more XP than 20 \(that XP reaches level 2\)/);
  });
  it('starting attributes are the sheet less its raises: CON +2 at level 2 with a CON raise started at +1', () => {
    const r = checkSheet({ ...base, attributes: { ...base.attributes, CON: 2 }, level: 2, xp: 10, advancement: [{ level: 2, attribute: 'CON' }] });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.derived.startingAttributes?.CON).toBe(1);
  });
  it('rolled scores must give the starting modifiers', () => {
    const p = problemsOf({ ...base, creation: { method: 'rolled', scores: { STR: 16, DEX: 13, CON: 13, KNO: 13, AWA: 10, WIL: 10, CHA: 3 } } });
    expect(p).toEqual([expect.objectContaining({ field: 'attributes.CHA', message: 'CHA starts at -1 but the rolled score 3 gives -3' })]);
  });
  it('traits: 3, unique, custom only when declared and allowed', () => {
    expect(problemsOf({ ...base, traits: ['Impaler', 'Impaler', 'Hunk'] })[0]!.message).toMatch(/listed twice/);
    expect(problemsOf({ ...base, traits: ['Impaler', 'Hunk'] })[0]!.message).toMatch(/3 traits, not 2/);
    const custom = { ...base, traits: ['Impaler', 'Hunk', { name: 'Moon-touched', custom: true, effect: 'sees in moonlight' }] };
    expect(problemsOf(custom)).toEqual([]);
    expect(problemsOf(custom, resolveOptions('standard', { customTraits: false }))[0]!.message).toMatch(/customTraits=false/);
  });
  it('unknown fields and wrong types are named with the value found', () => {
    const p = problemsOf({ ...base, colour: 'red', level: 'two' });
    expect(p.map((x) => x.message)).toEqual(expect.arrayContaining(['unknown field(s) "colour"', expect.stringMatching(/^level: .*not "two"$/)]));
  });
  it('current Health above its maximum is refused', () => {
    expect(problemsOf({ ...base, current: { health: 8 } })[0]).toMatchObject({ field: 'current.health', value: 8 });
  });
  it('the published JSON Schema is the one the code makes (docs/lucidity/sheet.schema.json)', () => {
    const published = JSON.parse(readFileSync(join(root, 'docs/lucidity/sheet.schema.json'), 'utf8'));
    expect(published).toEqual(sheetJsonSchema());
  });
  it('a YAML syntax error names the line', () => {
    const r = parseSheetText('name: x\nattributes: [1,\n', 'bad.yaml');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.message).toMatch(/bad.yaml line \d+/);
  });
});
