import { z } from 'zod';
import { AdvancementCommandSchema } from '../character';
import { EncounterCommandSchema } from '../encounter';
import { PRESETS, TableOptionsSchema } from '../options';
import { SECRET_REVEALS } from './secret';

/**
 * What a table's participants ask of it. The table server validates each command with this schema
 * before the decider sees it; a player may only act for the characters they own.
 */
const id = z.string().min(1).max(80);
const text = z.string().trim().min(1).max(200);
const Labeled = z.strictObject({ value: z.number().int().min(-30).max(30), source: text });

/** A pool typed in at the table, not taken from a character: "3d10+4". Its dice, if entered, fill the pool "actor" or "reactor". */
export const FreeSideSchema = z.strictObject({
  name: text,
  dice: z.number().int().min(0).max(30),
  modifiers: z.array(Labeled).max(20).default([]),
  potentialThreshold: z.number().int().min(1).max(100).optional(),
});
export type FreeSide = z.infer<typeof FreeSideSchema>;

export const TableCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('configure'), preset: z.enum(PRESETS), options: TableOptionsSchema.partial().default({}) }),
  z.strictObject({
    type: z.literal('add-character'),
    /** A character sheet as JSON (the format of docs/character-sheet.schema.json). */
    sheet: z.record(z.string(), z.unknown()),
    /** The participant who plays it; absent or null: the GM's. */
    owner: id.nullable().optional(),
    /** Hidden from players: they see its name and condition, never its sheet. */
    hidden: z.boolean().default(false),
    /** Added out of the scene (the GM's): it joins the encounter only when the GM brings it in with enter-scene. */
    outOfScene: z.boolean().default(false),
  }),
  /** The GM brings a character added out of the scene (or one that left it) into the scene. */
  z.strictObject({ type: z.literal('enter-scene'), id }),
  z.strictObject({ type: z.literal('update-sheet'), id, sheet: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('remove-character'), id }),
  z.strictObject({ type: z.literal('set-visibility'), id, hidden: z.boolean() }),
  z.strictObject({ type: z.literal('set-owner'), id, owner: id.nullable() }),
  z.strictObject({
    type: z.literal('roll'),
    actor: FreeSideSchema,
    reactor: FreeSideSchema.optional(),
    /** An unopposed challenge against this difficulty (a name from the ladder or a number). */
    difficulty: z.union([z.number().int().min(0).max(100), text]).optional(),
    /** Names of those assisting the actor; what each gives follows option assist. */
    assistants: z.array(text).max(20).optional(),
    /** Grades to steer the result once it is known (srd-v4 steering), with the reason. */
    steer: z.strictObject({ steps: z.number().int().min(1).max(2), source: text }).optional(),
    /** Seen only by the GM. */
    hidden: z.boolean().default(false),
    purpose: z.string().max(300).optional(),
    /**
     * The character issuing the challenge (the actor's side), for one its issuer controls: the outcome
     * counts toward its development tally like a challenge issued in an encounter.
     */
    character: id.optional(),
  }),
  z.strictObject({
    type: z.literal('encounter'),
    command: EncounterCommandSchema,
    hidden: z.boolean().default(false),
    /**
     * The table's version (its `seq`) the issuer was looking at. Required for undo and redo: they
     * are refused when the table has moved on since, so a stale click never takes back a newer action.
     */
    seen: z.number().int().min(0).optional(),
  }),
  z.strictObject({ type: z.literal('advance'), id, command: AdvancementCommandSchema }),
  /** personae-core-2011.txt "Resources": buy an item of this cost value against the Resource Cap. */
  z.strictObject({
    type: z.literal('purchase'),
    id,
    item: text,
    cost: z.number().int().min(0).max(100),
    /** The GM's ruling that the purchase lowers the Cap, and by how much (the group decides the chance of it). */
    lowersCap: z.number().int().min(1).max(20).optional(),
  }),
  /** The GM raises a character's Resource Cap for a number of scenes (a cache found, a lord's boon). */
  z.strictObject({ type: z.literal('resource-boost'), id, amount: z.number().int().min(1).max(50), scenes: z.number().int().min(1).max(100), reason: text.optional() }),
  /** The GM reveals a secret roll, named by its commitment (absent: every secret roll not yet revealed). */
  z.strictObject({ type: z.literal('reveal'), hash: z.string().regex(/^[0-9a-fA-F]{64}$/, 'a commitment is a SHA-256 hash: 64 hex digits').optional() }),
  /** When the table reveals the GM's secret rolls: when the GM says so, or at the end of each scene or session. */
  z.strictObject({ type: z.literal('secret-reveal'), reveal: z.enum(SECRET_REVEALS) }),
  z.strictObject({
    type: z.literal('say'),
    /** What is said at the table, as typed. */
    text: z.string().trim().min(1).max(1000),
    /**
     * A whisper: 'gm' for the GM, or the participant id of one player (the GM whispers to players,
     * players to the GM). Absent or null: said aloud to the whole table.
     */
    to: id.nullable().optional(),
  }),
]);
export type TableCommand = z.infer<typeof TableCommandSchema>;
export type TableCommandInput = z.input<typeof TableCommandSchema>;
