import { modifier, type Modifier } from '@personae/core';
import type { Attribute, Attributes } from './attributes';

/**
 * The seed's 32 traits (lucidity-primary-character.txt, "Creating Traits"), as data: what kind of
 * rule each one is and, in the project's words, what it does. The engine applies those whose effect
 * is a number; the rest are recorded and offered to the GM.
 */
export type TraitKind = 'derived' | 'attack' | 'defense' | 'roll' | 'rest' | 'action' | 'exploit' | 'zero-health' | 'narrative' | 'equipment' | 'aura';

export interface TraitDefinition {
  readonly name: TraitName;
  readonly kind: TraitKind;
  readonly summary: string;
  /** True when the engine applies the effect itself; false when it is a GM ruling or a record. */
  readonly automated: boolean;
}

export const TRAIT_NAMES = [
  'Fast Healer',
  'Impaler',
  'Breakthrough',
  'Hunk',
  'Wingman',
  'Defender',
  'Precognition',
  'Inspirator',
  'Backstabber',
  'Shieldbreaker',
  'Rescuer',
  'Educated',
  'Exploitative',
  'Guts',
  'Willful',
  'Resourceful',
  'Brawler',
  '1 on 1',
  'Debator',
  'Adrenaline Rush',
  'Helpful/Harmful',
  'Rapid Strikes',
  'Healthy Living',
  'Rumor-monger',
  'Improvised Fighter',
  'Businessman',
  'Mental Clarity',
  'Natural Immunity',
  'Fellowship',
  'Organized',
  'Shuffle',
  "Fate's Gamble",
] as const;
export type TraitName = (typeof TRAIT_NAMES)[number];

const t = (name: TraitName, kind: TraitKind, automated: boolean, summary: string): TraitDefinition => ({ name, kind, automated, summary });

export const TRAITS: readonly TraitDefinition[] = [
  t('Fast Healer', 'rest', true, 'A long rest heals one more d4.'),
  t('Impaler', 'attack', true, 'STR attacks add STR to Penetration.'),
  t('Breakthrough', 'attack', true, 'DEX attacks add DEX to damage.'),
  t('Hunk', 'derived', true, 'Item slots + Level + CON.'),
  t('Wingman', 'roll', true, 'An ally gets a buff on non-attack rolls with one attribute until it fails a roll; once per ally until a rest.'),
  t('Defender', 'aura', true, "Adjacent allies share the Protection of this character's shields and weapons."),
  t('Precognition', 'derived', true, 'Defense uses KNO in place of DEX.'),
  t('Inspirator', 'roll', true, 'Once per rest (or inspiring moment) add CHA to a roll.'),
  t('Backstabber', 'attack', true, 'Attacks from a flank deal 4 more damage.'),
  t('Shieldbreaker', 'attack', true, 'Attacks ignore Protection from shields.'),
  t('Rescuer', 'exploit', true, 'A successful rescue exploit costs no Lucidity.'),
  t('Educated', 'roll', true, '+1 on skill rolls without a rank.'),
  t('Exploitative', 'exploit', true, 'When an enemy fails an exploit against this character, it may try the same exploit back.'),
  t('Guts', 'equipment', true, 'Massive weapons in two hands, two-handed in one, larger weapons dual-wielded.'),
  t('Willful', 'derived', true, 'Max Health counts Level x WIL in place of Level x CON.'),
  t('Resourceful', 'equipment', false, 'A non-magic consumable may be used twice (GM).'),
  t('Brawler', 'attack', true, 'Unarmed strikes deal 1d8, ignore Protection and cost 1 action.'),
  t('1 on 1', 'attack', true, '+1 damage, Penetration and Protection one against one.'),
  t('Debator', 'roll', true, 'KNO may stand in for CHA in discussions and arguments.'),
  t('Adrenaline Rush', 'defense', true, '10 or more damage in one turn, or a failed roll against fear: +6 Protection for a minute or until the fear ends.'),
  t('Helpful/Harmful', 'action', true, 'Help/Interfere gives 2 buffs or 2 breaks.'),
  t('Rapid Strikes', 'action', true, 'Every attack costs 1 action.'),
  t('Healthy Living', 'derived', true, 'This character and its companions have 5 more Max Health.'),
  t('Rumor-monger', 'roll', true, 'A buff on actions gathering information.'),
  t('Improvised Fighter', 'attack', true, 'Improvised weapons: +1 Penetration, +2 damage.'),
  t('Businessman', 'narrative', false, 'No business turns this character away while it carries 100 gold.'),
  t('Mental Clarity', 'roll', true, 'No breaks on KNO, AWA, WIL or CHA skill rolls.'),
  t('Natural Immunity', 'roll', true, 'A buff on rolls against disease.'),
  t('Fellowship', 'aura', true, 'Every member of the group has a buff on WIL rolls.'),
  t('Organized', 'derived', true, '2 more designated items.'),
  t('Shuffle', 'action', true, 'Once per turn, move 5 feet as a free action.'),
  t("Fate's Gamble", 'zero-health', true, 'At 0 Health, two Lucidity rolls; both succeed: 1 Health back.'),
];

