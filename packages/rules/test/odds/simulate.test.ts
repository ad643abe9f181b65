import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { challengeOdds, compareDice, decidingPair, simulateChallenge, simulateUnopposed, SimulationDice, tableOptions, unopposedOdds, type ChallengeOdds } from '../../src/index';
import { classOfDecision, terminalCode } from '../../src/odds/exact';
import { classOfRaw } from '../../src/odds/verdicts';

function within(sim: ChallengeOdds, exact: ChallengeOdds, k = 4.5): void {
  const n = sim.samples!;
  for (const f of ['success', 'clearSuccess', 'glancingSuccess', 'failure', 'fullTie'] as const) {
    const se = Math.sqrt((exact[f] * (1 - exact[f])) / n) + 1e-9;
    expect(Math.abs(sim[f] - exact[f]), f).toBeLessThan(k * se);
  }
}

describe('simulation', () => {
  it('sorts samples into the classes compareDice reports', () => {
    const pool = fc.array(fc.integer({ min: 1, max: 10 }), { maxLength: 7 }).map((a) => a.sort((x, y) => y - x));
    fc.assert(
      fc.property(pool, pool, fc.integer({ min: -6, max: 6 }), (a, r, d) => {
        const raw = compareDice(a, d, r, 0);
        const cls = classOfDecision(decidingPair(a, d, r, 0), Math.min(a.length, r.length));
        expect(terminalCode(cls, raw.actorTens, raw.reactorTens)).toBe(classOfRaw(raw));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the exact odds, opposed and unopposed', () => {
    for (const options of [tableOptions('core-2011'), tableOptions('srd-v4'), tableOptions('srd-v4', { fullTie: 'reroll', criticals: 'web' })]) {
      const q = { actor: { dice: 3, modifier: 2, potentialThreshold: 2 }, reactor: { dice: 3, modifier: 2 }, steer: options.criticals === 'web' ? 1 : 0 };
      const sim = simulateChallenge(q, options, { samples: 100_000, seed: 5 });
      const exact = challengeOdds(q, options);
      within(sim, exact);
      if (options.fullTie === 'reroll') expect(Math.abs(sim.rerolledTie! - exact.rerolledTie!)).toBeLessThan(0.005);
    }
    for (const unopposed of ['highest-die', 'tie-break'] as const) {
      const options = tableOptions('srd-v4', { unopposed });
      const q = { player: { dice: 4, modifier: 1 }, difficulty: 3 };
      within(simulateUnopposed(q, options, { samples: 100_000, seed: 6 }), unopposedOdds(q, options));
    }
  });

  it('is reproducible from its seed and reports progress', () => {
    const q = { actor: { dice: 4, modifier: 0 }, reactor: { dice: 2, modifier: 3 } };
    const core = tableOptions('core-2011');
    const seen: [number, number][] = [];
    const a = simulateChallenge(q, core, { samples: 150_000, seed: 42, onProgress: (done, total) => seen.push([done, total]) });
    expect(simulateChallenge(q, core, { samples: 150_000, seed: 42 })).toEqual(a);
    expect(simulateChallenge(q, core, { samples: 150_000, seed: 43 })).not.toEqual(a);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toEqual([150_000, 150_000]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThan(seen[i - 1]![0]);
    expect(a.method).toBe('simulation');
    expect(a.standardError).toBeCloseTo(Math.sqrt((a.success * (1 - a.success)) / 150_000), 15);
  });

  it('rolls fair dice', () => {
    const dice = new SimulationDice(9);
    const counts = new Array<number>(11).fill(0);
    const n = 200_000;
    for (let i = 0; i < n; i++) counts[dice.d10()]!++;
    const chi = counts.slice(1).reduce((s, c) => s + (c - n / 10) ** 2 / (n / 10), 0);
    expect(chi).toBeLessThan(27.9); // 9 degrees of freedom, p = 0.001
    expect(counts[0]).toBe(0);
    expect(new SimulationDice(9).d10()).toBe(new SimulationDice(9).d10());
  });
});
