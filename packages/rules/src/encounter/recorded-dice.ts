import type { EnteredPools } from '@personae/core';
import { z } from 'zod';
import { ACTOR_POOL, actorPool, DIFFICULTY_POOL, orderPool, REROLLS_POOL, targetPool } from './pools';

/**
 * The notation scenario files (docs/scenario-format.md) and the CLI keep for dice rolled at the
 * table, written beside a command: `dice: { actor, reactor, extra }`, `targetDice: { ID: { ... } }`
 * and `orderDice: { ID: [...] }`. It is read into the command's named pools (./pools.ts), the one
 * way dice enter a command, so a replayed file and a live table roll the same pools.
 */
const die = z.number().int().min(1).max(10);
const RecordedSideSchema = z.strictObject({
  /** The acting character's roll. */
  actor: z.array(die).optional(),
  /** The answer: the (first) target's roll, or the GM's dice of an unopposed or recovery challenge. */
  reactor: z.array(die).optional(),
  /** Rerolls of either side and full-tie rerolls, in order. */
  extra: z.array(die).optional(),
});
export const RecordedDiceSchema = z.object({
  dice: RecordedSideSchema.optional(),
  /** Dice per target, when one actor challenges several. */
  targetDice: z.record(z.string(), RecordedSideSchema).optional(),
  /** Action order rolls, by character. */
  orderDice: z.record(z.string(), z.array(die)).optional(),
});

export const RECORDED_DICE_KEYS = ['dice', 'targetDice', 'orderDice'] as const;

/** A command written with its recorded dice, split into the command and the pools the dice fill. */
export function recordedPools(raw: Readonly<Record<string, unknown>>): { command: Record<string, unknown>; pools: EnteredPools } {
  const { dice, targetDice, orderDice, ...command } = raw;
  const recorded = RecordedDiceSchema.parse({ dice, targetDice, orderDice });
  const pools: Record<string, number[]> = {};
  const add = (name: string, faces: readonly number[] | undefined) => {
    if (faces) pools[name] = [...(pools[name] ?? []), ...faces];
  };
  const targets = Array.isArray(command.targets) ? (command.targets as string[]) : typeof command.target === 'string' ? [command.target] : [];
  const gmAnswers = command.type === 'recover' || command.type === 'unopposed';
  const sides: [string | null, z.infer<typeof RecordedSideSchema>][] = [];
  if (recorded.dice) sides.push([targets[0] ?? null, recorded.dice]);
  for (const [id, side] of Object.entries(recorded.targetDice ?? {})) sides.push([id, side]);
  for (const [id, side] of sides) {
    const k = id === null ? 0 : Math.max(0, targets.indexOf(id));
    if (side.actor) pools[id === null ? ACTOR_POOL : actorPool(id, k)] = [...side.actor];
    if (side.reactor) pools[gmAnswers || id === null ? DIFFICULTY_POOL : targetPool(id)] = [...side.reactor];
    add(REROLLS_POOL, side.extra);
  }
  for (const [id, faces] of Object.entries(recorded.orderDice ?? {})) pools[orderPool(id)] = [...faces];
  return { command, pools };
}
