import { RuleError, type OptionDescriptor } from '@personae/core';
import { seed } from './citation';

/**
 * Every point the seed leaves open, and every point where it contradicts itself, as a typed table
 * option. Contradictions (C1..C15 of the rule inventory) take values named after their readings.
 */
interface EnumDef<V extends string> {
  readonly kind: 'enum';
  readonly values: readonly V[];
  readonly default: V;
  readonly title: string;
  readonly description: string;
  readonly topic: string;
  readonly section: string;
}
interface IntDef {
  readonly kind: 'integer';
  readonly default: number;
  readonly min: number;
  readonly max: number;
  readonly title: string;
  readonly description: string;
  readonly topic: string;
  readonly section: string;
}
interface BoolDef {
  readonly kind: 'boolean';
  readonly default: boolean;
  readonly title: string;
  readonly description: string;
  readonly topic: string;
  readonly section: string;
}

const e = <const V extends string>(values: readonly V[], def: V, topic: string, section: string, title: string, description: string): EnumDef<V> => ({
  kind: 'enum',
  values,
  default: def,
  topic,
  section,
  title,
  description,
});
const int = (def: number, min: number, max: number, topic: string, section: string, title: string, description: string): IntDef => ({
  kind: 'integer',
  default: def,
  min,
  max,
  topic,
  section,
  title,
  description,
});
const bool = (def: boolean, topic: string, section: string, title: string, description: string): BoolDef => ({ kind: 'boolean', default: def, topic, section, title, description });

