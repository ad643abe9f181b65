import { recordedDice, withSecretRolls, type Actor, type Decider, type EnteredPools, type SecretRollRules, type TypedOutcome } from '@personae/core';
import { rollChance } from '../odds';
import { d20Succeeds } from '../roll';
import { resolveOptions } from '../options';
import type { LucidityCommand } from './commands';
import type { LucidityEvent, RollRecord } from './events';
import { dicePools } from './pools';
import type { LucidityTableState } from './state';

/**
 * Secret rolls and the fairness check of typed dice at a Lucidity table (withSecretRolls in
 * @personae/core). A roll is secret when players are not shown its dice: a hidden combatant's attack
 * (players see what it did to them, never its d20), its rolls and initiative. The table reveals them
 * all at the end of each round, or when a combatant rests, when the GM sets it so.
 */

/** The fields of Lucidity events that hold dice (the d20s, buff and break d6s, damage and Health dice). */
const DICE_FIELDS: ReadonlySet<string> = new Set(['d20', 'buffDice', 'breakDice', 'damageDice', 'healthDice']);

/** The dice a Lucidity event records, in order. */
export function lucidityDiceOf(event: unknown): number[] {
  return recordedDice(event, DICE_FIELDS);
}

/** The d20s of the pools typed in: the fairness check tests the d20 (lucidity-primary-character.txt "Rolls"). */
function typedFaces(entered: EnteredPools, command: LucidityCommand, before: LucidityTableState, actor: Actor): number[] {
  const pools = dicePools(before, command, actor);
  return Object.entries(entered).flatMap(([name, faces]) => (pools.find((p) => p.name === name)?.sides === 20 ? [...faces] : []));
}

function chanceOf(roll: RollRecord, state: LucidityTableState): number | null {
  if (roll.guaranteed || roll.lucidity || roll.d20 < 1) return null;
  const opts = resolveOptions(state.preset, state.overrides);
  const modifier = roll.modifiers.reduce((s, m) => s + m.value, 0);
  const dice = (ds: readonly number[]) => (ds.length ? Math.max(...ds) : 0);
  // Only a roll its own record decides the same way (d20, modifiers, the highest buff less the highest break) has this chance.
  if (d20Succeeds(roll.d20, roll.d20 + modifier + dice(roll.buffDice) - dice(roll.breakDice), roll.target, opts) !== roll.success) return null;
  return rollChance({ modifier, target: roll.target, buffs: roll.buffDice.length, breaks: roll.breakDice.length }, opts);
}

/**
 * One outcome per roll whose d20 the issuer typed in: an attack or a roll, with the exact chance that
 * its d20, buffs and breaks reach its target (rollChance, the walk behind `personae lucidity odds`).
 */
function typedOutcomes(events: readonly LucidityEvent[], before: LucidityTableState, entered: EnteredPools): TypedOutcome[] {
  if (!entered.d20) return [];
  const out: TypedOutcome[] = [];
  for (const e of events) {
    if (e.type !== 'attacked' && (e.type !== 'rolled' || e.data.against !== null)) continue;
    const chance = chanceOf(e.data.roll, before);
    if (chance !== null) out.push({ chance, succeeded: e.data.roll.success });
  }
  return out;
}

export const luciditySecretRolls: SecretRollRules<LucidityTableState, LucidityCommand, LucidityEvent> = {
  diceOf: lucidityDiceOf,
  diceFields: DICE_FIELDS,
  ends: { round: (e) => e.type === 'turn-ended' && e.data.newRound, rest: (e) => e.type === 'rested' },
  typed: { sides: 20, faces: typedFaces, outcomes: typedOutcomes },
};

/** A Lucidity table with secret rolls and the fairness check. */
export function lucidityTable(inner: Decider<LucidityTableState, LucidityCommand, LucidityEvent>) {
  return withSecretRolls(inner, luciditySecretRolls);
}