export function isTraitName(x: unknown): x is TraitName {
  return typeof x === 'string' && (TRAIT_NAMES as readonly string[]).includes(x);
}

export function traitDefinition(name: TraitName): TraitDefinition {
  return TRAITS.find((d) => d.name === name)!;
}

const SOURCE = 'trait';
const traitMod = (slug: string, trait: TraitName | `${TraitName} (${string})`, value: number): Modifier => modifier(slug, trait, value, SOURCE);

/** What an attack is, for the traits that look at it. */
export interface AttackContext {
  /** The attribute the attack uses: STR (melee, "STR attacks") or DEX (ranged, "DEX attacks"). */
  readonly attribute: Attribute;
  readonly flanking?: boolean;
  readonly oneOnOne?: boolean;
  readonly improvised?: boolean;
  readonly unarmed?: boolean;
}

export interface AttackTraitEffects {
  readonly penetration: Modifier[];
  readonly damage: Modifier[];
  readonly ignoreShieldProtection: boolean;
  readonly ignoreProtection: boolean;
}

/** The attacker's traits that change Penetration and damage ("Creating Traits"). */
export function attackTraitEffects(traits: readonly string[], attrs: Attributes, ctx: AttackContext): AttackTraitEffects {
  const has = (n: TraitName) => traits.includes(n);
  const penetration: Modifier[] = [];
  const damage: Modifier[] = [];
  if (has('Impaler') && ctx.attribute === 'STR') penetration.push(traitMod('penetration', 'Impaler', attrs.STR));
  if (has('Breakthrough') && ctx.attribute === 'DEX') damage.push(traitMod('damage', 'Breakthrough', attrs.DEX));
  if (has('Backstabber') && ctx.flanking) damage.push(traitMod('damage', 'Backstabber', 4));
  if (has('Improvised Fighter') && ctx.improvised) {
    penetration.push(traitMod('penetration', 'Improvised Fighter', 1));
    damage.push(traitMod('damage', 'Improvised Fighter', 2));
  }
  if (has('1 on 1') && ctx.oneOnOne) {
    penetration.push(traitMod('penetration', '1 on 1', 1));
    damage.push(traitMod('damage', '1 on 1', 1));
  }
  return { penetration, damage, ignoreShieldProtection: has('Shieldbreaker'), ignoreProtection: has('Brawler') && ctx.unarmed === true };
}

/** The defender's Protection parts from its traits ("Creating Traits": 1 on 1, Adrenaline Rush). */
export function defenseTraitProtection(traits: readonly string[], ctx: { oneOnOne?: boolean; adrenaline?: boolean }): Modifier[] {
  const out: Modifier[] = [];
  if (traits.includes('1 on 1') && ctx.oneOnOne) out.push(traitMod('protection', '1 on 1', 1));
  if (traits.includes('Adrenaline Rush') && ctx.adrenaline) out.push(traitMod('protection', 'Adrenaline Rush', 6));
  return out;
}

/** Actions an attack costs ("Action Options"; Rapid Strikes, Brawler, dual-wielding). */
export function attackCost(kind: 'melee' | 'ranged' | 'unarmed' | 'spell', traits: readonly string[], ctx: { dualWielding?: boolean; rapidStrikesSpells?: 'excluded' | 'included' } = {}): number {
  if (kind === 'spell') return traits.includes('Rapid Strikes') && ctx.rapidStrikesSpells === 'included' ? 1 : 2;
  if (traits.includes('Rapid Strikes')) return 1;
  if (kind === 'ranged') return 1;
  if (kind === 'unarmed' && traits.includes('Brawler')) return 1;
  return ctx.dualWielding ? 1 : 2;
}