export const OPTION_DEFINITIONS = {
  // Rolls
  successOn: e(['exceed', 'meet'], 'exceed', 'Rolls', 'How Combat Works', 'Success comparison', 'Whether a d20 roll must exceed its target (the only comparison the seed states, for attacks) or only meet it.'),
  criticalSuccess: e(['natural-20', 'none'], 'natural-20', 'Rolls', 'Hitting 0 Health', 'Critical success', 'The seed speaks of a "guaranteed critical success" without defining one: a natural 20 succeeds whatever the target, or there are no criticals.'),
  critEffect: e(['none', 'max-damage', 'double-dice'], 'none', 'Rolls', 'Hitting 0 Health', 'Critical damage', 'What a critical success (a natural 20 under criticalSuccess=natural-20, the final turn\'s guaranteed one) does to an attack\'s damage: nothing more, every damage die at its highest, or twice the damage dice.'),
  buffBreakDice: e(
    ['cancel-then-highest', 'highest-buff-minus-highest-break'],
    'cancel-then-highest',
    'Rolls',
    'Buffs and Breaks',
    'Buffs against breaks',
    'cancel-then-highest: buffs and breaks cancel one for one, the d6s of the side left are rolled and the highest counts. highest-buff-minus-highest-break: every die is rolled and the highest buff die less the highest break die counts.',
  ),
  passiveValue: e(['ten-plus-attribute', 'opposed-roll'], 'ten-plus-attribute', 'Rolls', 'Action Options', 'Rolls against an attribute', 'A roll "against the target\'s AWA" (Charm/Deceive, Read a Person): the target number is 10 + that attribute, or the target rolls d20 + attribute.'),
  opposedTie: e(['defender', 'attacker', 'reroll'], 'defender', 'Rolls', 'Minor Exploits', 'Opposed tie', 'Who wins an opposed check when the totals are equal.'),
  // Lucidity
  lucidityAttribute: e(['modifier', 'score'], 'modifier', 'Lucidity', 'Lucidity', 'Attribute added to Lucidity', 'C3: the seed adds the "Attribute Score" while every formula uses modifiers (-3..+3).'),
  lucidityTarget: e(['lucidity-plus-attribute', 'lucidity-only'], 'lucidity-plus-attribute', 'Lucidity', 'Lucidity', 'Lucidity roll target', 'C4: the attribute is added to Lucidity, but the die is compared with "the current Lucidity": compare with Lucidity + attribute, or with Current Lucidity alone.'),
  lucidityBelowZero: e(['clamp', 'death'], 'clamp', 'Lucidity', 'Hitting 0 Health', 'Lucidity at 0', 'Current Lucidity never goes below 0 (clamp), or damage that would take it below 0 kills.'),
  lucidityOnAttack: e(['bare-hit', 'natural-20', 'not-allowed'], 'bare-hit', 'Lucidity', 'Lucidity', 'Lucidity roll for an attack', 'A successful Lucidity roll replacing an attack roll is a hit with Penetration 1 (bare-hit), counts as a natural 20, or attacks cannot be replaced.'),
  lunarLucidity: e(['two-total', 'stacked'], 'two-total', 'Lucidity', 'Regaining Lucidity', 'Lucidity from a Lunar Pause', 'C8: a long rest with a Lunar Pause gives 2 Lucidity in all (two-total), or Regaining Lucidity\'s 2, the Long Rest\'s 1 and the Lunar Pause\'s 1 add up (stacked, 4).'),
  finalTurnLucidity: e(['restore-at-final-turn', 'after-death'], 'restore-at-final-turn', 'Lucidity', 'Hitting 0 Health', 'Lucidity on the final turn', 'C11: at a Degree of Failure of 5+, Lucidity returns to its maximum before the final turn, or only after death (no effect on play).'),
  fatesGambleTargets: e(['sequential', 'simultaneous'], 'sequential', 'Lucidity', 'Creating Traits', "Fate's Gamble rolls", "Each success of Fate's Gamble lowers Lucidity before the second roll (sequential), or both rolls use the same target."),
  // Combat
  defenseBase: int(10, 0, 30, 'Combat', 'How Combat Works', 'Defense base', 'Defense = this + DEX + AWA (the seed says DEX and AWA impact Defense and gives no formula).'),
  protectionPipeline: e(
    ['single', 'double-deduction', 'raw-thresholds'],
    'single',
    'Combat',
    'How Combat Works',
    'Protection procedure',
    'C1: single: Penetration lowers Protection once, then 0 damage if that Protection is at least double the damage, else damage less Protection, at least 1. double-deduction: the difference Protection - Penetration comes off the damage, then the reduced Protection comes off again with the double and exceeds tests. raw-thresholds: the double and exceeds tests use the Protection before Penetration, the deduction the Protection after.',
  ),
  protectionEqualsDamage: e(['min-one', 'zero'], 'min-one', 'Combat', 'How Combat Works', 'Protection equal to damage', 'C2: when Protection (after Penetration) equals the damage, the subtraction leaves 0 but "exceeds" is false: the defender takes 1 (min-one) or 0 (zero).'),
  unarmedDamage: e(['1d4', '1', '1d2'], '1d4', 'Combat', 'Creating Traits', 'Unarmed damage', 'Damage of an unarmed strike without Brawler (Brawler makes it 1d8).'),
  exploitTrigger: e(['damage-dealt', 'hit'], 'damage-dealt', 'Exploits', 'Minor Exploits', 'When an exploit may follow', 'C6: an exploit needs at least 1 damage after Protection (damage-dealt), or any hit (hit).'),
  exploitAttacks: e(['melee', 'any'], 'melee', 'Exploits', 'Action Options', 'Attacks that allow exploits', 'C7: only melee attacks offer exploits, or every attack does.'),
  majorExploits: e(['pcs-only', 'everyone', 'not-available'], 'pcs-only', 'Exploits', 'Major Exploits', 'Major exploits', 'C5: the Exploits section lists only minor and rescue exploits, yet Major Exploits follows: player characters only, everyone, or not at all.'),
  rapidStrikesSpells: e(['excluded', 'included'], 'excluded', 'Combat', 'Creating Traits', 'Rapid Strikes and spells', 'C12: Rapid Strikes makes every attack cost 1 action; attack spells are excluded or included.'),
  halfMoveStacking: e(['once', 'stack'], 'once', 'Combat', 'Action Options', 'Halved moves', 'C14: moving carefully and standing from Prone halve the move once (15 ft) or each (7 ft).'),
  narrativeDamage: e(['target-resist', 'always-full'], 'target-resist', 'Combat', 'Narrative Combat', 'Narrative combat damage', 'C9: the opponent resists; full damage when it fails, half when it succeeds (target-resist), or always full damage.'),
  castDelayDamage: e(['single-instance', 'cumulative'], 'single-instance', 'Combat', 'Action Options', 'Damage that delays a spell', 'Whether 10 + CON damage must come in one hit or may add up while casting.'),
  roundSeconds: int(6, 1, 60, 'Combat', 'Creating Traits', 'Seconds per round', 'Length of a round, for "a minute" (Adrenaline Rush).'),
  // Health
  zeroHealthTrigger: e(['already-at-zero', 'reaching-zero'], 'already-at-zero', 'Health', 'Hitting 0 Health', 'End-of-round roll at 0 Health', 'C10: the end-of-round Lucidity (CON) roll follows damage taken while already at 0 Health, or also the damage that brought Health to 0.'),
  degreeOfFailure: e(['points', 'per-five'], 'points', 'Health', 'Hitting 0 Health', 'Degree of Failure', 'points: the d20 less the target; per-five: one degree per 5 points, rounded up.'),
  healthRecalc: e(['formula', 'incremental'], 'formula', 'Advancement', 'Advancement', 'Recalculating Health and Energy', 'C15: Health and Energy use the current CON and WIL for every level (formula: L x CON + 4L + 2), or each level keeps the value it added (incremental).'),
  levelUpCurrent: e(['raise-with-max', 'keep'], 'raise-with-max', 'Advancement', 'Advancement', 'Current values on a level-up', 'Current Lucidity, Health and Energy rise by as much as their maxima, or stay as they are.'),
  levelsAbove6: e(['none', 'extrapolate'], 'none', 'Advancement', 'Advancement', 'Levels above 6', 'The XP table stops at level 6: no higher level, or steps growing by 10 (210, 280, 360, ...).'),
  // Characters
  skillPoints: int(8, 0, 100, 'Characters', 'Creating Skills', 'Skill points', 'Points a new character spends on skill ranks, one point a rank.'),
  traitCount: int(3, 0, 32, 'Characters', 'Creating Traits', 'Traits', 'How many traits a character has.'),
  customTraits: bool(true, 'Characters', 'Creating Traits', 'Custom traits', 'Whether a sheet may declare a trait outside the seed\'s list (marked custom, with its effect written out, on the GM\'s approval).'),
  educatedScope: e(['rankable-skills', 'all-unranked'], 'rankable-skills', 'Characters', 'Creating Traits', 'Educated', 'C13: Educated adds 1 to skills that can have ranks but have none, or also to Armor and Language skills.'),
} as const;

