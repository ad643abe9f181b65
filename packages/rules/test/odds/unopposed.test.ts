import { poolDice } from '@personae/core';
import { describe, expect, it } from 'vitest';
import { givenDice } from '@personae/dice';
import {
  compareDice,
  compareHighestMeets,
  judge,
  meetsOnFullTie,
  parseDifficulty,
  resolveUnopposed,
  tableOptions,
  unopposedGmDice,
  unopposedOdds,
  type ChallengeSideSpec,
  type TableOptions,
} from '../../src/index';
import { allRolls, expectSameOdds, Tally } from './brute';

/** Brute force through resolveUnopposed itself: every roll of the player and of the GM, entered as given dice. */
function bruteResolve(skill: number, bonus: number, modifier: number, difficulty: number, options: TableOptions, steer = 0): Tally {
  const tally = new Tally();
  const gm = unopposedGmDice(skill);
  for (const p of allRolls(Math.max(options.minimumPool, skill + bonus))) {
    for (const g of allRolls(gm)) {
      const player: ChallengeSideSpec = {
        name: 'P',
        pool: { base: skill, baseSource: 'skill', ...(bonus > 0 ? { bonusDice: [{ value: bonus, source: 'bonus' }] } : {}) },
        modifiers: [{ value: modifier, source: 'attribute' }],
      };
      const entered = poolDice({ actor: p.dice, difficulty: g.dice }, givenDice([]));
      const r = resolveUnopposed({ player, difficulty: parseDifficulty(difficulty), ...(steer > 0 ? { steer: [{ value: steer, source: 's' }] } : {}) }, entered, options);
      tally.add({ outcome: r.outcome, grade: r.grade, criticals: r.criticals, rerollFullTie: false }, p.count * g.count);
    }
  }
  return tally;
}

/** The same comparison functions resolveUnopposed calls, on every roll: cheaper for larger pools. */
function bruteCompare(dice: number, gmDice: number, modifier: number, difficulty: number, options: TableOptions): Tally {
  const tally = new Tally();
  const ctx = { options, reactorIsIdentity: false };
  for (const p of allRolls(dice)) {
    for (const g of allRolls(gmDice)) {
      const raw = options.unopposed === 'highest-die' ? compareHighestMeets(p.dice, modifier, g.dice, difficulty) : meetsOnFullTie(compareDice(p.dice, modifier, g.dice, difficulty));
      tally.add(judge(raw, ctx), p.count * g.count);
    }
  }
  return tally;
}

const readings = {
  'core-2011 highest-die': tableOptions('core-2011'),
  'core-2011 tie-break': tableOptions('core-2011', { unopposed: 'tie-break' }),
  'srd-v4 highest-die, natTenLowerTotal=glancing-success': tableOptions('srd-v4', { natTenLowerTotal: 'glancing-success' }),
  'srd-v4 tie-break, web criticals': tableOptions('srd-v4', { unopposed: 'tie-break', criticals: 'web' }),
};

describe('unopposed odds (personae-core-2011.txt "Unopposed Challenges")', () => {
  it('the unopposed worked example (personae-core-2011.txt "Unopposed Challenges"): 3 dice, +3 Prowess, Normal (+2) against the GM\'s 2 dice', () => {
    const core = tableOptions('core-2011');
    const odds = unopposedOdds({ player: { dice: 3, modifier: 3 }, difficulty: parseDifficulty('normal').value }, core);
    // 78,568 of the 100,000 ordered rolls of 3 + 2 dice meet the target (highest die + 3 >= GM's highest + 2).
    expect(odds.success).toBeCloseTo(0.78568, 14);
    expectSameOdds(odds, bruteResolve(3, 0, 3, 2, core).odds(), 'worked example, highest-die');
    const tieBreak = tableOptions('core-2011', { unopposed: 'tie-break' });
    const tb = unopposedOdds({ player: { dice: 3, modifier: 3 }, difficulty: 2 }, tieBreak);
    expect(tb.success).toBeCloseTo(0.7594, 14);
    expectSameOdds(tb, bruteResolve(3, 0, 3, 2, tieBreak).odds(), 'worked example, tie-break');
  });

  it('equals resolveUnopposed on every roll for skills of 1 and 2 dice, bonus dice, steering', () => {
    for (const [label, options] of Object.entries(readings)) {
      for (const skill of [1, 2]) {
        for (const [modifier, difficulty] of [
          [0, 0],
          [3, 2],
          [1, 5],
          [4, 9],
        ] as const) {
          const odds = unopposedOdds({ player: { dice: skill, modifier }, difficulty }, options);
          expectSameOdds(odds, bruteResolve(skill, 0, modifier, difficulty, options).odds(), `${label}: ${skill} dice +${modifier} vs difficulty ${difficulty}`);
        }
      }
      // A bonus die does not add to the GM's dice, which follow the skill's rating.
      const bonus = unopposedOdds({ player: { dice: 3, modifier: 2 }, skillRating: 2, difficulty: 3 }, options);
      expectSameOdds(bonus, bruteResolve(2, 1, 2, 3, options).odds(), `${label}: skill 2 with a bonus die`);
      const steered = unopposedOdds({ player: { dice: 2, modifier: 1 }, difficulty: 3, steer: 1 }, options);
      expectSameOdds(steered, bruteResolve(2, 0, 1, 3, options, 1).odds(), `${label}: steered one step`);
    }
  });

  it('with minimumPool 0 a player left with no dice rolls none (the GM still rolls one), as resolveUnopposed does', () => {
    const options = tableOptions('core-2011', { minimumPool: 0 });
    const odds = unopposedOdds({ player: { dice: 0, modifier: 2 }, difficulty: 1 }, options);
    expectSameOdds(odds, bruteResolve(0, 0, 2, 1, options).odds(), 'zero dice');
    expect(odds.success).toBeCloseTo(0.1, 12);
  });

  it('equals the resolver\'s comparison and judge on every roll for skills of 3 and 4 dice', () => {
    for (const [label, options] of Object.entries(readings)) {
      for (const dice of [3, 4]) {
        for (const [modifier, difficulty] of [
          [0, 2],
          [3, 5],
          [2, 0],
        ] as const) {
          const odds = unopposedOdds({ player: { dice, modifier }, difficulty }, options);
          expectSameOdds(odds, bruteCompare(dice, unopposedGmDice(dice), modifier, difficulty, options).odds(), `${label}: ${dice} dice +${modifier} vs difficulty ${difficulty}`);
        }
      }
    }
  });

  it('the GM earns no criticals', () => {
    const odds = unopposedOdds({ player: { dice: 6, modifier: 0 }, difficulty: 2 }, tableOptions('core-2011'));
    expect(odds.reactorCriticals).toEqual([1]);
    expect(odds.criticals.length).toBeGreaterThan(2);
  });
});
