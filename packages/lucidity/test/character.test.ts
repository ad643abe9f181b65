import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { givenDice } from '@personae/dice';
import { applyDamage, derive, levelForXp, longRest, narrativeDamage, raiseAttribute, resolveOptions, xpForLevel, zeroHealthRoll, type Vitals } from '../src';

const opts = resolveOptions();
const attrs = (o: Partial<Record<'STR' | 'DEX' | 'CON' | 'KNO' | 'AWA' | 'WIL' | 'CHA', number>> = {}) => ({ STR: 0, DEX: 0, CON: 0, KNO: 0, AWA: 0, WIL: 0, CHA: 0, ...o });

describe('derived values ("Lucidity", "Maximum Health", "Maximum Energy", "Item Slots")', () => {
  it('level 1, STR +2 DEX +1 CON +1 AWA +1: Lucidity 14, Health 7, Energy 6, 20 slots, 3 designated, Defense 12', () => {
    const d = derive({ level: 1, attributes: attrs({ STR: 2, DEX: 1, CON: 1, AWA: 1 }), traits: [] }, opts);
    expect(d).toEqual({ maxLucidity: 14, maxHealth: 7, maxEnergy: 6, itemSlots: 20, designatedItems: 3, defense: 12 });
  });
  it('level 3, CON +2: 8 at level 1, +6 at 2 and at 3 = 20', () => {
    expect(derive({ level: 3, attributes: attrs({ CON: 2 }), traits: [] }, opts).maxHealth).toBe(20);
  });
  it('Willful counts WIL: level 2, WIL +3, CON -1: 2x3 + 8 + 2 = 16; Healthy Living adds 5', () => {
    expect(derive({ level: 2, attributes: attrs({ WIL: 3, CON: -1 }), traits: ['Willful'] }, opts).maxHealth).toBe(16);
    expect(derive({ level: 2, attributes: attrs({ WIL: 3, CON: -1 }), traits: ['Willful', 'Healthy Living'] }, opts).maxHealth).toBe(21);
  });
  it('Hunk: level 2, CON +1: 18 + 0 + 2 + 1 = 21 slots', () => {
    expect(derive({ level: 2, attributes: attrs({ CON: 1 }), traits: ['Hunk'] }, opts).itemSlots).toBe(21);
  });
  it('designated items are at least 1 (DEX -3), Organized adds 2', () => {
    expect(derive({ level: 1, attributes: attrs({ DEX: -3 }), traits: [] }, opts).designatedItems).toBe(1);
    expect(derive({ level: 1, attributes: attrs({ DEX: -3 }), traits: ['Organized'] }, opts).designatedItems).toBe(3);
  });
  it('Precognition: Defense 10 + KNO 3 + AWA 1 = 14', () => {
    expect(derive({ level: 1, attributes: attrs({ KNO: 3, AWA: 1, DEX: -1 }), traits: ['Precognition'] }, opts).defense).toBe(14);
  });
  it('C15 incremental: CON 0 at level 1 and +1 from level 2: 6 + 5 + 5 = 16 (formula: 17)', () => {
    const history = [attrs(), attrs({ CON: 1 }), attrs({ CON: 1 })];
    const input = { level: 3, attributes: attrs({ CON: 1 }), traits: [], history };
    expect(derive(input, resolveOptions('standard', { healthRecalc: 'incremental' })).maxHealth).toBe(16);
    expect(derive(input, opts).maxHealth).toBe(17);
  });
  it('property: each level adds CON + 4 Health and WIL + 4 Energy, and 1 Lucidity', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }), (l, con, wil) => {
        const a = derive({ level: l, attributes: attrs({ CON: con, WIL: wil }), traits: [] }, opts);
        const b = derive({ level: l + 1, attributes: attrs({ CON: con, WIL: wil }), traits: [] }, opts);
        expect(b.maxHealth - a.maxHealth).toBe(con + 4);
        expect(b.maxEnergy - a.maxEnergy).toBe(wil + 4);
        expect(b.maxLucidity - a.maxLucidity).toBe(1);
      }),
    );
  });
});

describe('"Advancement"', () => {
  it('levels from XP: 9 -> 1, 10 -> 2, 149 -> 5, 150 -> 6, 1000 -> 6', () => {
    expect([0, 9, 10, 29, 30, 60, 149, 150, 1000].map((x) => levelForXp(x, opts))).toEqual([1, 1, 2, 2, 3, 4, 5, 6, 6]);
  });
  it('levelsAbove6=extrapolate: 210 for 7, 280 for 8', () => {
    const o = resolveOptions('standard', { levelsAbove6: 'extrapolate' });
    expect([xpForLevel(7, o), xpForLevel(8, o), levelForXp(280, o)]).toEqual([210, 280, 8]);
    expect(xpForLevel(7, opts)).toBeNull();
  });
  it('a level-up cannot raise an attribute above +3', () => {
    expect(raiseAttribute(attrs({ STR: 2 }), 'STR').STR).toBe(3);
    expect(() => raiseAttribute(attrs({ STR: 3 }), 'STR')).toThrow(/STR is \+3; a level-up cannot bring an attribute above \+3/);
  });
});

