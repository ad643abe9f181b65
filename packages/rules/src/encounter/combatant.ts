import { SEAT_MARK } from '@personae/core';
import { z } from 'zod';
import { ATTRIBUTE_LABELS, DEFENSE_SKILLS } from '../character/derive';
import { ATTRIBUTES, AttributeNameSchema, type AttributeName } from '../character/schema';
import { AbilityEffectSchema, type AbilityEffect } from '../effects';
import type { TableOptions } from '../options';

/**
 * What the encounter engine needs to know about one character: a small, self-contained definition,
 * written inline in a scenario or made from a character sheet by `combatantFromSheet`.
 */

/** The six attributes and their schema, as the character sheet defines them. */
export const ATTRIBUTE_NAMES = ATTRIBUTES;
export type AttributeKey = AttributeName;
export const AttributeKeySchema = AttributeNameSchema;

/**
 * A character's id: letters, digits, "-" and "_". One a player's character got at a table is in
 * their seat's space, the participant's id and the character's joined by the seat mark (core
 * `newCharacterId`).
 */
const idPart = '[A-Za-z0-9][A-Za-z0-9_-]*';
const id = z
  .string()
  .regex(new RegExp(`^${idPart}(${SEAT_MARK}${idPart})?$`), `an id is letters, digits, "-" and "_", starting with a letter or digit (a player's character at a table: its seat's id, "${SEAT_MARK}", then such an id)`);
const name = z.string().trim().min(1);
const whole = z.number().int().min(0);

export const CombatantSkillSchema = z.strictObject({
  name,
  dice: z.number().int().min(1).max(30),
  attribute: AttributeKeySchema,
  /** The weapon (in `weapons`) this skill attacks and parries with. */
  weapon: name.optional(),
  /** The shield (in `shields`) this skill blocks with. */
  shield: name.optional(),
});
export type CombatantSkill = z.infer<typeof CombatantSkillSchema>;

/** personae-core-2011.txt "Weapons": size, hand-to-hand or ranged, and group. */
export const WeaponSchema = z.strictObject({
  name,
  size: z.enum(['small', 'one-handed', 'two-handed']),
  range: z.enum(['melee', 'ranged']).default('melee'),
  group: z.string().min(1).default('blades'),
  /** Hits a successful attack inflicts before abilities and criticals; at least one. */
  hits: z.number().int().min(1).default(1),
});
export type Weapon = z.infer<typeof WeaponSchema>;

export const ShieldSchema = z.strictObject({ name, weight: z.enum(['light', 'heavy']) });
export type Shield = z.infer<typeof ShieldSchema>;

/**
 * What a special ability lets its owner do in an encounter beyond its challenge effect:
 * dodge or block supernatural attacks (personae-core-2011.txt "Power Combat"), or parry and block
 * without declaring an action first (personae-core-2011.txt "Passive vs. Active Defense").
 */
export const ABILITY_ALLOWANCES = ['dodge-powers', 'block-powers', 'autonomic-defense', 'parry-any-weight'] as const;

export const CombatantAbilitySchema = z.strictObject({
  name,
  /** Quality (Q): always in effect, besides the one special ability a turn (personae-core-2011.txt "Special Ability Identifiers"). */
  quality: z.boolean().default(false),
  effect: AbilityEffectSchema.default({ type: 'described' }),
  allows: z.array(z.enum(ABILITY_ALLOWANCES)).default([]),
  /** A Conditional (C) limit on uses: so many times per encounter, scene, day or session. */
  limit: z.strictObject({ times: z.number().int().min(1), per: z.enum(['encounter', 'scene', 'day', 'session']) }).optional(),
  description: z.string().optional(),
});
export type CombatantAbility = z.infer<typeof CombatantAbilitySchema>;

/** personae-core-2011.txt "Duration / Duration Identifiers". */
export const DURATIONS = ['instant', 'maintain', 'independent', 'special'] as const;
export type Duration = (typeof DURATIONS)[number];

