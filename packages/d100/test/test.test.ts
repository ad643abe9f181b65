import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isRuleError, toCommandError, type RuleError } from '@personae/core';
import { givenDice } from '@personae/dice';
import { advantageModifiers, DEFAULT_OPTIONS, degreesOf, resolveOpposed, resolveOptions, resolveTest, rollTest } from '../src';

describe('the d100 test (d100-combat-rules.txt "How Attacks Work"; degrees: option degrees)', () => {
  it('succeeds at or under the target and counts degrees by tens digits', () => {
    // target 45, roll 23: 4 - 2 = 2 degrees of success
    expect(resolveTest(45, 23)).toMatchObject({ success: true, degrees: 2, degreesOfSuccess: 2, degreesOfFailure: 0 });
    // roll equal to the target succeeds with 0 degrees
    expect(resolveTest(45, 45)).toMatchObject({ success: true, degrees: 0 });
    // target 45, roll 78: 7 - 4 = 3 degrees of failure
    expect(resolveTest(45, 78)).toMatchObject({ success: false, degrees: 3, degreesOfFailure: 3 });
    // target 45, roll 46: a failure by 0 degrees
    expect(resolveTest(45, 46)).toMatchObject({ success: false, degrees: 0 });
  });

  it('reads the other degree methods', () => {
    expect(degreesOf(45, 23, true, 'tens-digit-plus-one')).toBe(3);
    expect(degreesOf(45, 36, true, 'margin')).toBe(0); // 45 - 36 = 9
    expect(degreesOf(45, 36, true, 'tens-digit')).toBe(1); // 4 - 3
    expect(degreesOf(45, 78, false, 'margin-plus-one')).toBe(4); // 33 / 10 = 3, + 1
  });

  it('adds 10 per Advantage and takes 10 per Disadvantage', () => {
    const r = resolveTest(45, 62, advantageModifiers(2, 0)); // target 65: success, 6 - 6 = 0 degrees
    expect(r).toMatchObject({ target: 65, success: true, degrees: 0 });
    const s = resolveTest(45, 40, advantageModifiers(0, 1)); // target 35: 4 - 3 = 1 degree of failure
    expect(s).toMatchObject({ target: 35, success: false, degrees: 1 });
  });

  it('01 always succeeds and 100 always fails under autoResults=ffg, not under none', () => {
    expect(resolveTest(0, 1)).toMatchObject({ success: true, automatic: true, degrees: 0 });
    expect(resolveTest(150, 100)).toMatchObject({ success: false, automatic: true, degrees: 0 });
    const none = resolveOptions('seed', { autoResults: 'none' });
    expect(resolveTest(0, 1, [], none).success).toBe(false);
    expect(resolveTest(150, 100, [], none)).toMatchObject({ success: true, degrees: 5 });
  });

  it('flags Critical Hits at 10 or less ("Critical Hits") and Fumbles at 96 or more ("How Attacks Work")', () => {
    expect(resolveTest(50, 10).critical).toBe(true);
    expect(resolveTest(50, 11).critical).toBe(false);
    expect(resolveTest(50, 96).fumble).toBe(true);
    expect(resolveTest(50, 95).fumble).toBe(false);
    expect(resolveTest(50, 15, [], resolveOptions('seed', { criticalRange: '15' })).critical).toBe(true);
  });

  it('a roll of 10 or less that fails its target is no Critical Hit ("Critical Hits": only a landing attack is one)', () => {
    expect(resolveTest(5, 8)).toMatchObject({ success: false, critical: false });
    expect(resolveTest(5, 5)).toMatchObject({ success: true, critical: true });
  });

  it('refuses a roll outside 1-100 with the field and the rule', () => {
    try {
      resolveTest(45, 0);
      expect.unreachable();
    } catch (e) {
      expect(isRuleError(e)).toBe(true);
      expect((e as Error).message).toMatch(/roll: 0 is not a d100 result/);
      expect(toCommandError(e as RuleError)).toMatchObject({ field: 'roll', rule: { section: 'How Attacks Work' } });
    }
  });

  it('takes its roll from the injected dice', () => {
    expect(rollTest(45, givenDice([23])).roll).toBe(23);
  });

  it('degrees never go below zero and a success never has failure degrees (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 200 }), fc.integer({ min: 1, max: 100 }), fc.constantFrom('tens-digit', 'tens-digit-plus-one', 'margin', 'margin-plus-one' as const), (t, r, degrees) => {
        const res = resolveTest(t, r, [], { ...DEFAULT_OPTIONS, degrees });
        expect(res.degrees).toBeGreaterThanOrEqual(0);
        expect(res.success ? res.degreesOfFailure : res.degreesOfSuccess).toBe(0);
      }),
    );
  });
});

describe('opposed tests (d100-combat-rules.txt "Standard Attack and other Attack Actions")', () => {
  it('a failed actor never wins; a success against a failure wins', () => {
    expect(resolveOpposed(resolveTest(40, 55), resolveTest(30, 90)).actorWins).toBe(false);
    expect(resolveOpposed(resolveTest(40, 35), resolveTest(30, 90))).toMatchObject({ actorWins: true, decidedBy: 'reactor-failed' });
  });
  it('more degrees win; equal degrees fall to the higher target, then to the reactor', () => {
    // actor 45 vs 23: 2 DoS; reactor 50 vs 41: 1 DoS
    expect(resolveOpposed(resolveTest(45, 23), resolveTest(50, 41))).toMatchObject({ actorWins: true, decidedBy: 'degrees' });
    // both 1 DoS: actor target 45 (45 vs 32), reactor target 38 (38 vs 21)
    expect(resolveOpposed(resolveTest(45, 32), resolveTest(38, 21))).toMatchObject({ actorWins: true, decidedBy: 'higher-target' });
    // same targets and degrees: the reactor wins
    expect(resolveOpposed(resolveTest(45, 32), resolveTest(45, 33)).actorWins).toBe(false);
    expect(resolveOpposed(resolveTest(45, 32), resolveTest(45, 33), { opposedTie: 'actor' }).actorWins).toBe(true);
  });
});
