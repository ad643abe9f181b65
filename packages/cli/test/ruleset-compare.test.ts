import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './helpers';

// The design lab's comparison for the rulesets with exact odds beside Personae: each entry of
// `--compare` / `--compare-option` is exactly the single query under that rule set.

type Entry = Record<string, unknown> & { label: string };

async function compareEqualsSeparate(words: string[], compare: string[], singles: string[][]): Promise<Entry[]> {
  const out = (await cliJson(...words, ...compare, '--json')) as { compare: Entry[]; differences: Record<string, unknown>[] };
  expect(out.compare).toHaveLength(singles.length);
  for (const [i, extra] of singles.entries()) {
    const { label: _label, ...entry } = out.compare[i]!;
    expect(entry).toEqual(await cliJson(...words, ...extra, '--json'));
  }
  expect(out.differences).toHaveLength(singles.length - 1);
  return out.compare;
}

describe('personae lucidity odds --compare / --compare-option', () => {
  const attack = ['lucidity', 'odds', 'attack', '--modifier', '2', '--defense', '14', '--damage', '1d8+1', '--protection', '5', '--buffs', '1'];
  it('attack: each rule set equals a separate query under it, and the differences are their figures less the first', async () => {
    const entries = await compareEqualsSeparate(
      attack,
      ['--compare-option', 'protectionPipeline=double-deduction', '--compare-option', 'protectionEqualsDamage=zero'],
      [[], ['--option', 'protectionPipeline=double-deduction'], ['--option', 'protectionEqualsDamage=zero']],
    );
    expect(entries.map((e) => e.label)).toEqual(['standard', 'standard with protectionPipeline=double-deduction', 'standard with protectionEqualsDamage=zero']);
    const out = (await cliJson(...attack, '--compare-option', 'protectionPipeline=double-deduction', '--json')) as { differences: { expectedDamage: number; hit: number }[] };
    const a = (await cliJson(...attack, '--json')) as { expectedDamage: number };
    const b = (await cliJson(...attack, '--option', 'protectionPipeline=double-deduction', '--json')) as { expectedDamage: number };
    expect(out.differences[0]!.expectedDamage).toBeCloseTo(b.expectedDamage - a.expectedDamage, 10);
    expect(out.differences[0]!.hit).toBe(0);
  });
  it('roll: presets compared keep the table\'s own --option settings', async () => {
    await compareEqualsSeparate(['lucidity', 'odds', 'roll', '--modifier', '-1', '--target', '19', '--option', 'successOn=meet'], ['--compare', 'standard,as-written'], [[], ['--rules', 'as-written']]);
  });
  it('roll: criticalSuccess=none takes the natural 20 away: d20-1 against 25 goes from 1/20 to 0', async () => {
    const out = (await cliJson('lucidity', 'odds', 'roll', '--modifier', '-1', '--target', '25', '--compare-option', 'criticalSuccess=none', '--json')) as { compare: { chance: number }[] };
    expect(out.compare[0]!.chance).toBeCloseTo(1 / 20, 12);
    expect(out.compare[1]!.chance).toBe(0);
  });
  it('lucidity-roll under lucidityTarget=lucidity-only', async () => {
    await compareEqualsSeparate(['lucidity', 'odds', 'lucidity-roll', '--current', '9', '--attribute', '2'], ['--compare-option', 'lucidityTarget=lucidity-only'], [[], ['--option', 'lucidityTarget=lucidity-only']]);
  });
  it('--csv: the single attack as its damage table, the comparison as one row per rule set', async () => {
    const single = await cli(...attack, '--csv');
    expect(single.stdout.split('\n')[0]).toBe('damageTaken,chance');
    const compared = await cli(...attack, '--compare-option', 'criticalSuccess=none', '--csv');
    const rows = compared.stdout.trim().split('\n');
    expect(rows[0]).toBe('rules,hit,damaging,expectedDamage');
    expect(rows[2]!.startsWith('standard with criticalSuccess=none,')).toBe(true);
  });
  it('refuses an unknown option value naming it, and a lone rule set', async () => {
    const bad = await cli(...attack, '--compare-option', 'protectionPipeline=triple');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--compare-option "protectionPipeline=triple": option protectionPipeline takes single, double-deduction, raw-thresholds/);
    const lone = await cli(...attack, '--compare', 'standard');
    expect(lone.stderr).toMatch(/--compare needs at least two rule sets/);
  });
});

describe('personae d100 odds --compare / --compare-option', () => {
  const attack = ['d100', 'odds', '--attack', '55', '--evasion', '40', '--damage', '9', '--armour', '2'];
  it('each preset and option variant equals a separate query', async () => {
    await compareEqualsSeparate(attack, ['--compare', 'seed,ffg-margin,ffg-tens-plus-one'], [[], ['--preset', 'ffg-margin'], ['--preset', 'ffg-tens-plus-one']]);
    await compareEqualsSeparate(attack, ['--compare-option', 'degrees=margin'], [[], ['--option', 'degrees=margin']]);
  });
  it('--csv gives the wounds table, or one row per rule set', async () => {
    expect((await cli(...attack, '--csv')).stdout.split('\n')[0]).toBe('wounds,chance');
    expect((await cli(...attack, '--compare', 'seed,ffg-margin', '--csv')).stdout.split('\n')[0]).toBe('rules,hit,critical,fumble,stagger,out,expectedLight,expectedHeavy,expectedDeadly');
  });
  it('refuses an unknown preset naming the known ones', async () => {
    const r = await cli(...attack, '--compare', 'seed,house');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--compare: unknown rules preset "house"; known presets: seed, ffg-margin, ffg-tens-plus-one/);
  });
});
