import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { challengeOdds, oddsGrid, simulateChallenge, successChance, tableOptions, type ChallengeOdds, type TableOptions } from '../../src/index';

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

function expectDistribution(o: ChallengeOdds, tol = 1e-12): void {
  expect(Math.abs(o.success + o.failure + o.fullTie - 1)).toBeLessThan(tol);
  expect(Math.abs(o.clearSuccess + o.glancingSuccess - o.success)).toBeLessThan(tol);
  expect(Math.abs(sum(o.criticals) - 1)).toBeLessThan(tol);
  expect(Math.abs(sum(o.reactorCriticals) - 1)).toBeLessThan(tol);
  for (const p of [o.success, o.clearSuccess, o.glancingSuccess, o.failure, o.fullTie, ...o.criticals, ...o.reactorCriticals]) {
    expect(p).toBeGreaterThanOrEqual(-tol);
    expect(p).toBeLessThanOrEqual(1 + tol);
  }
}

const optionsArb = fc
  .record({
    preset: fc.constantFrom('core-2011' as const, 'srd-v4' as const),
    criticals: fc.constantFrom('core-2011' as const, 'web' as const, 'srd-v4' as const),
    fullTie: fc.constantFrom('tie' as const, 'actor' as const, 'reactor' as const, 'reroll' as const),
    natTenLowerTotal: fc.constantFrom('failure' as const, 'glancing-success' as const),
    natTenBothTied: fc.constantFrom('responder' as const, 'challenger' as const),
    minimumPool: fc.constantFrom(0 as const, 1 as const),
  })
  .map(({ preset, ...o }) => tableOptions(preset, o));

