import { describe, expect, it } from 'vitest';
import { atLeast, atMost, challengeOdds, decidingPair, decidingPairs, expected, howDecided, presetOptions } from '../../src/index';
import { allRolls } from './brute';

/** The deciding pair of every roll of both pools, weighted by the ordered rolls each sorted roll stands for. */
function bruteForce(n: number, m: number, diff: number) {
  const total = 10 ** (n + m);
  const actor = new Array<number>(Math.min(n, m)).fill(0);
  const reactor = new Array<number>(Math.min(n, m)).fill(0);
  let actorExtraDice = 0;
  let reactorExtraDice = 0;
  let fullTie = 0;
  for (const a of allRolls(n)) {
    for (const r of allRolls(m)) {
      const w = (a.count * r.count) / total;
      const at = decidingPair(a.dice, diff, r.dice, 0);
      const pos = Math.abs(at);
      if (at === 0) fullTie += w;
      else if (pos > Math.min(n, m)) {
        if (at > 0) actorExtraDice += w;
        else reactorExtraDice += w;
      } else if (at > 0) actor[pos - 1]! += w;
      else reactor[pos - 1]! += w;
    }
  }
  return { actor, reactor, actorExtraDice, reactorExtraDice, fullTie };
}

function expectClose(got: ReturnType<typeof decidingPairs>, want: ReturnType<typeof bruteForce>): void {
  expect(got.actor.length).toBe(want.actor.length);
  got.actor.forEach((p, i) => expect(p).toBeCloseTo(want.actor[i]!, 12));
  got.reactor.forEach((p, i) => expect(p).toBeCloseTo(want.reactor[i]!, 12));
  expect(got.actorExtraDice).toBeCloseTo(want.actorExtraDice, 12);
  expect(got.reactorExtraDice).toBeCloseTo(want.reactorExtraDice, 12);
  expect(got.fullTie).toBeCloseTo(want.fullTie, 12);
}

// personae-core-2011.txt "The Challenge", steps 2-4: the first pair that differs decides; extra dice break a lasting tie.
describe('how a challenge is decided', () => {
  it.each([
    [1, 1, 0],
    [2, 2, 0],
    [3, 2, 1],
    [2, 3, -2],
    [3, 3, 0],
    [4, 2, 3],
    [1, 3, 0],
    [0, 2, 0],
    [3, 3, 12],
  ])('%i dice against %i, modifier difference %i, equals every roll counted', (n, m, diff) => {
    expectClose(decidingPairs(n, m, diff), bruteForce(n, m, diff));
  });

  it('sums to one, and the actor total is the chance of winning the comparison under core-2011', () => {
    const options = presetOptions('core-2011');
    const d = decidingPairs(6, 5, 1);
    const sum = [...d.actor, ...d.reactor, d.actorExtraDice, d.reactorExtraDice, d.fullTie].reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 12);
    const odds = challengeOdds({ actor: { dice: 6, modifier: 3 }, reactor: { dice: 5, modifier: 2 } }, options);
    const actorWins = d.actor.reduce((a, b) => a + b, 0) + d.actorExtraDice;
    expect(actorWins).toBeCloseTo(odds.success, 12);
  });

  it('equal pools with equal modifiers can only end level on every pair: a full tie needs equal pools', () => {
    expect(decidingPairs(3, 3, 0).fullTie).toBeGreaterThan(0);
    expect(decidingPairs(3, 2, 0).fullTie).toBe(0);
    expect(decidingPairs(3, 2, 0).actorExtraDice).toBeGreaterThan(0);
  });

  it('under the literal 2011 unopposed reading only the highest dice count', () => {
    const options = { ...presetOptions('core-2011'), unopposed: 'highest-die' as const };
    const d = howDecided({ kind: 'unopposed', query: { player: { dice: 3, modifier: 2 }, difficulty: 4 } }, options);
    expect(d.actor).toHaveLength(1);
    const odds = challengeOdds({ actor: { dice: 3, modifier: 2 }, reactor: { dice: 2, modifier: 4 } }, options);
    expect(d.actor[0]! + d.reactor[0]!).toBeCloseTo(1, 12);
    // Meeting the target succeeds, so the player does at least as well as in an opposed challenge.
    expect(d.actor[0]!).toBeGreaterThan(odds.success);
  });

  it('refuses pools with rerolls, naming why', () => {
    const options = presetOptions('core-2011');
    expect(() => howDecided({ kind: 'opposed', query: { actor: { dice: 3, modifier: 0, rerolls: [{ dice: 1, keep: 'better', mayTouchHighest: false, source: 'Luck' }] }, reactor: { dice: 3, modifier: 0 } } }, options)).toThrow(/plain pools/);
  });
});

describe('cumulative views', () => {
  it('at least, at most and the mean of a distribution', () => {
    expect(atLeast([0.5, 0.3, 0.2])).toEqual([1, 0.5, 0.2]);
    expect(atMost([0.5, 0.3, 0.2]).map((p) => Number(p.toFixed(12)))).toEqual([0.5, 0.8, 1]);
    expect(expected([0.5, 0.3, 0.2])).toBeCloseTo(0.7, 12);
  });
});
