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

describe('exact attack odds with a Fate Point reroll of a miss ("Fate Points", Reroll)', () => {
  // A Called Attack draws no location, so every attack is decided by its attack and evasion rolls: the
  // chance is counted over every attack roll, evasion roll and second roll, without grouping.
  const called: AttackSpec = { ...sword, called: 'body' };
  const bruteForce = (options: typeof DEFAULT_OPTIONS) => {
    const result = (x: number, y: number) => resolveAttack(a, d, called, { kind: 'given', die: (() => { const v = [x, y]; let i = 0; return () => v[i++] ?? 1; })() }, options);
    const table = Array.from({ length: 101 }, (_, x) => (x === 0 ? [] : Array.from({ length: 101 }, (_, y) => (y === 0 ? null : result(x, y)))));
    let hit = 0;
    const wounds: Record<number, number> = {};
    const add = (x: number, y: number, w: number) => {
      const r = table[x]![y]!;
      if (r.hit) hit += w;
      const n = r.outcome ? r.outcome.losses.filter((l) => !l.blocked).length + r.outcome.personaWounds : 0;
      wounds[n] = (wounds[n] ?? 0) + w;
    };
    for (let x = 1; x <= 100; x++) {
      for (let y = 1; y <= 100; y++) {
        if (table[x]![y]!.hit) add(x, y, 100);
        else for (let z = 1; z <= 100; z++) add(options.rerollKeeps === 'second' ? z : Math.min(x, z), y, 1);
      }
    }
    // Counted in whole millionths, so the sum carries no rounding.
    return { hit: hit / 1e6, wounds: Object.fromEntries(Object.entries(wounds).map(([n, c]) => [n, c / 1e6])) };
  };
  for (const keep of ['second', 'better'] as const) {
    it(`equals every roll, evasion and second roll counted out (rerollKeeps=${keep})`, () => {
      const options = resolveOptions('seed', { rerollKeeps: keep });
      const exact = attackOdds(a, d, called, options, null, true);
      const brute = bruteForce(options);
      expect(exact.hit).toBeCloseTo(brute.hit, 12);
      for (const n of new Set([...Object.keys(brute.wounds), ...Object.keys(exact.wounds)])) expect(exact.wounds[Number(n)] ?? 0).toBeCloseTo(brute.wounds[Number(n)] ?? 0, 12);
      expect(exact.hit).toBeGreaterThan(attackOdds(a, d, called, options).hit);
    });
  }
  it('a rolled location is drawn afresh after the reroll: 20,000 seeded attacks, misses rolled again, agree within 0.015', () => {
    const options = resolveOptions('seed', { rerollKeeps: 'better' });
    const exact = attackOdds(a, d, sword, options, null, true);
    const dice = seededDice(5);
    let hits = 0;
    let two = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      let r = resolveAttack(a, d, sword, dice, options);
      if (!r.hit) {
        const kept = Math.min(r.attack.roll, dice.die(100));
        const prefix = [kept, ...(r.evasion ? [r.evasion.roll] : [])];
        let k = 0;
        r = resolveAttack(a, d, sword, { kind: 'given', die: (sides) => (k < prefix.length ? prefix[k++]! : dice.die(sides)) }, options);
      }
      if (r.hit) hits++;
      if (r.outcome && r.outcome.losses.length === 2) two++;
    }
    expect(Math.abs(hits / n - exact.hit)).toBeLessThan(0.015);
    expect(Math.abs(two / n - (exact.wounds[2] ?? 0))).toBeLessThan(0.015);
  });
});
