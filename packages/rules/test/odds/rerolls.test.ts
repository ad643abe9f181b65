import { describe, expect, it } from 'vitest';
import { givenDice } from '@personae/dice';
import { poolDice } from '@personae/core';
import { challengeOdds, resolveChallenge, simulateChallenge, tableOptions, type ChallengeSideSpec, type OddsSide, type TableOptions } from '../../src/index';
import { allRolls, expectSameOdds, Tally } from './brute';

/**
 * Rerolls, forced rerolls and armor: exact odds against resolveChallenge itself on every initial roll
 * and every result of every reroll, the rerolled dice entered as given dice in the order drawn.
 */
function spec(name: string, s: OddsSide): ChallengeSideSpec {
  return {
    name,
    pool: { base: s.dice, baseSource: 'skill' },
    modifiers: [{ value: s.modifier, source: 'attribute' }],
    ...(s.rerolls ? { rerolls: s.rerolls } : {}),
    ...(s.forceRerolls ? { forceRerolls: s.forceRerolls } : {}),
    ...(s.ignoreOpponentDice ? { ignoreOpponentDice: { value: s.ignoreOpponentDice, source: 'armor' } } : {}),
    ...(s.potentialThreshold !== undefined ? { potentialThreshold: s.potentialThreshold } : {}),
  };
}

function brute(actor: OddsSide, reactor: OddsSide, options: TableOptions): Tally {
  const tally = new Tally();
  const resolve = (a: number[], r: number[], rerolled: number[]) => resolveChallenge({ actor: spec('A', actor), reactor: spec('R', reactor) }, poolDice({ actor: a, reactor: r }, givenDice(rerolled)), options);
  // How many reroll results one challenge draws (the positions depend on the pool sizes only).
  const probe = givenDice(new Array<number>(64).fill(5));
  resolveChallenge({ actor: spec('A', actor), reactor: spec('R', reactor) }, poolDice({ actor: allRolls(actor.dice)[0]!.dice, reactor: allRolls(reactor.dice)[0]!.dice }, probe), options);
  const draws = 64 - probe.remaining();
  for (const a of allRolls(actor.dice)) {
    for (const r of allRolls(reactor.dice)) {
      for (let i = 0; i < 10 ** draws; i++) {
        const rerolled = Array.from({ length: draws }, (_, k) => (Math.floor(i / 10 ** k) % 10) + 1);
        const v = resolve(a.dice, r.dice, rerolled);
        tally.add({ outcome: v.outcome, grade: v.grade, criticals: v.criticals, rerollFullTie: false }, a.count * r.count);
      }
    }
  }
  return tally;
}

const focus = (dice: number, keep: 'second' | 'better', mayTouchHighest: boolean, positions?: number[]) => ({ dice, keep, mayTouchHighest, source: 'ability', ...(positions ? { positions } : {}) });

describe('rerolls and armor, exact (personae-core-2011.txt "What Special Abilities Can Do", "Armor")', () => {
  const cases: [string, OddsSide, OddsSide, TableOptions][] = [
    ['own reroll of the lowest die, second result', { dice: 2, modifier: 1, rerolls: [focus(1, 'second', false)] }, { dice: 2, modifier: 2 }, tableOptions('core-2011')],
    [
      'own better reroll against a forced better reroll that may touch the highest die',
      { dice: 2, modifier: 0, rerolls: [focus(1, 'better', false)], potentialThreshold: 1 },
      { dice: 1, modifier: 1, forceRerolls: [focus(1, 'better', true)] },
      tableOptions('srd-v4'),
    ],
    ['armor ignoring the lowest die after a forced reroll', { dice: 2, modifier: 2 }, { dice: 1, modifier: 1, ignoreOpponentDice: 1, forceRerolls: [focus(1, 'second', true)] }, tableOptions('core-2011', { armorIgnores: 'lowest', criticals: 'web' })],
    ['a reroll of a chosen position', { dice: 2, modifier: 0, rerolls: [focus(1, 'second', false, [2])] }, { dice: 1, modifier: 0, ignoreOpponentDice: 1 }, tableOptions('srd-v4', { fullTie: 'actor' })],
  ];
  for (const [label, actor, reactor, options] of cases) {
    it(label, () => {
      const odds = challengeOdds({ actor, reactor }, options);
      expect(odds.method).toBe('exact');
      expectSameOdds(odds, brute(actor, reactor, options).odds(), label);
    });
  }

  it('larger pools are enumerated exactly and agree with the simulation', () => {
    const actor: OddsSide = { dice: 5, modifier: 1, rerolls: [focus(2, 'better', false)] };
    const reactor: OddsSide = { dice: 4, modifier: 2, forceRerolls: [focus(1, 'second', true)], ignoreOpponentDice: 1 };
    const options = tableOptions('srd-v4');
    const exact = challengeOdds({ actor, reactor }, options);
    expect(exact.method).toBe('exact');
    const sim = simulateChallenge({ actor, reactor }, options, { samples: 200_000, seed: 11 });
    expect(Math.abs(sim.success - exact.success)).toBeLessThan(4 * sim.standardError!);
    expect(Math.abs(sim.criticals[1]! - exact.criticals[1]!)).toBeLessThan(0.006);
  });

  it('past the enumeration limit the answer is a simulation, and says so', () => {
    const actor: OddsSide = { dice: 14, modifier: 0, rerolls: [focus(2, 'better', false)] };
    const reactor: OddsSide = { dice: 12, modifier: 1, ignoreOpponentDice: 2 };
    const odds = challengeOdds({ actor, reactor }, tableOptions('core-2011'), { samples: 20_000, seed: 3 });
    expect(odds.method).toBe('simulation');
    expect(odds.samples).toBe(20_000);
    expect(odds.standardError).toBeGreaterThan(0);
    expect(odds.note).toMatch(/simulated/);
    expect(odds.success + odds.failure + odds.fullTie).toBeCloseTo(1, 12);
  });
});