export const CombatantPowerSchema = z.strictObject({
  name,
  /** The supernatural skill rolled to use it. */
  skill: name.default('Magic'),
  duration: z.enum(DURATIONS).default('instant'),
  /** harm: a Power Challenge that inflicts hits; heal: removes hits or rolls back statuses; effect: anything else. */
  kind: z.enum(['harm', 'heal', 'effect']).default('effect'),
  /** Hits a successful harmful power inflicts (personae-core-2011.txt "Power Combat": by the power's description). */
  hits: whole.default(1),
  /** How many opponents it may affect. */
  targets: z.number().int().min(1).default(1),
  /** A healing power: hits removed, or statuses rolled back. */
  heals: z.strictObject({ hits: whole.default(0), statuses: whole.default(0) }).optional(),
  /** What the power grants its targets while it lasts, in the terms of the challenge engine. */
  grants: AbilityEffectSchema.optional(),
  /** Whether a resistor must answer it (a Power Challenge); helpful powers on willing targets need not. */
  challenge: z.boolean().optional(),
  /** Whether the power can be used as an active defense (personae-core-2011.txt "Passive vs. Active Defense"). */
  activeDefense: z.boolean().default(false),
  description: z.string().optional(),
}).refine((p) => p.kind !== 'harm' || p.duration === 'instant', {
  message: 'a power that inflicts hits is a supernatural attack, and those are always Instant (personae-core-2011.txt "Duration / Duration Identifiers")',
  path: ['duration'],
});
export type CombatantPower = z.infer<typeof CombatantPowerSchema>;

/** personae-core-2011.txt "Expertise": once per session, one more die (upgrades: more uses or dice). */
export const ExpertiseSchema = z.strictObject({
  name,
  dice: z.number().int().min(1).default(1),
  uses: z.number().int().min(1).default(1),
});
export type Expertise = z.infer<typeof ExpertiseSchema>;

/**
 * An obstacle or hazard played as an identity (personae-core-2011.txt "Obstacles": how a static
 * obstacle or a hazard plays out is for the group to decide): a locked door, a wall, a thunderstorm.
 * Its first skill is its pool; it answers every challenge with it (unless the command names another of
 * its skills) and may issue challenges too, whenever the GM has it act: it takes no turn in the action
 * order, spends no action and banks no criticals. Where the group gives it health (option
 * obstacleHealth = hits), `health` hits overcome it; otherwise it sustains none.
 */
export const ObstacleTraitsSchema = z.strictObject({
  kind: z.enum(['obstacle', 'hazard']).default('obstacle'),
  /** Hits that overcome it, under option obstacleHealth = hits. */
  health: z.number().int().min(1).max(100).optional(),
  /** Hidden from players like a hidden GM character: they see its name and condition, not its pool. */
  hidden: z.boolean().default(false),
});
export type ObstacleTraits = z.infer<typeof ObstacleTraitsSchema>;

export const COMBATANT_ROLES = ['main', 'companion', 'ally', 'adversary'] as const;
export type CombatantRole = (typeof COMBATANT_ROLES)[number];
/** personae-core-2011.txt "Adversaries": minion, minor, major. */
export const COMBATANT_TIERS = ['minion', 'minor', 'major'] as const;
export type CombatantTier = (typeof COMBATANT_TIERS)[number];

export const CombatantSchema = z.strictObject({
  id,
  name,
  /** Who commands the character: "gm" or a player's id. Defaults to "gm" for allies and adversaries, the character's id otherwise. */
  controller: z.string().min(1).optional(),
  role: z.enum(COMBATANT_ROLES).default('main'),
  tier: z.enum(COMBATANT_TIERS).default('major'),
  /** Seat at the table, for the seating action order; by default the order the characters are listed in. */
  seat: z.number().int().optional(),
  attributes: z
    .strictObject({
      competence: whole.default(0),
      prowess: whole.default(0),
      cunning: whole.default(0),
      power: whole.default(0),
      knowledge: whole.default(0),
      stature: whole.default(0),
    })
    .default({ competence: 0, prowess: 0, cunning: 0, power: 0, knowledge: 0, stature: 0 }),
  /** Potential; by default from the attribute sum (option `potential`). */
  potential: z.number().int().min(1).optional(),
  /** Hits before Injured; by default 1 + Stature + abilities that add hits. */
  hitsBeforeInjured: z.number().int().min(1).optional(),
  skills: z.array(CombatantSkillSchema).default([]),
  weapons: z.array(WeaponSchema).default([]),
  shields: z.array(ShieldSchema).default([]),
  specialAbilities: z.array(CombatantAbilitySchema).default([]),
  powers: z.array(CombatantPowerSchema).default([]),
  expertise: z.array(ExpertiseSchema).default([]),
  /** The skill rolled for the Initiative action order, when the table uses one. */
  initiativeSkill: name.default('Initiative'),
  /** Criticals banked before the encounter. */
  criticals: whole.default(0),
  /** Hits of injury carried in from earlier play. */
  hits: whole.default(0),
  /** Present when this is an obstacle or hazard rather than a character. */
  obstacle: ObstacleTraitsSchema.optional(),
});
export type Combatant = z.infer<typeof CombatantSchema>;
export type CombatantInput = z.input<typeof CombatantSchema>;

