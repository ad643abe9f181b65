import { HURRY_SKILLS } from './ammunition';
import { z } from 'zod';
import { AILMENT_NAMES } from './ailments';
import { SITUATION_NAMES } from './attack';
import { ELEMENTS } from './elements';
import { FATE_SPENDS } from './fate';
import { RESOURCES, SCORES, TERRAINS } from './fighter';
import { LOCATIONS } from './location';
import { ALTITUDES, MOVEMENT_TESTS } from './movement';

/** The conditions the GM sets directly; `falling` starts (or stops) a flyer's fall from its band. */
export const CONDITIONS_SET = ['helpless', 'prone', 'bloodLoss', 'falling', 'stealthy'] as const;

/** The commands of a d100 encounter, as the table receives them (d100-combat-rules.txt, "Combat Structure"). */
/** A character's id: one a player created holds their seat's id too (core `newCharacterId`). */
const id = z.string().min(1).max(100);
/** What a viewer is told in place of a hidden character's id where the fact stays (whose Turn it is, who grapples). */
export const WITHHELD = 'hidden';

/** The id asked for a new character: never WITHHELD, which would read as a character withheld from players. */
const newId = z
  .string()
  .min(1)
  .max(60)
  .refine((id) => id !== WITHHELD, { message: `"${WITHHELD}" is reserved: players are shown it in place of a hidden character's id; choose another id` });
/** What may open a Chance Attack ("Chance Attacks", the common triggers). */
export const CHANCE_TRIGGERS = ['left-melee', 'rose-from-prone', 'failed-grapple', 'fired-while-engaged', 'failed-trick', 'flee'] as const;
const counted = z.array(z.strictObject({ label: z.string().min(1).max(60), count: z.number().int().min(0).max(20) })).max(20);

