import { z } from 'zod';
import { TableOptionsInputSchema } from '../options';
import { CombatantSchema } from './combatant';

/**
 * Commands: what a player or the GM asks the table to do. Each names who issues it (`actor`: the
 * character's id, or "gm"), so that a server can check that the issuer controls that character.
 * Dice rolled at the table are not part of a command: they fill the command's named pools
 * (encounter/pools.ts), and the pools left out are rolled by the dice source handed to `decide`.
 */

const id = z.string().min(1);
const text = z.string().trim().min(1);

const Labeled = z.strictObject({ value: z.number().int().min(-20).max(20), source: text });

const coordinate = z.number().int().min(-10000).max(10000);
/** A square of the grid, for tables that track distance on one (option distance = grid). */
export const GridPointSchema = z.strictObject({ x: coordinate, y: coordinate });

/** How criticals are spent on a challenge (personae-core-2011.txt "Critical Success"). */
export const SpendSchema = z.strictObject({
  /** Spent before rolling: the challenge succeeds without a roll. */
  automaticSuccess: z.boolean().optional(),
  /** Spent before rolling: each adds one to the result. */
  bonus: z.number().int().min(1).max(20).optional(),
  /** Spent when the attack succeeds: each adds one hit. */
  extraHits: z.number().int().min(1).max(20).optional(),
  /** A special ability that spends criticals (e.g. Horrific Wound), used when the attack succeeds. */
  ability: text.optional(),
  /**
   * Spent after the dice, only if needed: one critical steers a failure to a glancing success
   * (personae-v4-srd-playing.txt "Critical Success"); a glancing success is steered to a clear one
   * only by abilities, powers and assistants.
   */
  steer: z.literal(1).optional(),
  /**
   * Criticals spent without naming what they buy: option criticalDefaultUse decides. automatic-success:
   * one, before rolling, for an automatic success; steer: one, after the dice, if needed, steering a
   * failure to a glancing success; gm-special: turned in to the GM for the `purpose` given.
   */
  criticals: z.number().int().min(1).max(20).optional(),
  /** What the `criticals` are spent on, when something else was agreed (with gm-special it is required). */
  purpose: text.optional(),
});
export type Spend = z.infer<typeof SpendSchema>;

/** What both sides of a challenge may add. */
const challengeFields = {
  /** Special abilities the actor uses (Qualities apply by themselves). */
  abilities: z.array(text).optional(),
  /** Special abilities the reactor uses in answer (its player's choice, given with the command). */
  reactorAbilities: z.array(text).optional(),
  /** An Expertise talent the actor calls on (once per session). */
  expertise: text.optional(),
  reactorExpertise: text.optional(),
  assistants: z.array(id).optional(),
  spend: SpendSchema.optional(),
  /** Circumstantial additions agreed at the table. */
  modifiers: z.array(Labeled).optional(),
  reactorModifiers: z.array(Labeled).optional(),
  purpose: z.string().optional(),
};

/** The defender's answer to an attack or power (personae-core-2011.txt "Defense"). */
export const DefenseChoiceSchema = z.enum(['dodge', 'block', 'parry', 'shield', 'power', 'resist']);
export type DefenseChoice = z.infer<typeof DefenseChoiceSchema>;

const withActor = <const K extends string, T extends z.ZodRawShape>(type: K, shape: T) => z.strictObject({ type: z.literal(type), actor: id, ...shape });

