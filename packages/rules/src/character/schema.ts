import { z } from 'zod';
import { AbilityEffectSchema } from '../effects';

/**
 * The character sheet file format. One zod schema describes a sheet: it validates files, gives the
 * TypeScript types (z.infer) and generates docs/character-sheet.schema.json.
 *
 * The schema checks the shape of a sheet (names, kinds, whole numbers where only whole numbers make
 * sense). The rules of character creation (priority caps, trait maxima and so on) are checks of
 * their own in ./checks.ts, so that a sheet that breaks a rule can still be read and explained.
 */

export const SHEET_VERSION = 1;

/** personae-core-2011.txt "Attributes": the six attributes, in the rulebook's order. */
export const ATTRIBUTES = ['competence', 'prowess', 'cunning', 'power', 'knowledge', 'stature'] as const;
export const AttributeNameSchema = z.enum(ATTRIBUTES).meta({ description: 'One of the six attributes.' });
export type AttributeName = z.infer<typeof AttributeNameSchema>;

/** personae-core-2011.txt "The Order of Importance". */
export const PRIORITIES = ['first', 'second', 'third', 'handicap'] as const;
export type Priority = (typeof PRIORITIES)[number];

const attributeValue = z
  .number()
  .meta({ description: 'A whole number, zero or more (checked by the rule attributes-whole-numbers).' });

export const AttributesSchema = z
  .strictObject({
    competence: attributeValue,
    prowess: attributeValue,
    cunning: attributeValue,
    power: attributeValue,
    knowledge: attributeValue,
    stature: attributeValue,
  })
  .meta({ id: 'CharacterAttributes', description: 'The six attribute values.' });
export type Attributes = z.infer<typeof AttributesSchema>;

export const PrioritiesSchema = z
  .strictObject({
    first: z.tuple([AttributeNameSchema, AttributeNameSchema]),
    second: z.tuple([AttributeNameSchema, AttributeNameSchema]),
    third: AttributeNameSchema,
    handicap: AttributeNameSchema,
  })
  .meta({ id: 'CharacterPriorities', description: 'Order of importance: two First, two Second, one Third and one Handicap attribute.' });
export type Priorities = z.infer<typeof PrioritiesSchema>;

const name = z.string().trim().min(1);
const count = z.number().int().min(0);

/** personae-core-2011.txt "Skills", "Prowess Pool" and "Defense". */
export const SkillSchema = z
  .strictObject({
    name,
    attribute: AttributeNameSchema.meta({ description: 'The default attribute added when the skill is rolled.' }),
    dice: z.number().meta({ description: 'Rating in dice: 2 when unlocked, more with dice from the Prowess Pool.' }),
    weapon: name.optional().meta({ description: 'Name of the weapon in `gear` this skill uses (a weapon skill).' }),
    shield: name.optional().meta({ description: 'Name of the shield in `gear` this skill blocks with (a shield skill).' }),
    description: z.string().optional(),
  })
  .meta({ id: 'CharacterSkill', description: 'An unlocked skill. Block, Dodge and Resist are always unlocked; list them only to add dice.' });
export type Skill = z.infer<typeof SkillSchema>;

/** personae-core-2011.txt "Languages", "Expertise", "Resources". */
export const TalentSchema = z
  .strictObject({
    name,
    kind: z.enum(['language', 'expertise', 'resource']),
    native: z.boolean().default(false).meta({ description: 'The native language, known for free.' }),
    uses: count.min(1).default(1).meta({ description: 'Expertise: uses per session (upgrades add uses).' }),
    dice: count.min(1).default(1).meta({ description: 'Expertise: bonus dice per use (upgrades add dice).' }),
    resourceCap: count.min(1).default(1).meta({ description: 'Resource: how much this talent adds to the Resource Cap.' }),
    description: z.string().optional(),
  })
  .meta({ id: 'CharacterTalent', description: 'A talent: a language, an area of expertise or a resource.' });
export type Talent = z.infer<typeof TalentSchema>;

/** personae-core-2011.txt "Special Ability Identifiers". */
export const SpecialAbilitySchema = z
  .strictObject({
    name,
    description: z.string().optional(),
    conditional: z
      .array(z.string().min(1))
      .default([])
      .meta({ description: 'Conditional (C): the limiting conditions; each one is worth one free upgrade.' }),
    culture: z.boolean().default(false).meta({ description: 'Culture (R): the free ability expressing origins.' }),
    quality: z.boolean().default(false).meta({ description: 'Quality (Q): always in effect; counts as two abilities.' }),
    exceptionalGear: name
      .optional()
      .meta({ description: 'Exceptional Gear (X): the name of the item in `gear` this ability unlocks. Must also be a Quality.' }),
    companion: name.optional().meta({ description: 'The companion (in `companions`) this ability represents.' }),
    upgrades: count.default(0).meta({ description: 'Upgrades bought for this ability, free Conditional ones included.' }),
    effect: AbilityEffectSchema.default({ type: 'described' }).meta({
      description: 'What the ability does, in terms the challenge engine applies; `described` for a benefit with no mechanics.',
    }),
  })
  .meta({ id: 'CharacterSpecialAbility', description: 'A special ability.' });
