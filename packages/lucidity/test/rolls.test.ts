import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { modifier } from '@personae/core';
import { givenDice, seededDice } from '@personae/dice';
import { resolveBuffsBreaks, resolveOptions, rollD20, rollLucidity, scoreModifier, isStandardArray, rollScore, rollChance, lucidityChance } from '../src';

const opts = resolveOptions();

describe('lucidity-primary-character.txt "Generating Attributes"', () => {
  it('maps every score to the table modifier', () => {
    const table: [number, number][] = [
      [3, -3], [4, -2], [5, -2], [6, -1], [8, -1], [9, 0], [12, 0], [13, 1], [15, 1], [16, 2], [17, 2], [18, 3],
    ];
    for (const [score, mod] of table) expect(scoreModifier(score)).toBe(mod);
    expect(() => scoreModifier(2)).toThrow(/3 to 18/);
    expect(() => scoreModifier(19)).toThrow(/3 to 18/);
  });
  it('rolls 4d6 and drops the lowest: 6,1,4,3 -> 13 (+1)', () => {
    const r = rollScore(givenDice([6, 1, 4, 3]));
    expect(r).toMatchObject({ dropped: 1, score: 13, modifier: 1 });
  });
  it('knows the standard array in any order', () => {
    expect(isStandardArray([0, -1, 2, 1, 1, 0, 1])).toBe(true);
    expect(isStandardArray([2, 2, 1, 0, 0, 0, -1])).toBe(false);
  });
});

describe('"Buffs and Breaks"', () => {
  it('two buffs and one break cancel to one buff: the highest buff die given counts, in any order', () => {
    for (const buffDice of [[4, 2], [2, 4]]) {
      const r = resolveBuffsBreaks({ buffs: 2, breaks: 1 }, opts, undefined, { buffDice, breakDice: [5] });
      expect(r.net).toBe(1);
      expect(r.buffDice).toEqual([4]);
      expect(r.value).toBe(4);
    }
  });
  it('takes the highest of the dice left: buffs 2, 5, 3 add 5', () => {
    expect(resolveBuffsBreaks({ buffs: 3, breaks: 0 }, opts, undefined, { buffDice: [2, 5, 3] }).value).toBe(5);
  });
  it('breaks subtract their highest die: 1, 6 take off 6', () => {
    expect(resolveBuffsBreaks({ buffs: 0, breaks: 2 }, opts, undefined, { breakDice: [1, 6] }).value).toBe(-6);
  });
  it('an equal number of buffs and breaks adds nothing', () => {
    expect(resolveBuffsBreaks({ buffs: 1, breaks: 1 }, opts, undefined, { buffDice: [6], breakDice: [1] }).value).toBe(0);
  });
  it('under highest-buff-minus-highest-break every die is rolled: 6 buff, 2 break -> +4', () => {
    const o = resolveOptions('standard', { buffBreakDice: 'highest-buff-minus-highest-break' });
    expect(resolveBuffsBreaks({ buffs: 1, breaks: 1 }, o, undefined, { buffDice: [6], breakDice: [2] }).value).toBe(4);
  });
  it('refuses a d6 showing 7', () => {
    expect(() => resolveBuffsBreaks({ buffs: 1, breaks: 0 }, opts, undefined, { buffDice: [7] })).toThrow(/d6 showing 1 to 6, not 7/);
  });
  it('property: the value lies within -6..6 and has the sign of the net count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), fc.integer(), (b, k, seed) => {
        const r = resolveBuffsBreaks({ buffs: b, breaks: k }, opts, seededDice(seed));
        expect(Math.abs(r.value)).toBeLessThanOrEqual(6);
        expect(Math.sign(r.value)).toBe(Math.sign(b - k));
      }),
    );
  });
});

