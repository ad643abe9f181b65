import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knownRoll, rollPool, seededDice, type DiceSource } from '@personae/dice';
import { applyReroll, poolSize, resolveChallenge, resolveSubsequent, resolveUnopposed, tableOptions, type ChallengeResult, type ChallengeSideSpec, type TableOptions } from '../../src/index';

/**
 * Seeded random challenges against results stored from the resolver before its allocation changes
 * (docs/benchmarks.md): every result, explanation and refusal must stay the same, key order included.
 * UPDATE_GOLDEN=1 writes the file anew (only when a result is meant to change).
 */
const GOLDEN = new URL('./golden/resolve-golden.json', import.meta.url);
const CHALLENGES = 3000;

function pick<T>(spec: DiceSource, items: readonly T[]): T {
  return items[spec.die(items.length) - 1]!;
}
function chance(spec: DiceSource, inTen: number): boolean {
  return spec.die(10) <= inTen;
}
function labeled(spec: DiceSource, what: string, max: number, negative = false) {
  const n = spec.die(3) - 1;
  return Array.from({ length: n }, (_, i) => ({ value: spec.die(max + 1) - 1 - (negative ? Math.floor(max / 2) : 0), source: `${what} ${i}` }));
}

function sideSpec(g: DiceSource, name: string): ChallengeSideSpec {
  const rerolls = chance(g, 3)
    ? [{ dice: g.die(3), keep: pick(g, ['second', 'better'] as const), mayTouchHighest: chance(g, 5), source: `${name} reroll`, ...(chance(g, 2) ? { positions: [g.die(3) + 1] } : {}) }]
    : undefined;
  const forceRerolls = chance(g, 2) ? [{ dice: g.die(2), keep: pick(g, ['second', 'better'] as const), mayTouchHighest: chance(g, 5), source: `${name} forces` }] : undefined;
  return {
    name,
    pool: {
      base: g.die(7) - 1,
      baseSource: pick(g, ['skill', 'unskilled', '3d10']),
      ...(chance(g, 3) ? { bonusDice: labeled(g, 'bonus', 3) } : {}),
      ...(chance(g, 3) ? { penaltyDice: labeled(g, 'penalty', 3, chance(g, 5)) } : {}),
      ...(chance(g, 3) ? { maxDice: g.die(6) } : {}),
    },
    modifiers: labeled(g, 'mod', 8, true),
    ...(rerolls ? { rerolls } : {}),
    ...(forceRerolls ? { forceRerolls } : {}),
    ...(chance(g, 2) ? { ignoreOpponentDice: { value: g.die(3) - 1, source: 'armor' } } : {}),
    ...(chance(g, 3) ? { potentialThreshold: g.die(4) } : {}),
  };
}

function optionsOf(g: DiceSource): TableOptions {
  return tableOptions(pick(g, ['core-2011', 'srd-v4'] as const), {
    criticals: pick(g, ['core-2011', 'web', 'srd-v4'] as const),
    fullTie: pick(g, ['tie', 'actor', 'reactor', 'reroll'] as const),
    natTenLowerTotal: pick(g, ['failure', 'glancing-success'] as const),
    natTenBothTied: pick(g, ['responder', 'challenger'] as const),
    minimumPool: pick(g, [0, 1] as const),
    bonusDiceMayExceedCap: chance(g, 5),
    assist: pick(g, ['core-2011', 'web', 'srd-v4'] as const),
    maxAssistants: pick(g, [null, 0, 1, 3]),
    armorIgnores: pick(g, ['highest', 'lowest'] as const),
    unopposed: pick(g, ['highest-die', 'tie-break'] as const),
    grades: pick(g, ['core-2011', 'srd-v4'] as const),
  });
}

function challenge(seed: number): unknown {
  const g = seededDice(1_000_003 * seed + 17);
  const dice = seededDice(seed);
  const options = optionsOf(g);
  const assistants = chance(g, 3) ? Array.from({ length: g.die(3) }, (_, i) => ({ name: `helper ${i}` })) : undefined;
  const steer = chance(g, 2) ? labeled(g, 'steer', 2) : undefined;
  const automaticSuccess = chance(g, 1) ? { source: 'a spent critical' } : undefined;
  const common = { ...(assistants ? { assistants } : {}), ...(steer ? { steer } : {}), ...(automaticSuccess ? { automaticSuccess } : {}) };
  let result: ChallengeResult;
  try {
    result = chance(g, 3)
      ? resolveUnopposed({ player: sideSpec(g, 'Player'), difficulty: { value: g.die(11) - 1, label: 'set' }, ...common }, dice, options)
      : resolveChallenge({ actor: sideSpec(g, 'Ana'), reactor: sideSpec(g, 'Bo'), ...common }, dice, options);
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
  if (!chance(g, 3)) return result;
  try {
    return [result, resolveSubsequent(result, options, steer ?? [])];
  } catch (e) {
    return [result, { error: `${(e as Error).name}: ${(e as Error).message}` }];
  }
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

function pools(seed: number): unknown {
  const g = seededDice(seed);
  const sides = pick(g, [2, 6, 10, 10, 20, 100, 1000]);
  const count = g.die(41) - 1;
  const roll = rollPool(g, count, sides);
  const reroll = applyReroll(roll.sorted.length > 1 ? roll.sorted : [7, 3], { dice: g.die(3), keep: pick(g, ['second', 'better'] as const), mayTouchHighest: chance(g, 5), source: 'x' }, pick(g, ['own', 'forced'] as const), g);
  return { roll, known: knownRoll(roll.rolled), reroll, pool: poolSize({ base: count, baseSource: 'skill', bonusDice: labeled(g, 'b', 2), penaltyDice: labeled(g, 'p', 2, true), maxDice: g.die(9) }, tableOptions('core-2011', { minimumPool: pick(g, [0, 1] as const) })) };
}

describe('resolving a challenge gives the stored results for fixed seeds', () => {
  const now = {
    challenges: Array.from({ length: CHALLENGES }, (_, i) => digest(challenge(i + 1))),
    pools: Array.from({ length: 500 }, (_, i) => digest(pools(i + 1))),
    sample: challenge(42),
  };
  if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, `${JSON.stringify(now, null, 1)}\n`);
  const stored = JSON.parse(readFileSync(GOLDEN, 'utf8')) as typeof now;

  it('every challenge, its explanation and its refusals', () => {
    expect(now.sample).toEqual(stored.sample);
    const differing = now.challenges.flatMap((d, i) => (d === stored.challenges[i] ? [] : [i + 1]));
    expect(differing).toEqual([]);
  });

  it('pools, rerolls and pool sizes', () => {
    const differing = now.pools.flatMap((d, i) => (d === stored.pools[i] ? [] : [i + 1]));
    expect(differing).toEqual([]);
  });
});