export const EncounterCommandSchema = z.discriminatedUnion('type', [
  withActor('set-up', {
    title: z.string().default('Encounter'),
    options: TableOptionsInputSchema.default({ preset: 'core-2011', options: {} }),
    characters: z.array(CombatantSchema).min(1),
  }),
  withActor('configure', { options: TableOptionsInputSchema }),
  withActor('join', { character: CombatantSchema }),
  withActor('update-character', { character: CombatantSchema }),
  withActor('leave', { id }),
  withActor('begin-session', {}),
  /** The session is over: the table is between sessions until the next begins. */
  withActor('end-session', {}),
  withActor('begin-day', {}),
  withActor('begin-scene', { title: z.string().optional() }),
  withActor('end-scene', {}),
  withActor('escalate', {
    to: z.enum(['non-violent', 'hostile', 'violent']),
    /** For the declared-skill action order: the skill each character chooses. */
    orderSkills: z.record(z.string(), text).optional(),
  }),
  withActor('de-escalate', { to: z.enum(['scene', 'non-violent', 'hostile']) }),
  withActor('end-encounter', {}),
  withActor('set-order', { order: z.array(id).min(1) }),
  withActor('move', {
    description: z.string().optional(),
    /**
     * Where the move ends (personae-core-2011.txt "Distance and Location"), by option distance: a
     * relative term under `relative` ("close", "adjacent", "very near", "pretty far", or any word the
     * group uses), grid coordinates `{ x, y }` under `grid`.
     */
    to: z.union([z.string().trim().min(1).max(60), GridPointSchema]).optional(),
  }),
  withActor('attack', {
    target: id.optional(),
    targets: z.array(id).optional(),
    /** The weapon attacked with ("unarmed" for fists and feet); by default the skill's weapon. */
    weapon: text.optional(),
    /** The skill rolled; by default the skill tied to the weapon. */
    skill: text.optional(),
    defense: DefenseChoiceSchema.optional(),
    /** The skill the defender answers with, for a parry, shield block or power defense. */
    defenseSkill: text.optional(),
    defensePower: text.optional(),
    /** Contributors to a concerted effort led by the actor (srd-v4 "Concerted Effort"). */
    concerted: z.array(id).optional(),
    ...challengeFields,
  }),
  withActor('power', {
    power: text,
    target: id.optional(),
    targets: z.array(id).optional(),
    defense: DefenseChoiceSchema.optional(),
    defenseSkill: text.optional(),
    defensePower: text.optional(),
    ...challengeFields,
  }),
  withActor('interact', {
    target: id,
    skill: text,
    attribute: z.enum(['competence', 'prowess', 'cunning', 'power', 'knowledge', 'stature']).optional(),
    /** The reactor's skill; Resist with Power by default. */
    reactorSkill: text.optional(),
    reactorAttribute: z.enum(['competence', 'prowess', 'cunning', 'power', 'knowledge', 'stature']).optional(),
    concerted: z.array(id).optional(),
    /**
     * Resolve this as a subsequent challenge of the interaction just made against the same target,
     * with the next-highest dice of that roll, not a fresh roll (non-violent encounters, option
     * nonViolentExtended = subsequent-challenges).
     */
    subsequent: z.boolean().optional(),
    ...challengeFields,
  }),
  withActor('inquire', {
    target: id,
    question: text,
    /** Whether the target ever did anything to hide the answer. */
    hidden: z.boolean(),
    /** A skill for learning such things (Investigation, Interview, ...) in place of the one die. */
    skill: text.optional(),
    /** The skill that hid it; one die and Cunning by default. */
    reactorSkill: text.optional(),
    ...challengeFields,
  }),
  /**
   * An Unopposed Challenge (personae-core-2011.txt "Unopposed Challenges", "Obstacles"): a task with
   * no one to challenge, or a static obstacle or hazard, rolled against a difficulty from the ladder
   * (a name or a number). `dice.actor` are the character's dice, `dice.reactor` the GM's.
   */
  withActor('unopposed', {
    skill: text,
    attribute: z.enum(['competence', 'prowess', 'cunning', 'power', 'knowledge', 'stature']).optional(),
    difficulty: z.union([z.number().int().min(0).max(100), z.string().trim().min(1).max(40)]),
    /** What stands in the way, in the group's words ("the barred door", "the thunderstorm"). */
    obstacle: z.string().trim().min(1).max(120).optional(),
    abilities: z.array(text).optional(),
    expertise: text.optional(),
    assistants: z.array(id).optional(),
    spend: SpendSchema.optional(),
    modifiers: z.array(Labeled).optional(),
    purpose: z.string().optional(),
  }),
  withActor('defend', {
    kind: z.enum(['parry', 'block', 'power']),
    skill: text.optional(),
    power: text.optional(),
  }),
  withActor('assist', { primary: id }),
  withActor('stabilize', { target: id }),
  withActor('maintain', { effect: z.number().int().min(1) }),
  withActor('end-effect', { effect: z.number().int().min(1) }),
  withActor('recover', {
    target: id.optional(),
    abilities: z.array(text).optional(),
    assistants: z.array(id).optional(),
  }),
  /**
   * Criticals spent away from a challenge. With a purpose: for that (under criticalDefaultUse =
   * gm-special, turned in to the GM for it). Without one, option criticalDefaultUse decides:
   * automatic-success and steer (spent before knowing the result) make the spender's next challenge
   * succeed; gm-special refuses, since the GM needs to hear what is asked for.
   */
  withActor('spend-criticals', { count: z.number().int().min(1), purpose: text.optional(), from: z.enum(['own', 'gm']).optional() }),
  withActor('give-criticals', { to: id, count: z.number().int().min(1) }),
  withActor('end-turn', {}),
  withActor('undo', { toSequence: z.number().int().min(0).optional() }),
  withActor('redo', {}),
]);

export type EncounterCommand = z.infer<typeof EncounterCommandSchema>;
export type EncounterCommandInput = z.input<typeof EncounterCommandSchema>;
export type CommandType = EncounterCommand['type'];
export type CommandOf<T extends CommandType> = Extract<EncounterCommand, { type: T }>;

/** Commands only the GM may issue. */
export const GM_COMMANDS: readonly CommandType[] = [
  'set-up',
  'configure',
  'join',
  'update-character',
  'leave',
  'begin-session',
  'end-session',
  'begin-day',
  'begin-scene',
  'end-scene',
  'end-encounter',
  'set-order',
  'undo',
  'redo',
];
