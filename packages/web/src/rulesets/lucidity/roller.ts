import { attackOdds, damageDistribution, lucidityInPlace, lucidityRuleset, PRESETS, resolveOptions, type AttackOdds, type LucidityOptions } from '@personae/lucidity';
import { percent } from '../../lib/format';
import type { RollerSpec } from '../roller';
import { LUCIDITY_CHART_VIEWS, lucidityChartGroups } from './model';

/**
 * The Lucidity roller without a table ("How Combat Works", "Buffs and Breaks"): one attack, asked as
 * `personae lucidity odds attack` asks it, or made with a Lucidity roll in place of the d20 ("Lucidity"),
 * with its exact odds (`attackOdds`).
 */
export const lucidityRoller: RollerSpec<AttackOdds> = {
  ruleset: 'lucidity',
  title: 'Lucidity attack odds',
  presets: PRESETS,
  options: lucidityRuleset.options,
  resolve: (preset, overrides) => resolveOptions(preset, overrides),
  fields: [
    { key: 'modifier', label: 'Attack modifier', kind: 'int', min: -20, max: 40, default: 4 },
    { key: 'defense', label: 'Defense', kind: 'int', min: 0, max: 60, default: 13 },
    {
      key: 'damage',
      label: 'Damage (e.g. 1d8+2)',
      kind: 'text',
      default: '1d6+1',
      check: (text) => {
        try {
          damageDistribution(text);
          return null;
        } catch (e) {
          return e instanceof Error ? e.message.replace(/^damage: /, '') : String(e);
        }
      },
    },
    { key: 'protection', label: 'Protection', kind: 'int', min: 0, max: 100, default: 3 },
    { key: 'buffs', label: 'Buffs (d6)', kind: 'int', min: 0, max: 20, default: 0 },
    { key: 'breaks', label: 'Breaks (d6)', kind: 'int', min: 0, max: 20, default: 0 },
    { key: 'lucidity', label: 'A Lucidity roll in place of the d20', kind: 'flag', default: false },
    { key: 'current', label: 'Current Lucidity', kind: 'int', min: 0, max: 100, default: 10 },
    { key: 'attribute', label: "The weapon's attribute", kind: 'int', min: -3, max: 18, default: 0 },
  ],
  odds: (f, options) => {
    const opts = options as LucidityOptions;
    const modifier = f.modifier as number;
    return attackOdds(
      {
        modifier,
        defense: f.defense as number,
        damage: f.damage as string,
        protection: f.protection as number,
        buffs: f.buffs as number,
        breaks: f.breaks as number,
        ...(f.lucidity === true ? { lucidity: lucidityInPlace({ current: f.current as number, attribute: f.attribute as number, modifier }, opts) } : {}),
      },
      opts,
    );
  },
  figures: (o) => `hit ${percent(o.hit)} · any damage ${percent(o.damaging)} · expected damage taken ${o.expectedDamage.toFixed(2)} · ${o.damageTaken.map((r) => `${r.damage}: ${percent(r.chance)}`).join(', ')}`,
  views: LUCIDITY_CHART_VIEWS,
  groups: lucidityChartGroups as RollerSpec<AttackOdds>['groups'],
  empty: 'No rule set lets this attack do damage.',
};