const vitals = (o: Partial<Vitals> = {}): Vitals => ({ health: 5, maxHealth: 10, lucidity: 14, maxLucidity: 14, energy: 0, maxEnergy: 8, ...o });

describe('"Hitting 0 Health"', () => {
  it('8 damage at 5 Health: Health 0, 3 off Lucidity; no end-of-round roll yet (already-at-zero)', () => {
    const r = applyDamage(vitals(), 8, opts);
    expect(r).toMatchObject({ toHealth: 5, toLucidity: 3, triggersZeroHealthRoll: false });
    expect(r.vitals).toMatchObject({ health: 0, lucidity: 11 });
    expect(applyDamage(vitals(), 8, resolveOptions('standard', { zeroHealthTrigger: 'reaching-zero' })).triggersZeroHealthRoll).toBe(true);
  });
  it('damage already at 0 comes off Lucidity and calls for the roll', () => {
    const r = applyDamage(vitals({ health: 0, lucidity: 11 }), 2, opts);
    expect(r).toMatchObject({ toLucidity: 2, triggersZeroHealthRoll: true });
    expect(r.vitals.lucidity).toBe(9);
  });
  it('Lucidity never goes below 0 (clamp); under death the damage past it kills', () => {
    expect(applyDamage(vitals({ health: 0, lucidity: 1 }), 3, opts).vitals.lucidity).toBe(0);
    expect(applyDamage(vitals({ health: 0, lucidity: 1 }), 3, resolveOptions('standard', { lucidityBelowZero: 'death' })).dies).toBe(true);
  });
  it('the end-of-round Lucidity (CON) roll: Lucidity 9 + CON 1 = 10; a 10 succeeds and costs nothing', () => {
    const r = zeroHealthRoll(vitals({ health: 0, lucidity: 9 }), 1, opts, undefined, 10);
    expect(r).toMatchObject({ degree: 0, outcome: { kind: 'nothing' }, lucidityAfter: 9 });
  });
  it('a 13 misses by 3: a Major Wound; a 16 misses by 6: the final turn, Lucidity back to 14', () => {
    expect(zeroHealthRoll(vitals({ health: 0, lucidity: 9 }), 1, opts, undefined, 13).outcome).toEqual({ kind: 'major-wound', heals: '1-3 months' });
    const last = zeroHealthRoll(vitals({ health: 0, lucidity: 9 }), 1, opts, undefined, 16);
    expect(last).toMatchObject({ degree: 6, outcome: { kind: 'final-turn' }, lucidityAfter: 14 });
  });
  it('degreeOfFailure=per-five: missing by 6 is degree 2, a Wound', () => {
    const r = zeroHealthRoll(vitals({ health: 0, lucidity: 9 }), 1, resolveOptions('standard', { degreeOfFailure: 'per-five' }), undefined, 16);
    expect(r).toMatchObject({ degree: 2, outcome: { kind: 'wound' } });
  });
});

describe('"Long Rests", "Lunar Pauses", "Regaining Lucidity"', () => {
  it('a d4 of 3: Health 3 -> 6, Energy full, Lucidity +1', () => {
    const r = longRest(vitals({ health: 3, lucidity: 12 }), [], opts, { healthDice: [3] });
    expect(r.vitals).toMatchObject({ health: 6, energy: 8, lucidity: 13 });
  });
  it('Fast Healer rolls another d4; Health stops at its maximum', () => {
    const r = longRest(vitals({ health: 3 }), ['Fast Healer'], opts, {}, givenDice([4, 4]));
    expect(r.healthDice).toEqual([4, 4]);
    expect(r.vitals.health).toBe(10);
  });
  it('with a Lunar Pause: 2 Lucidity in all (two-total), 4 when stacked, never above the maximum', () => {
    expect(longRest(vitals({ lucidity: 10 }), [], opts, { lunarPause: true, healthDice: [1] }).lucidityGained).toBe(2);
    expect(longRest(vitals({ lucidity: 10 }), [], resolveOptions('standard', { lunarLucidity: 'stacked' }), { lunarPause: true, healthDice: [1] }).lucidityGained).toBe(4);
    expect(longRest(vitals({ lucidity: 13 }), [], resolveOptions('standard', { lunarLucidity: 'stacked' }), { lunarPause: true, healthDice: [1] }).vitals.lucidity).toBe(14);
  });
});

describe('"Narrative Combat"', () => {
  it('CHA +3: 3 damage when the target fails to resist, 1 (half, rounded down) when it succeeds', () => {
    expect(narrativeDamage(3, false, opts)).toBe(3);
    expect(narrativeDamage(3, true, opts)).toBe(1);
    expect(narrativeDamage(3, true, resolveOptions('standard', { narrativeDamage: 'always-full' }))).toBe(3);
  });
});