describe('the d20 roll ("Creating Skills", "How Combat Works")', () => {
  it('d20 12 + STR 2 + Swords rank 3 + buff die 4 = 21 beats 18', () => {
    const r = rollD20({ d20: 12, modifiers: [modifier('attribute', 'STR', 2), modifier('skill', 'Swords', 3)], buffDice: [4], target: 18 }, opts);
    expect(r.total).toBe(21);
    expect(r.success).toBe(true);
    expect(r.explanation).toContain('= 21');
  });
  it('a total equal to the target fails (the seed: the attack must exceed Defense), unless successOn=meet', () => {
    expect(rollD20({ d20: 10, modifiers: [modifier('m', 'bonus', 5)], target: 15 }, opts).success).toBe(false);
    expect(rollD20({ d20: 10, modifiers: [modifier('m', 'bonus', 5)], target: 15 }, resolveOptions('standard', { successOn: 'meet' })).success).toBe(true);
  });
  it('a natural 20 succeeds against 30 under criticalSuccess=natural-20 and not under none', () => {
    expect(rollD20({ d20: 20, target: 30 }, opts).success).toBe(true);
    expect(rollD20({ d20: 20, target: 30 }, resolveOptions('standard', { criticalSuccess: 'none' })).success).toBe(false);
  });
  it('refuses a d20 of 21 naming the field', () => {
    expect(() => rollD20({ d20: 21, target: 10 }, opts)).toThrow(/d20: a d20 shows 1 to 20, not 21/);
  });
  it('the exact chance agrees with counting: d20+0 against 10 succeeds on 11..20 = 0.5', () => {
    expect(rollChance({ modifier: 0, target: 10 }, opts)).toBeCloseTo(0.5, 12);
    // one buff: P(d20 + max(1d6) > 10) = sum over d6 x of (10 + x)/20 /6 = (11+12+...+16)/120 = 81/120
    expect(rollChance({ modifier: 0, target: 10, buffs: 1 }, opts)).toBeCloseTo(81 / 120, 12);
  });
  it('property: the exact chance matches enumeration of every die', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 8 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), (m, t, b, k) => {
        let hits = 0;
        let n = 0;
        const dice = (count: number): number[][] => (count === 0 ? [[]] : dice(count - 1).flatMap((rest) => [1, 2, 3, 4, 5, 6].map((x) => [x, ...rest])));
        const net = b - k;
        for (let d = 1; d <= 20; d++) {
          for (const ds of dice(Math.abs(net))) {
            const r = rollD20({ d20: d, modifiers: [modifier('m', 'm', m)], buffs: b, breaks: k, ...(net > 0 ? { buffDice: ds } : { breakDice: ds }), target: t }, opts);
            n++;
            if (r.success) hits++;
          }
        }
        expect(rollChance({ modifier: m, target: t, buffs: b, breaks: k }, opts)).toBeCloseTo(hits / n, 10);
      }),
      { numRuns: 40 },
    );
  });
});

describe('"Lucidity": the roll that spends itself', () => {
  it('Current Lucidity 14 + CON 1 = 15: a d20 of 15 succeeds and Lucidity drops to 13', () => {
    const r = rollLucidity({ d20: 15, current: 14, attribute: 1 }, opts);
    expect(r).toMatchObject({ target: 15, success: true, lucidityAfter: 13, spent: 1 });
  });
  it('a d20 of 16 against 15 fails and costs nothing', () => {
    const r = rollLucidity({ d20: 16, current: 14, attribute: 1 }, opts);
    expect(r).toMatchObject({ success: false, lucidityAfter: 14, missedBy: 1 });
  });
  it('under lucidityTarget=lucidity-only the attribute does not count (C4)', () => {
    const r = rollLucidity({ d20: 15, current: 14, attribute: 1 }, resolveOptions('standard', { lucidityTarget: 'lucidity-only' }));
    expect(r.success).toBe(false);
  });
  it('a free roll (0 Health, Rescuer) succeeds without cost', () => {
    expect(rollLucidity({ d20: 3, current: 5, free: true }, opts).lucidityAfter).toBe(5);
  });
  it('a buff die lowers the d20: 18 - 4 = 14 <= 14', () => {
    expect(rollLucidity({ d20: 18, current: 14, buffDice: [4] }, opts).success).toBe(true);
  });
  it('refuses an attribute of 5 as a modifier, naming the field', () => {
    expect(() => rollLucidity({ d20: 3, current: 5, attribute: 5 }, opts)).toThrow(/attribute: a whole number from -3 to 3, not 5/);
  });
  it('property: Lucidity never rises, falls by at most 1, never below 0, and only on a success', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: -3, max: 3 }), (d, c, a) => {
        const r = rollLucidity({ d20: d, current: c, attribute: a }, opts);
        expect(r.lucidityAfter).toBeGreaterThanOrEqual(0);
        expect(c - r.lucidityAfter).toBe(r.success && c > 0 ? 1 : 0);
        expect(r.success).toBe(d <= c + a);
      }),
    );
  });
  it('exact chance: Lucidity 10 + 2 succeeds on 1..12 = 0.6', () => {
    expect(lucidityChance({ current: 10, attribute: 2 }, opts)).toBeCloseTo(0.6, 12);
  });
});