/** Armor and Language skills have no ranks ("Creating Skills"). */
export function isUnrankedSkill(skill: string): boolean {
  return /^(armor|armour|language)\b/i.test(skill);
}

/** Educated: +1 on a skill roll without a rank; Armor and Language skills only under educatedScope=all-unranked (C13). */
export function educatedBonus(traits: readonly string[], skill: string, rank: number, opts: Pick<import('./options').LucidityOptions, 'educatedScope'>): number {
  if (!traits.includes('Educated') || rank > 0) return 0;
  if (isUnrankedSkill(skill) && opts.educatedScope === 'rankable-skills') return 0;
  return 1;
}

/** What a roll is about, for the traits that look at it (Rumor-monger, Natural Immunity, Debator, Adrenaline Rush). */
export const ROLL_PURPOSES = ['information', 'disease', 'poison', 'fear', 'argument', 'other'] as const;
export type RollPurpose = (typeof ROLL_PURPOSES)[number];

/** Attributes whose skill rolls Mental Clarity keeps free of breaks. */
const MENTAL_ATTRIBUTES: readonly Attribute[] = ['KNO', 'AWA', 'WIL', 'CHA'];

/** A roll as the roll-changing traits see it. */
export interface RollTraitContext {
  /** The attribute the roll uses. */
  readonly attribute: Attribute;
  /** The skill the roll uses, if any, and the roller's rank in it (0 when it has none). */
  readonly skill?: string | undefined;
  readonly rank?: number;
  readonly purpose?: RollPurpose;
  /** Inspirator is used on this roll: the roller's CHA. */
  readonly inspireCha?: number | undefined;
  /** The attribute an ally's Wingman hyped for this roller, if any. */
  readonly wingman?: Attribute | null;
  /** Someone else in the roller's group has Fellowship (the roller's own counts anyway). */
  readonly groupFellowship?: boolean;
  /** The roll is an attack (Wingman covers only non-attack rolls). */
  readonly attack?: boolean;
}

export interface RollTraitEffects {
  /** Bonuses added to the d20 (Educated, Inspirator). */
  readonly modifiers: Modifier[];
  /** One buff per trait that grants one (Wingman, Rumor-monger, Natural Immunity, Fellowship), each counted with the others before cancelling (inventory U49). */
  readonly buffs: TraitName[];
  /** Mental Clarity: the roll has no breaks at all. */
  readonly noBreaks: boolean;
}

/**
 * The traits that change an ordinary roll ("Creating Traits"): Educated (+1 without a rank), Inspirator
 * (+CHA), Wingman, Rumor-monger, Natural Immunity and Fellowship (a buff each), Mental Clarity (no
 * breaks on KNO, AWA, WIL and CHA skill rolls). Debator changes the attribute, so the caller picks it.
 */
export function rollTraitEffects(traits: readonly string[], ctx: RollTraitContext, opts: Pick<import('./options').LucidityOptions, 'educatedScope'>): RollTraitEffects {
  const has = (n: TraitName) => traits.includes(n);
  const modifiers: Modifier[] = [];
  if (ctx.skill !== undefined) {
    const educated = educatedBonus(traits, ctx.skill, ctx.rank ?? 0, opts);
    if (educated) modifiers.push(traitMod('trait', 'Educated', educated));
  }
  if (ctx.inspireCha !== undefined && has('Inspirator')) modifiers.push(traitMod('trait', 'Inspirator (CHA)', ctx.inspireCha));
  const buffs: TraitName[] = [];
  if (!ctx.attack && ctx.wingman === ctx.attribute) buffs.push('Wingman');
  if (ctx.purpose === 'information' && has('Rumor-monger')) buffs.push('Rumor-monger');
  if (ctx.purpose === 'disease' && has('Natural Immunity')) buffs.push('Natural Immunity');
  if (ctx.attribute === 'WIL' && (has('Fellowship') || ctx.groupFellowship)) buffs.push('Fellowship');
  const noBreaks = has('Mental Clarity') && ctx.skill !== undefined && MENTAL_ATTRIBUTES.includes(ctx.attribute);
  return { modifiers, buffs, noBreaks };
}