export const commandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('set-options'), preset: z.string().default('seed'), options: z.record(z.string(), z.unknown()).default({}) }),
  z.strictObject({ type: z.literal('add-character'), id: newId, sheet: z.unknown(), controller: z.string().min(1).max(64).nullable().optional() }),
  z.strictObject({ type: z.literal('set-controller'), id, controller: z.string().min(1).max(64).nullable() }),
  z.strictObject({ type: z.literal('start'), startingAdvantages: z.record(z.string(), z.number().int().min(0).max(10)).default({}), tieOrder: z.array(id).max(60).optional(), surprised: z.array(id).max(60).optional() }),
  z.strictObject({ type: z.literal('fall'), who: id, metres: z.number().int().min(1).max(500), intentional: z.boolean().default(false) }),
  z.strictObject({ type: z.literal('trick'), attacker: id, defender: id, kind: z.enum(['push', 'knockdown']), obstacle: z.number().int().min(0).max(100).optional(), attackTarget: z.number().int().min(-200).max(300).optional(), evasionTarget: z.number().int().min(-200).max(300).nullable().optional() }),
  z.strictObject({ type: z.literal('distract'), who: id, target: id }),
  z.strictObject({ type: z.literal('scary-face'), who: id, target: id }),
  z.strictObject({ type: z.literal('force-reroll'), who: id, test: z.enum(['attack', 'evasion', 'test']).optional() }),
  z.strictObject({ type: z.literal('equip'), who: id, item: z.string().min(1).max(60), stow: z.string().min(1).max(60).optional() }),
  /** The GM rules that the attack just made scatters ("Sometimes an attack 'scatters'"): where it goes comes from its own roll. */
  z.strictObject({ type: z.literal('scatter') }),
  z.strictObject({ type: z.literal('reload'), who: id, weapon: z.string().min(1).max(60).optional(), hurry: z.enum(HURRY_SKILLS).optional(), target: z.number().int().min(-200).max(300).optional() }),
  z.strictObject({ type: z.literal('use-consumable'), who: id, item: z.string().min(1).max(60), target: id.optional() }),
  z.strictObject({ type: z.literal('go-stealthy'), who: id }),
  z.strictObject({ type: z.literal('analyse'), who: id, target: id, advanced: z.boolean().default(false) }),
  z.strictObject({ type: z.literal('end-ailment'), who: id, ailment: z.enum(['burning', 'despaired', 'panicked']) }),
  z.strictObject({ type: z.literal('confused-target'), who: id, target: id }),
  z.strictObject({ type: z.literal('set-miasma'), rate: z.number().int().min(0).max(100) }),
  z.strictObject({
    type: z.literal('attack'),
    attacker: id,
    defender: id,
    weapon: z.string().min(1).optional(),
    kind: z.enum(['melee', 'ballistic', 'magic']).optional(),
    element: z.enum(ELEMENTS).optional(),
    damage: z.number().int().min(0).max(100).optional(),
    tier: z.number().int().min(1).max(10).optional(),
    attackTarget: z.number().int().min(-200).max(300).optional(),
    evasionTarget: z.number().int().min(-200).max(300).nullable().optional(),
    advantages: counted.default([]),
    disadvantages: counted.default([]),
    called: z.enum(LOCATIONS).optional(),
    /** Block Heavy Wound on this hit: the defender's Fate Points, so only its player or the GM gives it (else `fate-block`). */
    fateBlocks: z.number().int().min(0).max(10).default(0),
    chance: z.boolean().default(false),
    /** What opened the Chance Attack ("Chance Attacks"); a Flee or a failed Grapple must have happened. */
    trigger: z.enum(CHANCE_TRIGGERS).optional(),
    hand: z.enum(['right', 'left']).optional(),
    /** Burst Attack purchases, in the order bought: an extra target, or an extra wound on one already hit. */
    burst: z.array(z.union([z.strictObject({ extraTarget: id }), z.strictObject({ extraWound: id })])).max(10).optional(),
    /** A Called Attack on a protected ally may ignore the protector, with one more Disadvantage ("Defending and Protecting"). */
    ignoreProtector: z.boolean().optional(),
    /** Charge or Focused Attack ("Standard Attack and other Attack Actions"); absent: a Standard Attack. */
    action: z.enum(['charge', 'focused', 'all-weapon']).optional(),
    /** Entries of the Advantage table that hold for this attack ("How Attacks Work"). */
    situations: z.array(z.enum(SITUATION_NAMES)).max(14).optional(),
  }),
  z.strictObject({ type: z.literal('test'), who: id, score: z.enum(SCORES), target: z.number().int().min(-200).max(300).optional(), advantages: counted.default([]), disadvantages: counted.default([]), hand: z.enum(['right', 'left']).optional(), label: z.string().max(80).default('') }),
  z.strictObject({ type: z.literal('disengage'), who: id, from: z.array(id).min(1).max(12), method: z.enum(['test', 'action']).default('test'), score: z.enum(SCORES).default('agility'), target: z.number().int().min(-200).max(300).optional() }),
  z.strictObject({ type: z.literal('flee'), who: id, from: z.array(id).min(1).max(12), reason: z.string().max(120).default('') }),
  z.strictObject({ type: z.literal('grapple'), attacker: id, defender: id, attackTarget: z.number().int().min(-200).max(300).optional(), evasionTarget: z.number().int().min(-200).max(300).nullable().optional() }),
  z.strictObject({ type: z.literal('escape-grapple'), who: id, declared: z.enum(['move', 'action', 'attack', 'evasion', 'released']), target: z.number().int().min(-200).max(300).optional() }),
  z.strictObject({ type: z.literal('baton-pass'), to: id }),
  z.strictObject({ type: z.literal('all-out-attack'), participants: z.array(z.strictObject({ id, score: z.enum(['melee', 'ballistic', 'magic']) })).min(1).max(12) }),
  /** `who`: the one defending, by default the character whose Turn it is; a One More holder acting out of turn names itself ("One More"). */
  z.strictObject({ type: z.literal('defend'), who: id.optional() }),
  z.strictObject({ type: z.literal('protect'), ally: id, who: id.optional() }),
  z.strictObject({ type: z.literal('place'), target: id, x: z.number().int().min(-1000).max(1000), y: z.number().int().min(-1000).max(1000), elevation: z.number().int().min(-1000).max(1000).default(0), altitude: z.enum(ALTITUDES).optional() }),
  z.strictObject({
    type: z.literal('move'),
    who: id,
    x: z.number().int().min(-1000).max(1000),
    y: z.number().int().min(-1000).max(1000),
    elevation: z.number().int().min(-1000).max(1000).optional(),
    run: z.boolean().default(false),
    /** Through Difficult Terrain at full speed, with a test, instead of Hindered ("Difficult Terrain"). */
    fullSpeed: z.boolean().default(false),
    /** In stealth: move at full speed rather than Hindered, with two Disadvantages on the stealth test ("Hindered Movement"). */
    stealthFullSpeed: z.boolean().default(false),
    /** A flyer's new altitude band, one up or down, as part of a Basic Move (the flight passage after "Difficult Terrain"). */
    altitude: z.enum(ALTITUDES).optional(),
  }),
  /** The Difficult Terrain a character stands in: its number, kind and (Damaging) damage; open ground without a kind and number 0. */
  z.strictObject({ type: z.literal('set-terrain'), target: id, dtn: z.number().int().min(0).max(3), kind: z.enum([...TERRAINS, 'open']).optional(), damage: z.number().int().min(0).max(50).default(0) }),
  /** First aid: the Medical skill as an Action stops a character's Blood Loss ("Blood Loss"). */
  z.strictObject({ type: z.literal('staunch'), who: id, target: id }),
  /** A bleeder stems its own bleeding: its next start-of-turn test gains three Advantages and takes that turn's Action ("Blood Loss"). */
  z.strictObject({ type: z.literal('stem-bleeding'), who: id, stem: z.boolean().default(true) }),
  /** A bleeder's choice of test against its Blood Loss, Toughness or Endurance (Injury), for the start-of-turn tests to come ("Blood Loss"). */
  z.strictObject({ type: z.literal('bleeding-test'), who: id, test: z.enum(['toughness', 'endurance']) }),
  /** Block Heavy Wound, declared ahead by whoever plays the character: up to `heavy` Fate Points spent on Heavy wounds from hits it takes, 0 to stop ("Fate Points"). */
  z.strictObject({ type: z.literal('fate-block'), who: id, heavy: z.number().int().min(0).max(10) }),
  z.strictObject({ type: z.literal('movement-test'), who: id, kind: z.enum(MOVEMENT_TESTS), rough: z.boolean().default(false), target: z.number().int().min(-200).max(300).optional() }),
  z.strictObject({ type: z.literal('restore-wounds'), target: id, light: z.number().int().min(0).max(50).default(0), heavy: z.number().int().min(0).max(50).default(0) }),
  z.strictObject({ type: z.literal('treat-injuries'), target: id, how: z.enum(['rest', 'medical']) }),
  /** `resist`: the target first tests to resist it (option ailmentResistScore), with Weak or Resist to `element` and Defend counted; `score` or `target` override the option's. */
  z.strictObject({ type: z.literal('inflict-ailment'), target: id, ailment: z.enum(AILMENT_NAMES), turns: z.number().int().min(1).max(20).nullable().optional(), source: id.optional(), resist: z.boolean().default(false), element: z.enum(ELEMENTS).optional(), score: z.enum(SCORES).optional(), resistTarget: z.number().int().min(-200).max(300).optional() }),
  z.strictObject({ type: z.literal('set-condition'), target: id, condition: z.enum(CONDITIONS_SET), value: z.boolean() }),
  z.strictObject({ type: z.literal('spend-fate'), who: id, spend: z.enum(FATE_SPENDS), ailment: z.enum(AILMENT_NAMES).optional(), location: z.enum(LOCATIONS).optional(), test: z.enum(['attack', 'evasion', 'test']).optional(), resource: z.enum(RESOURCES).optional() }),
  z.strictObject({ type: z.literal('use-resource'), who: id, resource: z.enum(RESOURCES), amount: z.number().int().min(1).max(100), label: z.string().max(80).default('') }),
  z.strictObject({ type: z.literal('end-turn') }),
  z.strictObject({ type: z.literal('new-week') }),
  /** `seen`: the table version (events so far) the undo was asked from. */
  z.strictObject({ type: z.literal('undo'), seen: z.number().int().min(0).optional() }),
]);
export type EncounterCommand = z.infer<typeof commandSchema>;