describe('exact odds: properties', () => {
  it('every distribution sums to 1, for any pools, modifiers, options, thresholds and steering', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: -12, max: 12 }),
        fc.integer({ min: -12, max: 12 }),
        optionsArb,
        fc.integer({ min: 0, max: 3 }),
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        (n, m, mA, mR, options, steer, threshold) => {
          const o = challengeOdds({ actor: { dice: n, modifier: mA, ...(threshold ? { potentialThreshold: threshold } : {}) }, reactor: { dice: m, modifier: mR }, steer }, options);
          expectDistribution(o);
          expect(o.method).toBe('exact');
          if (options.fullTie === 'actor' || options.fullTie === 'reactor') expect(o.fullTie).toBe(0);
          if (threshold && options.criticals !== 'core-2011') expect(o.criticals.length).toBeLessThanOrEqual(threshold + 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('only the difference of the modifiers matters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: -6, max: 6 }), fc.integer({ min: -5, max: 5 }), optionsArb, (n, m, d, shift, options) => {
        const a = challengeOdds({ actor: { dice: n, modifier: d }, reactor: { dice: m, modifier: 0 } }, options);
        const b = challengeOdds({ actor: { dice: n, modifier: d + shift }, reactor: { dice: m, modifier: shift } }, options);
        expect(b).toEqual(a);
      }),
      { numRuns: 60 },
    );
  });

  it('under core-2011 criticals, swapping the sides swaps success and failure', () => {
    const core = tableOptions('core-2011');
    for (let n = 1; n <= 9; n += 2) {
      for (let m = 1; m <= 9; m += 3) {
        for (const d of [-4, -1, 0, 2, 7]) {
          const a = challengeOdds({ actor: { dice: n, modifier: d }, reactor: { dice: m, modifier: 0 } }, core);
          const b = challengeOdds({ actor: { dice: m, modifier: 0 }, reactor: { dice: n, modifier: d } }, core);
          expect(Math.abs(a.success - b.failure)).toBeLessThan(1e-12);
          expect(Math.abs(a.fullTie - b.fullTie)).toBeLessThan(1e-12);
          expect(a.criticals.length).toBe(b.reactorCriticals.length);
          a.criticals.forEach((p, i) => expect(Math.abs(p - b.reactorCriticals[i]!)).toBeLessThan(1e-12));
        }
      }
    }
  });

  it('fullTie = reroll conditions the tie reading on not tying', () => {
    for (const preset of ['core-2011', 'srd-v4'] as const) {
      for (const [n, m, d] of [
        [3, 3, 0],
        [5, 5, 1],
        [2, 2, -1],
      ] as const) {
        const q = { actor: { dice: n, modifier: d }, reactor: { dice: m, modifier: 0 } };
        const tie = challengeOdds(q, tableOptions(preset));
        const reroll = challengeOdds(q, tableOptions(preset, { fullTie: 'reroll' }));
        expect(reroll.fullTie).toBe(0);
        expect(reroll.rerolledTie).toBeCloseTo(tie.fullTie, 14);
        expect(reroll.success).toBeCloseTo(tie.success / (1 - tie.fullTie), 14);
        expect(reroll.clearSuccess).toBeCloseTo(tie.clearSuccess / (1 - tie.fullTie), 14);
      }
    }
    // Two empty pools always tie: the resolver gives up rerolling and reports the tie.
    const empty = challengeOdds({ actor: { dice: 0, modifier: 0 }, reactor: { dice: 0, modifier: 0 } }, tableOptions('core-2011', { fullTie: 'reroll', minimumPool: 0 }));
    expect(empty.fullTie).toBe(1);
    expect(empty.rerolledTie).toBe(1);
  });

  it('the grid and successChance (tens followed only when they matter) equal challengeOdds', () => {
    const dice = [1, 2, 3, 5, 8, 13];
    for (const options of [tableOptions('core-2011'), tableOptions('srd-v4'), tableOptions('srd-v4', { natTenBothTied: 'challenger', fullTie: 'reroll' })]) {
      for (const d of [-3, 0, 4]) {
        const grid = oddsGrid(dice, dice, d, options);
        dice.forEach((n, i) =>
          dice.forEach((m, j) => {
            const full = challengeOdds({ actor: { dice: n, modifier: d }, reactor: { dice: m, modifier: 0 } }, options).success;
            expect(Math.abs(grid[i]![j]! - full)).toBeLessThan(1e-13);
            expect(Math.abs(successChance({ actor: { dice: n, modifier: d }, reactor: { dice: m, modifier: 0 } }, options) - full)).toBeLessThan(1e-13);
          }),
        );
      }
    }
  });

  it('a 1-die pool against a 1-die pool: the textbook numbers', () => {
    const o = challengeOdds({ actor: { dice: 1, modifier: 0 }, reactor: { dice: 1, modifier: 0 } }, tableOptions('core-2011'));
    expect(o.success).toBeCloseTo(0.45, 15);
    expect(o.fullTie).toBeCloseTo(0.1, 15);
    expect(o.clearSuccess).toBeCloseTo(0.45, 15);
    const plusOne = challengeOdds({ actor: { dice: 1, modifier: 1 }, reactor: { dice: 1, modifier: 0 } }, tableOptions('core-2011'));
    expect(plusOne.success).toBeCloseTo(0.55, 15);
  });

  it('refuses what is not a pool', () => {
    const core = tableOptions('core-2011');
    expect(() => challengeOdds({ actor: { dice: -1, modifier: 0 }, reactor: { dice: 1, modifier: 0 } }, core)).toThrow(RangeError);
    expect(() => challengeOdds({ actor: { dice: 1.5, modifier: 0 }, reactor: { dice: 1, modifier: 0 } }, core)).toThrow(/actor.dice/);
    expect(() => challengeOdds({ actor: { dice: 1, modifier: 0.5 }, reactor: { dice: 1, modifier: 0 } }, core)).toThrow(/modifier/);
    expect(() => challengeOdds({ actor: { dice: 1, modifier: 0 }, reactor: { dice: 1, modifier: 0 }, steer: -1 }, core)).toThrow(/steer/);
  });
});

describe('large pools against simulation', () => {
  const cases: [number, number, number, TableOptions][] = [
    [12, 10, -2, tableOptions('core-2011')],
    [12, 10, 1, tableOptions('srd-v4')],
    [30, 30, 0, tableOptions('srd-v4')],
    [30, 30, 1, tableOptions('core-2011', { criticals: 'web', fullTie: 'reroll' })],
  ];
  for (const [n, m, d, options] of cases) {
    it(`${n} dice against ${m}, modifier difference ${d}, criticals ${options.criticals}`, () => {
      const q = { actor: { dice: n, modifier: d, potentialThreshold: 4 }, reactor: { dice: m, modifier: 0 } };
      const exact = challengeOdds(q, options);
      expectDistribution(exact);
      const sim = simulateChallenge(q, options, { samples: 150_000, seed: n * 100 + m });
      const se = (p: number) => Math.sqrt((p * (1 - p)) / sim.samples!) + 1e-9;
      for (const f of ['success', 'clearSuccess', 'failure', 'fullTie'] as const) {
        expect(Math.abs(sim[f] - exact[f]), f).toBeLessThan(4.5 * se(exact[f]));
      }
      exact.criticals.forEach((p, i) => expect(Math.abs((sim.criticals[i] ?? 0) - p), `criticals[${i}]`).toBeLessThan(4.5 * se(p)));
    });
  }
});
