import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hitLocation, LOCATIONS, locationOf, resolveOptions, reverseDigits } from '../src';

describe('hit location (d100-combat-rules.txt "How Attacks Work", Step Four; options hitLocation)', () => {
  it('reads the humanoid table at its edges', () => {
    const cases: [number, string][] = [
      [1, 'head'], [10, 'head'], [11, 'right-arm'], [20, 'right-arm'], [21, 'left-arm'], [30, 'left-arm'],
      [31, 'body'], [70, 'body'], [71, 'right-leg'], [85, 'right-leg'], [86, 'left-leg'], [100, 'left-leg'],
    ];
    for (const [n, loc] of cases) expect(locationOf(n)).toBe(loc);
  });
  it('reverses the attack roll as two digits when hitLocation=reversed-attack-roll', () => {
    expect(reverseDigits(5)).toBe(50);
    expect(reverseDigits(10)).toBe(1);
    expect(reverseDigits(100)).toBe(100);
    expect(reverseDigits(37)).toBe(73);
    const reversed = resolveOptions('seed', { hitLocation: 'reversed-attack-roll' });
    expect(hitLocation(37, reversed)).toEqual({ roll: 37, number: 73, location: 'right-leg' });
    expect(hitLocation(37, resolveOptions())).toEqual({ roll: 37, number: 37, location: 'body' });
  });
  it('every roll lands on exactly one of the six locations, and reversing twice is the identity (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (n) => {
        expect(LOCATIONS).toContain(locationOf(n));
        expect(reverseDigits(reverseDigits(n))).toBe(n);
      }),
    );
  });
});
