import { ownGet } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { RuleError } from '../encounter';
import type { TableCommand } from './commands';
import type { TableSettings, TableState, Viewer } from './state';

/**
 * Dice authority: who may type in the results of physical dice, and for which pools. Every way dice
 * enter a table command is listed here, with the pool it fills:
 *
 * | where the dice are                        | the pool they fill                               |
 * |-------------------------------------------|--------------------------------------------------|
 * | `roll` `actor.given`                      | the issuer's own free pool                       |
 * | `roll` `reactor.given`, `gmGiven`         | the opposition (the GM's side, the difficulty)   |
 * | `encounter` `dice.actor`                  | the acting character                             |
 * | `encounter` `dice.reactor`                | the (first) target; for `recover`, the difficulty |
 * | `encounter` `dice.extra`                  | rerolls of either side: actor and targets        |
 * | `encounter` `targetDice[id].actor/reactor/extra` | the actor / that target / both            |
 * | `encounter` `orderDice[id]`               | character `id`'s roll for the action order       |
 * | the envelope's `dice` (every roll in turn) | every pool the command rolls, the opposition's too |
 *
 * The GM, who controls every character for a command, may fill any pool. A player fills only the
 * pools of characters they own and their own free pool, and only when the table accepts physical
 * dice (setting physicalDice); the opposition's pools, and the envelope's dice (which would fill the
 * opposition's pools too), are the GM's.
 */
export type DicePool = { readonly kind: 'own' } | { readonly kind: 'character'; readonly id: string } | { readonly kind: 'opposition' };

export interface DiceEntry {
  readonly field: string;
  readonly pool: DicePool;
}

/** Every pool the dice entered with `command` fill. `envelope`: whether the envelope carried dice. */
export function diceEntries(command: TableCommand, envelope: boolean): DiceEntry[] {
  const out: DiceEntry[] = [];
  if (envelope) out.push({ field: 'dice', pool: { kind: 'opposition' } });
  if (command.type === 'roll') {
    if (command.actor.given) out.push({ field: 'command.actor.given', pool: { kind: 'own' } });
    if (command.reactor?.given) out.push({ field: 'command.reactor.given', pool: { kind: 'opposition' } });
    if (command.gmGiven) out.push({ field: 'command.gmGiven', pool: { kind: 'opposition' } });
    return out;
  }
  if (command.type !== 'encounter') return out;
  const inner = command.command as Record<string, unknown> & { type: string; actor: string };
  const targets = [...(typeof inner.target === 'string' ? [inner.target] : []), ...(Array.isArray(inner.targets) ? (inner.targets as string[]) : [])];
  const character = (id: string | undefined): DicePool => (id === undefined || id === 'gm' ? { kind: 'opposition' } : { kind: 'character', id });
  const given = (field: string, dice: unknown, reactor: string | undefined, others: readonly string[]) => {
    if (!dice || typeof dice !== 'object') return;
    const d = dice as Record<string, unknown>;
    if (d.actor !== undefined) out.push({ field: `${field}.actor`, pool: character(inner.actor) });
    if (d.reactor !== undefined) out.push({ field: `${field}.reactor`, pool: character(reactor) });
    if (d.extra !== undefined) for (const id of [inner.actor, ...others]) out.push({ field: `${field}.extra`, pool: character(id) });
  };
  given('command.command.dice', inner.dice, inner.type === 'recover' ? undefined : targets[0], inner.type === 'recover' ? ['gm'] : targets.length ? targets : ['gm']);
  if (inner.targetDice && typeof inner.targetDice === 'object') {
    for (const [id, dice] of Object.entries(inner.targetDice as Record<string, unknown>)) given(`command.command.targetDice.${id}`, dice, id, [id]);
  }
  if (inner.orderDice && typeof inner.orderDice === 'object') {
    for (const id of Object.keys(inner.orderDice as Record<string, unknown>)) out.push({ field: `command.command.orderDice.${id}`, pool: character(id) });
  }
  return out;
}

/** Refuses dice the viewer may not enter; the GM may enter any. */
export function requireDiceAuthority(state: TableState, viewer: Viewer, command: TableCommand, dice: DiceSource, settings: TableSettings | undefined): void {
  if (viewer.role === 'gm') return;
  const entries = diceEntries(command, dice.kind === 'given');
  if (entries.length === 0) return;
  if (!settings?.physicalDice) throw new RuleError('physical-dice-off', 'this table does not accept results of physical dice from players (setting physicalDice)', entries[0]!.field);
  for (const { field, pool } of entries) {
    if (pool.kind === 'own') continue;
    if (pool.kind === 'character' && ownGet(state.characters, pool.id)?.owner === viewer.participantId) continue;
    const whose = pool.kind === 'opposition' || field === 'dice' ? 'the opposition (the GM rolls for it)' : 'a character you do not play';
    throw new RuleError('not-your-dice', `${field}: these dice fill the pool of ${whose}; a player enters dice only for their own characters' pools`, field);
  }
}
