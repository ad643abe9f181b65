import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { d100MatchupOdds, d100Pair, simulateD100Duels } from '../src';

const sheet = (name: string): unknown => parse(readFileSync(new URL(`../../../examples/d100/${name}`, import.meta.url), 'utf8'));

describe('d100 matchups: the odds worked out once per sheets and rules', () => {
  const pair = d100Pair(sheet('evoker-makoto.yaml'), sheet('evoker-yukari.yaml'));

  it('asked again, the odds are those of the first answer; a caller changing its lists changes nothing', () => {
    const first = d100MatchupOdds(pair, 'seed', {});
    const snapshot = JSON.stringify(first);
    first.attacks.length = 0;
    first.refused.push({ attacker: 'x', weapon: 'y', defence: 'none', reason: 'z' });
    expect(JSON.stringify(d100MatchupOdds(pair, 'seed', {}))).toBe(snapshot);
  });

  it('other rules, other sheets: other odds', () => {
    const seed = JSON.stringify(d100MatchupOdds(pair, 'seed', {}).attacks.map((a) => a.odds));
    expect(JSON.stringify(d100MatchupOdds(pair, 'seed', { degrees: 'margin' }).attacks.map((a) => a.odds))).not.toBe(seed);
    expect(JSON.stringify(d100MatchupOdds(d100Pair(sheet('evoker-makoto.yaml'), sheet('shadow-harpy.yaml')), 'seed', {}).attacks.map((a) => a.odds))).not.toBe(seed);
  });

  it('duels played again with the same seed come out the same', () => {
    const settings = { duels: 20, seed: 7, maxRounds: 20 };
    const once = simulateD100Duels(pair, 'seed', {}, settings);
    expect(simulateD100Duels(pair, 'seed', {}, settings)).toEqual(once);
  });
});
