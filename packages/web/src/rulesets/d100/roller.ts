import { AFFINITIES, d100Ruleset, ELEMENTS, PRESET_NAMES, questionOdds, resolveOptions, type Affinity, type AttackOdds, type D100Options, type Element } from '@personae/d100';
import { percent } from '../../lib/format';
import type { RollerSpec } from '../roller';
import { D100_CHART_VIEWS, d100ChartGroups } from './model';

/**
 * The d100 roller without a table (d100-combat-rules.txt "How Attacks Work"): one attack, asked as
 * `personae d100 odds` asks it, with its exact odds (`questionOdds`), a Fate Point reroll of a miss
 * among them.
 */
export const d100Roller: RollerSpec<AttackOdds> = {
  ruleset: 'd100',
  title: 'd100 attack odds',
  presets: PRESET_NAMES,
  options: d100Ruleset.options,
  resolve: (preset, overrides) => resolveOptions(preset, overrides),
  fields: [
    { key: 'attack', label: 'Attack target', kind: 'int', min: -200, max: 300, default: 45 },
    { key: 'evasion', label: 'Evasion target (empty: no evasion)', kind: 'int', min: -200, max: 300, default: 30, nullable: true },
    { key: 'damage', label: 'Damage (Strength Bonus included)', kind: 'int', min: 0, max: 100, default: 8 },
    { key: 'toughness', label: "Defender's Toughness", kind: 'int', min: 0, max: 100, default: 40 },
    { key: 'armour', label: 'Armour on every location', kind: 'int', min: 0, max: 50, default: 2 },
    { key: 'element', label: 'Element', kind: 'choice', choices: ELEMENTS, default: 'melee' },
    { key: 'affinity', label: "Defender's affinity", kind: 'choice', choices: AFFINITIES, default: 'normal' },
    { key: 'advantages', label: 'Advantages', kind: 'int', min: 0, max: 20, default: 0 },
    { key: 'disadvantages', label: 'Disadvantages', kind: 'int', min: 0, max: 20, default: 0 },
    { key: 'fate', label: 'A Fate Point rerolls a miss', kind: 'flag', default: false },
  ],
  odds: (f, options) =>
    questionOdds(
      {
        attack: f.attack as number,
        evasion: f.evasion as number | null,
        damage: f.damage as number,
        toughness: f.toughness as number,
        armour: f.armour as number,
        element: f.element as Element,
        affinity: f.affinity as Affinity,
        advantages: f.advantages as number,
        disadvantages: f.disadvantages as number,
        fateReroll: f.fate === true,
      },
      options as D100Options,
    ),
  figures: (o) =>
    `hit ${percent(o.hit)} · Critical ${percent(o.critical)} · Fumble ${percent(o.fumble)} · Stagger ${percent(o.stagger)} · takes the target out ${percent(o.out)} · wounds: ${Object.entries(o.wounds)
      .map(([n, p]) => `${n}: ${percent(p)}`)
      .join(', ')}`,
  views: D100_CHART_VIEWS,
  groups: d100ChartGroups as RollerSpec<AttackOdds>['groups'],
  empty: 'No rule set gives this attack a wound.',
};
