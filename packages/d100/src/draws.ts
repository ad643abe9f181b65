import type { PoolDice } from '@personae/core';
import type { DiceSource } from '@personae/dice';

/**
 * Dice that know the named pools of a command (./pools.ts): a rule asks for a die from the pool of
 * whoever rolls it. Plain dice (a scenario's given dice, a replay's recorded ones) ignore the names
 * and hand out their dice in order, so the same rules run on both.
 */

/** A command's dice, each die drawn from the pool its use names; a die drawn without a name comes from the command's own pool. */
export interface TableDice extends DiceSource {
  /** The dice of pool `name`: its entered faces in order, then the host's. */
  in(name: string): DiceSource;
}

/** A table source that also tells how many dice each pool gave. */
export interface CountedTableDice extends TableDice {
  drawnFrom(name: string): number;
}

/** The pools of `pools` as a table source; an unnamed draw takes pool `own`. */
export function tableDice(pools: PoolDice, own: string): CountedTableDice {
  const counts = new Map<string, number>();
  const source = (name: string): DiceSource => {
    const from = pools.pool(name);
    return { kind: from.kind, die: (sides) => (counts.set(name, (counts.get(name) ?? 0) + 1), from.die(sides)) };
  };
  return { kind: pools.kind, die: (sides) => source(own).die(sides), in: source, drawnFrom: (name) => counts.get(name) ?? 0 };
}

/** `dice` drawing from pool `name` when it knows pools, otherwise `dice` itself (a scenario's given dice, a replay). */
export function drawIn(dice: DiceSource, name: string): DiceSource {
  return typeof (dice as Partial<TableDice>).in === 'function' ? (dice as TableDice).in(name) : dice;
}

/** `dice`, recording every die drawn in order, whichever pool it came from. */
export function recordingPools(dice: DiceSource): { dice: TableDice; drawn: number[] } {
  const drawn: number[] = [];
  const record = (from: DiceSource): DiceSource => ({ kind: from.kind, die: (sides) => { const v = from.die(sides); drawn.push(v); return v; } });
  const own = record(dice);
  return { dice: { kind: dice.kind, die: own.die, in: (name) => record(drawIn(dice, name)) }, drawn };
}
