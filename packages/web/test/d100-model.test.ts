import { describe, expect, it } from 'vitest';
import { checkDraft, conditionNotes, draftSheet, newD100Draft, parseDice } from '../src/rulesets/d100/model';

describe('d100 physical dice as typed (d100-combat-rules.txt, "How Attacks Work")', () => {
  it('reads d100 results in order, "00" as 100, spaces or commas between', () => {
    expect(parseDice('23 70, 00')).toEqual({ dice: [23, 70, 100] });
    expect(parseDice('  ')).toEqual({ dice: [] });
  });
  it('names a word that is not a d100 result', () => {
    expect(parseDice('23 0')).toEqual({ error: 'dice: "0" is not a d100 result (1 to 100; "00" is 100)' });
    expect(parseDice('101')).toEqual({ error: 'dice: "101" is not a d100 result (1 to 100; "00" is 100)' });
    expect(parseDice('2x')).toMatchObject({ error: expect.stringContaining('"2x"') });
  });
});

describe('d100 character cards: the conditions the seed names outside the ailment table', () => {
  const none = { defending: false, helpless: false, bloodLoss: false, prone: false, grappledBy: null, toughnessDecay: 0, difficultTerrain: 0, position: null, protecting: null, mustFlee: false };
  const name = (id: string) => id.toUpperCase();
  it('the altitude band and a fall (the flight passage after "Difficult Terrain")', () => {
    expect(conditionNotes({ conditions: { ...none, altitude: 'high' } }, name)).toEqual(['flying High']);
    expect(conditionNotes({ conditions: { ...none, altitude: 'low', falling: 'high' } }, name)).toEqual(['flying Low', 'falling (from High)']);
    expect(conditionNotes({ conditions: { ...none, altitude: 'ground' } }, name)).toEqual([]);
  });
  it('Difficult Terrain with its kind, number and damage; an old number alone is Uneven/Slippery', () => {
    expect(conditionNotes({ conditions: { ...none, difficultTerrain: 2, terrain: 'damaging', terrainDamage: 3 } }, name)).toEqual(['Damaging terrain 2 (damage 3)']);
    expect(conditionNotes({ conditions: { ...none, difficultTerrain: 1 } }, name)).toEqual(['Uneven/Slippery terrain 1']);
  });
  it('unconscious (Fatigue and Exhaustion) rather than merely helpless; bleeding; protecting by name', () => {
    expect(conditionNotes({ conditions: { ...none, helpless: true, unconscious: 700, bloodLoss: true, protecting: 'b' } }, name)).toEqual(['unconscious', 'bleeding', 'protects B']);
  });
});

describe('d100 builder drafts: flight and Unnatural Toughness', () => {
  it('leaves both out when unset, and the sheet check reads them when set', () => {
    const d = newD100Draft();
    expect(draftSheet(d)).not.toHaveProperty('flight');
    expect(draftSheet(d)).not.toHaveProperty('unnaturalToughness');
    const r = checkDraft({ ...d, name: 'Aigis', scores: { ...d.scores, toughness: 40 }, flight: true, unnaturalToughness: 2 });
    expect(r.ok).toBe(true);
    expect(r.derived!.defense.body).toBe(6);
    expect(checkDraft({ ...d, name: 'Aigis', unnaturalToughness: 11 }).problems[0]).toMatchObject({ field: 'unnaturalToughness', value: 11 });
  });
});