/** Block, Dodge and Resist, unlocked for everyone at two dice (personae-core-2011.txt "Defense"). */
export const BASIC_DEFENSES: readonly CombatantSkill[] = DEFENSE_SKILLS.map(({ name, attribute, dice }) => ({ name, attribute, dice }));

export const ATTRIBUTE_LABEL = ATTRIBUTE_LABELS;

export function same(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export function controllerOf(c: Combatant): string {
  return c.controller ?? (c.role === 'ally' || c.role === 'adversary' || c.obstacle ? 'gm' : c.id);
}

/** Whether the GM plays the character (allies and adversaries that are not companions, and obstacles). */
export function isGmCharacter(c: Combatant): boolean {
  return c.role === 'ally' || c.role === 'adversary' || c.obstacle !== undefined;
}

/** Whether this is an obstacle or hazard (personae-core-2011.txt "Obstacles"). */
export function isObstacle(c: Pick<Combatant, 'obstacle'>): boolean {
  return c.obstacle !== undefined;
}

/** An obstacle's pool: its first skill. */
export function obstaclePool(c: Combatant): SkillUse | undefined {
  const s = c.skills[0];
  return s ? { ...s, unskilled: false } : undefined;
}

/** personae-core-2011.txt "Potential": attribute sum / 5 (option potential: / 10), at least 1. */
export function potentialOf(c: Combatant, options: Pick<TableOptions, 'potential'>): number {
  if (c.potential !== undefined) return c.potential;
  const sum = ATTRIBUTE_NAMES.reduce((s, a) => s + c.attributes[a], 0);
  return Math.max(1, Math.floor(sum / (options.potential === 'later' ? 10 : 5)));
}

/** The Potential Threshold of the later revisions: Potential + 2 (the most dice a skill may have). */
export function potentialThresholdOf(c: Combatant, options: Pick<TableOptions, 'potential'>): number {
  return potentialOf(c, options) + 2;
}

/**
 * A skill the character rolls: an unlocked skill at its rating; Block, Dodge and Resist at two dice
 * for everyone (personae-core-2011.txt "Defense"); anything else unskilled at one die with the
 * attribute the situation calls for (personae-core-2011.txt "Skills").
 */
export interface SkillUse {
  readonly name: string;
  readonly dice: number;
  readonly attribute: AttributeKey;
  readonly unskilled: boolean;
  readonly weapon?: string;
  readonly shield?: string;
}

export function findSkill(c: Combatant, skill: string): CombatantSkill | undefined {
  return c.skills.find((s) => same(s.name, skill)) ?? BASIC_DEFENSES.find((s) => same(s.name, skill));
}

export function skillUse(c: Combatant, skill: string, fallbackAttribute: AttributeKey): SkillUse {
  const found = findSkill(c, skill);
  if (found) return { ...found, unskilled: false };
  return { name: skill, dice: 1, attribute: fallbackAttribute, unskilled: true };
}

/** Unarmed attacks are always small bludgeon weapons (personae-core-2011.txt "Weapons"). */
export const UNARMED: Weapon = { name: 'unarmed', size: 'small', range: 'melee', group: 'bludgeons', hits: 1 };

export function findWeapon(c: Combatant, weapon: string): Weapon | undefined {
  if (same(weapon, 'unarmed')) return UNARMED;
  return c.weapons.find((w) => same(w.name, weapon));
}

/**
 * Like against like (personae-core-2011.txt "Passive vs. Active Defense") speaks of Light and Heavy
 * weapons, while "Weapons" sorts them into small, one-handed and two-handed. Small and one-handed
 * weapons count as Light, two-handed ones as Heavy.
 */
export type Weight = 'light' | 'heavy';
export function weaponWeight(w: Weapon): Weight {
  return w.size === 'two-handed' ? 'heavy' : 'light';
}

export function findAbility(c: Combatant, ability: string): CombatantAbility | undefined {
  return c.specialAbilities.find((a) => same(a.name, ability));
}

export function findPower(c: Combatant, power: string): CombatantPower | undefined {
  return c.powers.find((p) => same(p.name, power));
}

export function allows(c: Combatant, what: (typeof ABILITY_ALLOWANCES)[number]): CombatantAbility | undefined {
  return c.specialAbilities.find((a) => a.allows.includes(what));
}

/** Abilities that are always in effect: Qualities. */
export function qualities(c: Combatant): CombatantAbility[] {
  return c.specialAbilities.filter((a) => a.quality);
}

export function effectsOf(abilities: readonly CombatantAbility[]): AbilityEffect[] {
  return abilities.map((a) => a.effect);
}

export function parseCombatant(input: unknown): Combatant {
  return CombatantSchema.parse(input);
}
