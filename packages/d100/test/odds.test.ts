import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { attackOdds, DEFAULT_OPTIONS, makeFighter, resolveAttack, resolveOpposed, resolveOptions, resolveTest, type AttackSpec } from '../src';

const scores = { melee: 45, ballistic: 40, magic: 50, strength: 35, toughness: 40, agility: 30, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
const a = makeFighter({ id: 'a', scores });
const d = makeFighter({ id: 'd', side: 'e', scores, armour: { body: 2 } });
const sword: AttackSpec = { kind: 'melee', element: 'melee', damage: 5, attackTarget: 45, evasionTarget: 30 };

describe('exact attack odds (attack roll x evasion roll x location)', () => {
  const odds = attackOdds(a, d, sword, DEFAULT_OPTIONS);
  it('the hit chance equals a brute-force count of the opposed tests (Fumbles miss)', () => {
    let wins = 0;
    for (let x = 1; x <= 100; x++) for (let y = 1; y <= 100; y++) if (x < 96 && resolveOpposed(resolveTest(45, x), resolveTest(30, y)).actorWins) wins++;
    expect(odds.hit).toBeCloseTo(wins / 10000, 12);
    expect(odds.fumble).toBeCloseTo(0.05, 12);
    expect(odds.critical).toBeCloseTo(0.1, 12);
  });
  it('the wound distribution sums to 1 and its no-wound mass covers every miss', () => {
    const total = Object.values(odds.wounds).reduce((s, p) => s + p, 0);
    expect(total).toBeCloseTo(1, 12);
    expect(odds.wounds[0]!).toBeGreaterThanOrEqual(1 - odds.hit - 1e-12);
  });
  it('agrees with 20,000 seeded attacks within 0.015', () => {
    const dice = seededDice(11);
    let hits = 0;
    let two = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      const r = resolveAttack(a, d, sword, dice, DEFAULT_OPTIONS);
      if (r.hit) hits++;
      if (r.outcome && r.outcome.losses.length === 2) two++;
    }
    expect(Math.abs(hits / n - odds.hit)).toBeLessThan(0.015);
    expect(Math.abs(two / n - (odds.wounds[2] ?? 0))).toBeLessThan(0.015);
  });
  it('grouping rolls changes nothing: reversed-attack-roll (every roll walked) gives the same hit chance', () => {
    const rev = attackOdds(a, d, sword, resolveOptions('seed', { hitLocation: 'reversed-attack-roll' }));
    expect(rev.hit).toBeCloseTo(odds.hit, 12);
  });
});