export type SpecialAbility = z.infer<typeof SpecialAbilitySchema>;

/** personae-core-2011.txt "Duration / Duration Identifiers". */
export const POWER_DURATIONS = ['instant', 'maintain', 'independent', 'special'] as const;
export const PowerSchema = z
  .strictObject({
    name,
    description: z.string().optional(),
    skill: name.optional().meta({ description: 'The skill rolled to use the power.' }),
    duration: z.enum(POWER_DURATIONS),
    targets: count.min(1).default(1),
    hits: count.default(0).meta({ description: 'Hits of injury inflicted (0 for a power that does not injure).' }),
    upgrades: count.default(0),
    gear: name.optional().meta({ description: 'The item in `gear` whose supernatural quality this power represents.' }),
  })
  .meta({ id: 'CharacterPower', description: 'A power.' });
export type Power = z.infer<typeof PowerSchema>;

/** personae-core-2011.txt "Weapons", "Defense", "Armor", "Exceptional Gear". */
const gearCommon = {
  name,
  description: z.string().optional(),
  cost: count.optional().meta({ description: 'Cost value (0 common, 1-3 uncommon, 4-6 rare, 7-9 very rare, 10+ unique).' }),
  exceptional: z
    .enum(['craft', 'supernatural', 'both'])
    .optional()
    .meta({ description: 'Whether the item is exceptional by craft, by supernatural quality, or both.' }),
};
export const GearSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('weapon'),
    ...gearCommon,
    size: z.enum(['small', 'one-handed', 'two-handed']),
    range: z.enum(['melee', 'ranged']),
    group: z.string().min(1).meta({ description: 'Weapon group: blades, axes, bludgeons, bows, ...' }),
  }),
  z.strictObject({ type: z.literal('shield'), ...gearCommon, weight: z.enum(['light', 'heavy']) }),
  z.strictObject({ type: z.literal('armor'), ...gearCommon }),
  z.strictObject({ type: z.literal('item'), ...gearCommon }),
]).meta({ id: 'CharacterGear', description: 'A weapon, shield, armor or other item.' });
export type Gear = z.infer<typeof GearSchema>;

/** personae-core-2011.txt "Injury and Death". */
export const HEALTH_STATUSES = ['unharmed', 'injured', 'wounded', 'incapacitated', 'dying', 'dead'] as const;
export const HealthSchema = z
  .strictObject({
    hits: count.default(0).meta({ description: 'Hits of injury currently sustained.' }),
    status: z.enum(HEALTH_STATUSES).default('unharmed'),
  })
  .meta({ id: 'CharacterHealth', description: 'Current health; the encounter engine updates it.' });
export type Health = z.infer<typeof HealthSchema>;

/** personae-core-2011.txt "Resources": a temporary boost to the Resource Cap that lasts some scenes. */
export const ResourceBoostSchema = z.strictObject({
  amount: count.min(1),
  scenes: count.meta({ description: 'Scenes left before the boost is spent.' }),
  reason: z.string().optional(),
});
export type ResourceBoost = z.infer<typeof ResourceBoostSchema>;

// ---------------------------------------------------------------------------------------------

export const ROLES = ['main', 'companion', 'ally', 'adversary'] as const;
export const TIERS = ['minion', 'minor', 'major'] as const;
export type Role = (typeof ROLES)[number];
export type Tier = (typeof TIERS)[number];

const sheetFields = {
  version: z.literal(SHEET_VERSION).meta({ description: 'Sheet format version.' }),
  name,
  concept: z.string().trim().min(1).meta({ description: 'A few words that sum up the character.' }),
  player: z.string().optional(),
  role: z
    .enum(ROLES)
    .default('main')
    .meta({ description: 'A main character, a companion, or a supporting ally or adversary.' }),
  tier: z
    .enum(TIERS)
    .optional()
    .meta({ description: 'Supporting characters and companions: minion, minor or major.' }),
  creationPoints: z.number().meta({ description: 'Creation points the attributes were bought with.' }),
  attributes: AttributesSchema,
  priorities: PrioritiesSchema,
  skills: z.array(SkillSchema).default([]),
  talents: z.array(TalentSchema).default([]),
  specialAbilities: z.array(SpecialAbilitySchema).default([]),
  powers: z.array(PowerSchema).default([]),
  gear: z.array(GearSchema).default([]),
  health: HealthSchema.default({ hits: 0, status: 'unharmed' }),
  criticals: count.default(0).meta({ description: 'Banked critical successes.' }),
  resourceBoosts: z.array(ResourceBoostSchema).default([]),
  resourceCapLost: count.optional().meta({ description: 'How much purchases have lowered the Resource Cap the Resource talents give.' }),
  notes: z.string().optional(),
};

/**
 * A companion's own sheet, as held inside its main character's sheet. It has no history of its own:
 * its owner's development points pay for it (personae-core-2011.txt "Companion Development").
 */
export const CompanionSheetSchema = z.strictObject(sheetFields).meta({ id: 'CharacterCompanionSheet' });