export type OptionDefinitions = typeof OPTION_DEFINITIONS;
export type OptionName = keyof OptionDefinitions;
type ValueOf<D> = D extends EnumDef<infer V> ? V : D extends IntDef ? number : D extends BoolDef ? boolean : never;
export type LucidityOptions = { readonly [K in OptionName]: ValueOf<OptionDefinitions[K]> };

export const PRESETS = ['standard', 'as-written'] as const;
export type Preset = (typeof PRESETS)[number];

/** What each preset sets differently from the option defaults. */
const PRESET_OVERRIDES: Record<Preset, Partial<LucidityOptions>> = {
  // The inventory's defaults: one reading per contradiction, chosen so the procedures stay consistent.
  standard: {},
  // The text read word for word wherever it contradicts itself.
  'as-written': { protectionPipeline: 'double-deduction', lunarLucidity: 'stacked', majorExploits: 'everyone', exploitTrigger: 'hit', exploitAttacks: 'melee', healthRecalc: 'incremental' },
};

export const OPTION_NAMES = Object.keys(OPTION_DEFINITIONS) as OptionName[];

export function defaultOptions(): LucidityOptions {
  const out: Record<string, unknown> = {};
  for (const name of OPTION_NAMES) out[name] = OPTION_DEFINITIONS[name].default;
  return out as LucidityOptions;
}

function optionError(message: string, field: string): RuleError {
  return new RuleError('lucidity.option', message, field);
}

/** Reads one option value from text or JSON, refusing anything the option does not take. */
export function parseOptionValue(name: string, raw: unknown): LucidityOptions[OptionName] {
  if (!Object.prototype.hasOwnProperty.call(OPTION_DEFINITIONS, name)) {
    throw optionError(`unknown option "${name}"; options are ${OPTION_NAMES.join(', ')}`, `options.${name}`);
  }
  const def = OPTION_DEFINITIONS[name as OptionName];
  if (def.kind === 'enum') {
    if (typeof raw !== 'string' || !(def.values as readonly string[]).includes(raw)) {
      throw optionError(`option ${name} takes ${def.values.join(', ')}, not ${JSON.stringify(raw)}`, `options.${name}`);
    }
    return raw as LucidityOptions[OptionName];
  }
  if (def.kind === 'integer') {
    const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < def.min || n > def.max) {
      throw optionError(`option ${name} takes a whole number from ${def.min} to ${def.max}, not ${JSON.stringify(raw)}`, `options.${name}`);
    }
    return n;
  }
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw optionError(`option ${name} takes true or false, not ${JSON.stringify(raw)}`, `options.${name}`);
}

/** The options in force for a preset (default "standard") with overrides; refuses unknown names and values. */
export function resolveOptions(preset: string = 'standard', overrides: Readonly<Record<string, unknown>> = {}): LucidityOptions {
  if (!(PRESETS as readonly string[]).includes(preset)) throw optionError(`unknown preset "${preset}"; presets are ${PRESETS.join(', ')}`, 'preset');
  const out: Record<string, unknown> = { ...defaultOptions(), ...PRESET_OVERRIDES[preset as Preset] };
  for (const [name, value] of Object.entries(overrides)) out[name] = parseOptionValue(name, value);
  return out as LucidityOptions;
}

/** Reads NAME=VALUE pairs (the CLI's --option) into overrides. */
export function parseOptionPairs(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const i = pair.indexOf('=');
    if (i <= 0) throw optionError(`--option takes NAME=VALUE, not "${pair}"`, 'options');
    const name = pair.slice(0, i).trim();
    out[name] = parseOptionValue(name, pair.slice(i + 1).trim());
  }
  return out;
}

/** The options as core's descriptors, for hosts and generated docs. */
export function optionDescriptors(): OptionDescriptor[] {
  return OPTION_NAMES.map((name) => {
    const def = OPTION_DEFINITIONS[name];
    const base = { name, title: def.title, description: def.description, topic: def.topic, source: seed(def.section), default: def.default };
    return def.kind === 'enum' ? { ...base, kind: 'enum' as const, values: def.values } : { ...base, kind: def.kind };
  });
}

export function presetOverrides(preset: Preset): Partial<LucidityOptions> {
  return PRESET_OVERRIDES[preset];
}
