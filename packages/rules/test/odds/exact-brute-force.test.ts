import { describe, expect, it } from 'vitest';
import { challengeOdds, compareDice, judge, tableOptions, type JudgeContext, type TableOptions } from '../../src/index';
import { allRolls, expectSameOdds, Tally } from './brute';

/**
 * challengeOdds against every roll of every pool of 0 to 4 dice a side, modifier differences -5..5:
 * the real compareDice and judge run on each roll, under every combination of the criticals and fullTie
 * options (on the core-2011 preset, srd-v4 criticals on the srd-v4 preset), with Potential Threshold
 * caps, both srd-v4 natural-10 options and steering. Pools with a four-die side (nine tenths of the
 * work) run the two presets and one more configuration per modifier difference, in rotation (two at
 * difference 0), so every configuration meets them.
 */
interface Config {
  readonly label: string;
  readonly options: TableOptions;
  readonly actorThreshold?: number;
  readonly reactorThreshold?: number;
  readonly steer: number;
}

const configs: Config[] = [];
for (const criticals of ['core-2011', 'web', 'srd-v4'] as const) {
  for (const fullTie of ['tie', 'actor', 'reactor', 'reroll'] as const) {
    const preset = criticals === 'srd-v4' ? 'srd-v4' : 'core-2011';
    const capped = fullTie === 'actor' || fullTie === 'reroll';
    configs.push({
      label: `${preset} preset, criticals=${criticals}, fullTie=${fullTie}${capped ? ', thresholds 2/1' : ''}`,
      options: tableOptions(preset, { criticals, fullTie }),
      ...(capped ? { actorThreshold: 2, reactorThreshold: 1 } : {}),
      steer: 0,
    });
  }
}
configs.push({ label: 'srd-v4, natTenLowerTotal=glancing-success, natTenBothTied=challenger, steer 1', options: tableOptions('srd-v4', { natTenLowerTotal: 'glancing-success', natTenBothTied: 'challenger' }), steer: 1 });
configs.push({ label: 'core-2011, fullTie=reroll, steer 2', options: tableOptions('core-2011', { fullTie: 'reroll' }), steer: 2 });

const PRESET_CORE = 0; // core-2011 preset as it is
const PRESET_V4 = 8; // srd-v4 preset as it is

function configsFor(n: number, m: number, d: number): number[] {
  if (Math.max(n, m) <= 3) return configs.map((_, i) => i);
  const others = configs.map((_, i) => i).filter((i) => i !== PRESET_CORE && i !== PRESET_V4);
  const extra = d === 0 ? [others[5]!, others[11]!] : [others[d + 5]!];
  return [PRESET_CORE, PRESET_V4, ...extra];
}

function context(c: Config): JudgeContext {
  return {
    options: c.options,
    ...(c.actorThreshold !== undefined ? { actorPotentialThreshold: c.actorThreshold } : {}),
    ...(c.reactorThreshold !== undefined ? { reactorPotentialThreshold: c.reactorThreshold } : {}),
    steer: c.steer > 0 ? [{ value: c.steer, source: 'test' }] : [],
  };
}

describe('exact odds equal brute force over every roll (pools 0-4, modifier differences -5..5)', () => {
  it('uses both presets and every criticals and fullTie value, on four-die pools too', () => {
    const seen = new Set(configs.map((c) => `${c.options.criticals}/${c.options.fullTie}`));
    expect(seen.size).toBe(12);
    const onFour = new Set<number>();
    for (let d = -5; d <= 5; d++) for (const i of configsFor(4, 4, d)) onFour.add(i);
    expect(onFour.size).toBe(configs.length);
  });
  for (let d = -5; d <= 5; d++) {
    it(`modifier difference ${d}`, () => {
      for (let n = 0; n <= 4; n++) {
        for (let m = 0; m <= 4; m++) {
          const use = configsFor(n, m, d).map((i) => configs[i]!);
          const ctxs = use.map(context);
          const tallies = use.map(() => new Tally());
          for (const a of allRolls(n)) {
            for (const r of allRolls(m)) {
              const raw = compareDice(a.dice, d + 2, r.dice, 2);
              const w = a.count * r.count;
              for (let i = 0; i < ctxs.length; i++) tallies[i]!.add(judge(raw, ctxs[i]!), w);
            }
          }
          use.forEach((c, i) => {
            // Empty pools exist only when the table's minimum pool is 0.
            const options = n === 0 || m === 0 ? { ...c.options, minimumPool: 0 as const } : c.options;
            const odds = challengeOdds(
              {
                actor: { dice: n, modifier: d + 2, ...(c.actorThreshold !== undefined ? { potentialThreshold: c.actorThreshold } : {}) },
                reactor: { dice: m, modifier: 2, ...(c.reactorThreshold !== undefined ? { potentialThreshold: c.reactorThreshold } : {}) },
                steer: c.steer,
              },
              options,
            );
            expectSameOdds(odds, tallies[i]!.odds(), `${c.label}: ${n} dice +${d + 2} against ${m} dice +2`);
            if (odds.method !== 'exact') throw new Error('expected exact odds');
          });
        }
      }
    });
  }
});
