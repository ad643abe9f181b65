import { z } from 'zod';
import { ATTRIBUTES } from '../attributes';
import { ROLL_PURPOSES } from '../traits';

/** A combatant's id: one a player created holds their seat's id too (core `newCharacterId`). */
const id = z.string().min(1).max(100);
/** The id asked for a new combatant. */
const newId = z.string().min(1).max(64);
const d20 = z.number().int().min(1).max(20);
const d6s = z.array(z.number().int().min(1).max(6)).max(100);
const counts = { buffs: z.number().int().min(0).max(20).optional(), breaks: z.number().int().min(0).max(20).optional(), buffDice: d6s.optional(), breakDice: d6s.optional() };

/**
 * Every command of a Lucidity encounter as scenario files and the CLI write it: with the dice rolled
 * at the table in its fields (`d20`, `buffDice`, ...). Those fields are read into the command's named
 * pools (./pools.ts); the rules read a pool's entered dice back into them.
 */
export const RecordedLucidityCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('add'), id: newId, side: z.enum(['party', 'foe']), hidden: z.boolean().default(false), controller: z.string().min(1).nullable().default(null), sheet: z.unknown().optional(), statBlock: z.unknown().optional() }).strict(),
  z.object({ type: z.literal('start'), dice: z.record(z.string(), d20).optional() }).strict(),
  z
    .object({
      type: z.literal('attack'),
      actor: id,
      target: id,
      weapon: z.string().optional(),
      d20: d20.optional(),
      ...counts,
      damageDice: z.array(z.number().int().min(1).max(100)).max(40).optional(),
      flanking: z.boolean().default(false),
      oneOnOne: z.boolean().default(false),
      dualWielding: z.boolean().default(false),
      useLucidity: z.boolean().default(false),
      reaction: z.enum(['opportunity', 'free', 'readied']).optional(),
      /** An adjacent ally of the target with Defender, sharing its shield and weapon Protection. */
      defendedBy: id.optional(),
      /** Inspirator: add CHA to this roll (once per rest). */
      inspire: z.boolean().default(false),
    })
    .strict(),
  z
    .object({
      type: z.literal('roll'),
      actor: id,
      attribute: z.enum(ATTRIBUTES),
      skill: z.string().optional(),
      target: z.number().int().min(-100).max(200).optional(),
      against: z.object({ id, attribute: z.enum(ATTRIBUTES), d20: d20.optional() }).strict().optional(),
      cost: z.number().int().min(0).max(2).default(0),
      d20: d20.optional(),
      ...counts,
      useLucidity: z.boolean().default(false),
      label: z.string().max(200).optional(),
      /** What the roll is about, for the traits that look at it (Rumor-monger, Natural Immunity, Debator, Adrenaline Rush). */
      purpose: z.enum(ROLL_PURPOSES).default('other'),
      inspire: z.boolean().default(false),
    })
    .strict(),
  z.object({ type: z.literal('lucidity-roll'), actor: id, attribute: z.enum(ATTRIBUTES).optional(), gmModifier: z.number().int().min(-20).max(20).default(0), purpose: z.enum(['major-exploit', 'rescue', 'fates-gamble', 'other']).default('other'), d20: d20.optional(), d20Second: d20.optional() }).strict(),
  z.object({ type: z.literal('move'), actor: id, careful: z.boolean().default(false), standing: z.boolean().default(false), prone: z.boolean().default(false), shuffle: z.boolean().default(false) }).strict(),
  z.object({ type: z.literal('help'), actor: id, target: id, kind: z.enum(['buff', 'break']) }).strict(),
  z.object({ type: z.literal('ready'), actor: id, actions: z.number().int().min(1).max(2), trigger: z.string().min(1).max(200) }).strict(),
  z.object({ type: z.literal('damage'), target: id, amount: z.number().int().min(0).max(10000), reason: z.string().max(200).default('') }).strict(),
  z.object({ type: z.literal('exploit'), actor: id, target: id, kind: z.enum(['minor', 'major', 'rescue']), success: z.boolean(), ruling: z.string().min(1).max(500), turnabout: z.boolean().default(false) }).strict(),
  z.object({ type: z.literal('wingman'), actor: id, ally: id, attribute: z.enum(ATTRIBUTES) }).strict(),
  z.object({ type: z.literal('narrative'), actor: id, target: id, attribute: z.enum(ATTRIBUTES), resistAttribute: z.enum(ATTRIBUTES).optional(), resisted: z.boolean().optional(), d20: d20.optional(), ploy: z.string().min(1).max(500) }).strict(),
  z.object({ type: z.literal('begin-casting'), actor: id, spell: z.string().min(1).max(100) }).strict(),
  z.object({ type: z.literal('cast'), actor: id, target: id.optional() }).strict(),
  z.object({ type: z.literal('rest'), id, lunarPause: z.boolean().default(false), healthDice: z.array(z.number().int().min(1).max(4)).max(2).optional() }).strict(),
  z.object({ type: z.literal('award-xp'), id, amount: z.number().int().min(1).max(100000), reason: z.string().max(200).default('') }).strict(),
  z.object({ type: z.literal('level-up'), id, raise: z.enum(ATTRIBUTES) }).strict(),
  z.object({ type: z.literal('reveal'), id }).strict(),
  /** The GM hands a combatant to a participant (null: back to the GM). */
  z.object({ type: z.literal('set-controller'), id, controller: z.string().min(1).max(64).nullable() }).strict(),
  z.object({ type: z.literal('end-turn'), dice: z.record(z.string(), d20).optional() }).strict(),
  /** `seen`: the table version (events so far) the undo or redo was asked from. */
  z.object({ type: z.literal('undo'), seen: z.number().int().min(0).optional() }).strict(),
  z.object({ type: z.literal('redo'), seen: z.number().int().min(0).optional() }).strict(),
]);

/** The recorded dice fields, which a command sent to a table does not have: its dice go in the envelope's pools. */
const DICE_FIELDS = ['d20', 'd20Second', 'buffDice', 'breakDice', 'damageDice', 'healthDice'] as const;

function withoutDice<T extends z.ZodObject>(variant: T): z.ZodObject {
  const shape = variant.shape as Record<string, unknown>;
  const type = (shape.type as z.ZodLiteral<string>).value;
  const drop: Record<string, true> = {};
  for (const k of [...DICE_FIELDS, ...(type === 'start' || type === 'end-turn' ? ['dice'] : [])]) if (k in shape) drop[k] = true;
  const bare = Object.keys(drop).length ? variant.omit(drop) : variant;
  return type === 'roll' ? bare.extend({ against: z.object({ id, attribute: z.enum(ATTRIBUTES) }).strict().optional() }) : bare;
}

/** Every command of a Lucidity encounter as a table takes it, checked once at the boundary: no dice of its own. */
export const LucidityCommandSchema = z.discriminatedUnion(
  'type',
  RecordedLucidityCommandSchema.options.map((o) => withoutDice(o)) as unknown as typeof RecordedLucidityCommandSchema.options,
);

/** A command as the rules read it: the dice of its entered pools in the recorded fields. */
export type LucidityCommand = z.output<typeof RecordedLucidityCommandSchema>;
export type LucidityCommandInput = z.input<typeof RecordedLucidityCommandSchema>;
export type CommandOf<T extends LucidityCommand['type']> = Extract<LucidityCommand, { type: T }>;
