import { describe, expect, it } from 'vitest';
import { DUEL_ROUNDS, playDuels, wilsonInterval } from '../src';

describe('playDuels', () => {
  it('tallies each winner, the undecided and the rounds, with one seeded stream of dice for all duels', () => {
    const progress: [number, number][] = [];
    // A duel decided by one d6: 1-2 the first wins, 3-4 the second, 5-6 undecided at the round limit.
    const duel = (dice: { die: (n: number) => number }, maxRounds: number) => {
      const d = dice.die(6);
      return d <= 2 ? { winner: 'a', round: d } : d <= 4 ? { winner: 'b', round: d } : { winner: null, round: maxRounds + 1 };
    };
    const t = playDuels(['a', 'b'], { duels: 250, seed: 7, maxRounds: 9, onProgress: (done, total) => progress.push([done, total]) }, duel);
    expect(t.duels).toBe(250);
    expect(t.wins.a! + t.wins.b! + t.undecided).toBe(250);
    expect(t.rounds.max).toBe(10);
    expect(progress).toEqual([[100, 250], [200, 250], [250, 250]]);
    // Each outcome about a third of the time.
    for (const n of [t.wins.a!, t.wins.b!, t.undecided]) {
      const ci = wilsonInterval(n, 250);
      expect(ci.low).toBeLessThan(1 / 3);
      expect(ci.high).toBeGreaterThan(1 / 3);
    }
    expect(playDuels(['a', 'b'], { duels: 250, seed: 7, maxRounds: 9 }, duel)).toEqual(t);
    expect(playDuels(['a', 'b'], { duels: 250, seed: 8, maxRounds: 9 }, duel)).not.toEqual(t);
  });

  it('gives the duel the default round limit, and counts a winner it does not know as undecided', () => {
    let limit = 0;
    const t = playDuels(['a', 'b'], { duels: 2, seed: 1 }, (_dice, maxRounds) => ((limit = maxRounds), { winner: 'c', round: 1 }));
    expect(limit).toBe(DUEL_ROUNDS);
    expect(t).toEqual({ duels: 2, wins: { a: 0, b: 0 }, undecided: 2, rounds: { mean: 1, max: 1 } });
  });
});