// ---------------------------------------------------------------------------------------------
// Advancement history: personae-core-2011.txt "Advancement". Entries are only ever appended.

/**
 * A trait defined later in a slot left unspent at creation (personae-core-2011.txt "Step 4: Determine
 * Maximum Number of Traits"): it counts against the creation maxima, not against development points.
 */
export const SlotTraitSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('skill'), skill: SkillSchema }),
    z.strictObject({ type: z.literal('special-ability'), ability: SpecialAbilitySchema }),
    z.strictObject({ type: z.literal('power'), power: PowerSchema }),
    z.strictObject({ type: z.literal('talent'), talent: TalentSchema }),
  ])
  .meta({ id: 'CharacterSlotTrait', description: 'A skill, special ability, power or talent defined in an unspent creation slot.' });
export type SlotTrait = z.infer<typeof SlotTraitSchema>;

export const PurchaseSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('attribute'), attribute: AttributeNameSchema }),
  z.strictObject({ kind: z.literal('companion-attribute'), companion: name, attribute: AttributeNameSchema }),
  z.strictObject({ kind: z.literal('skill'), skill: SkillSchema }),
  z.strictObject({ kind: z.literal('prowess-pool') }),
  z.strictObject({ kind: z.literal('assign-dice'), skill: name, dice: count.min(1) }),
  z.strictObject({
    kind: z.literal('special-ability'),
    ability: SpecialAbilitySchema,
    companion: CompanionSheetSchema.optional().meta({ description: 'The companion a companion ability brings.' }),
  }),
  z.strictObject({ kind: z.literal('special-ability-upgrade'), ability: name }),
  z.strictObject({ kind: z.literal('quality'), ability: name, exceptionalGear: name.optional() }),
  z.strictObject({ kind: z.literal('companion-promotion'), companion: name }),
  z.strictObject({ kind: z.literal('power'), power: PowerSchema }),
  z.strictObject({
    kind: z.literal('power-upgrade'),
    power: name,
    improve: z.enum(['targets', 'hits', 'duration', 'other']),
    duration: z.enum(['independent', 'special']).optional(),
  }),
  z.strictObject({ kind: z.literal('talent'), talent: TalentSchema }),
  z.strictObject({ kind: z.literal('talent-upgrade'), talent: name, improve: z.enum(['uses', 'dice', 'resourceCap']) }),
  z.strictObject({ kind: z.literal('hit') }),
  z
    .strictObject({ kind: z.literal('priorities'), priorities: PrioritiesSchema })
    .meta({ description: 'A new order of importance, at no cost (only at tables with option prioritiesChangeable).' }),
  z
    .strictObject({ kind: z.literal('unspent-slot'), trait: SlotTraitSchema })
    .meta({ description: 'A trait defined in a slot left unspent at creation, at no cost (option unspentTraits says when).' }),
]).meta({ id: 'CharacterPurchase', description: 'What a spend of development points bought.' });
export type Purchase = z.infer<typeof PurchaseSchema>;
export type PurchaseKind = Purchase['kind'];

const entryId = z.number().int().min(1);
export const HistoryEntrySchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('award'),
    id: entryId,
    points: count.min(1),
    note: z.string().optional(),
  }),
  z.strictObject({
    type: z.literal('spend'),
    id: entryId,
    award: entryId.nullable().meta({ description: 'The award the points came from (null for a spend that costs nothing).' }),
    cost: count,
    purchase: PurchaseSchema,
    previous: z
      .strictObject({
        duration: z.enum(POWER_DURATIONS).optional(),
        tier: z.enum(['minion', 'minor', 'major']).optional(),
        listed: z.boolean().optional().meta({ description: 'false when a defence skill was not listed before dice were assigned to it.' }),
        priorities: PrioritiesSchema.optional().meta({ description: 'The order of importance a change of priorities replaced.' }),
      })
      .optional()
      .meta({ description: 'Values the spend replaced, kept so that it can be undone.' }),
  }),
  z.strictObject({ type: z.literal('undo'), id: entryId, entry: entryId }),
]);
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const CharacterSheetSchema = z
  .strictObject({
    ...sheetFields,
    history: z.array(HistoryEntrySchema).default([]).meta({ description: 'Development points awarded and spent, in order.' }),
    companions: z.array(CompanionSheetSchema).default([]).meta({ description: 'Companions this character controls.' }),
  })
  .meta({ title: 'Personae character sheet', description: 'A character for the Personae rules (personae-core-2011).' });

export type CharacterSheet = z.infer<typeof CharacterSheetSchema>;
/** What a file may contain: optional fields may be left out. */
export type CharacterSheetInput = z.input<typeof CharacterSheetSchema>;
export type CompanionSheet = z.infer<typeof CompanionSheetSchema>;
/** Anything with the fields of a sheet: a main character or an embedded companion. */
export type AnySheet = CharacterSheet | CompanionSheet;

/** The JSON Schema published as docs/character-sheet.schema.json. */
export function characterSheetJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(CharacterSheetSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}
