import { asPoolDice, ownGet, requireEnteredPools, RuleError, type Actor, type DecideContext, type DicePool, type PoolOwner } from '@personae/core';
import type { EncounterCommand } from './commands';
import { canOppose, type Fighter } from './fighter';
import { ruleCitation } from './rules';

/**
 * Who plays which character at a d100 table, and what a player may enter. A character is controlled
 * by the participant it was added for (a player's own sheet, or one the GM handed over); the GM
 * controls every other one and may act for any character. The host hands `decide` the participant
 * who sent the command, and these checks run before any rule is applied.
 */

/** What the checks read of an encounter: its fighters, and the participant controlling each (absent or null: the GM). */
export interface Controlled {
  readonly fighters: Readonly<Record<string, Fighter>>;
  readonly controllers?: Readonly<Record<string, string | null>>;
}

/** The participant controlling `id`, or null when the GM does. */
export function controllerOf(state: Controlled, id: string): string | null {
  return ownGet(state.controllers ?? {}, id) ?? null;
}

/** Whether `actor` may act for character `id`: the GM always, a player for the characters they control. */
export function controls(state: Controlled, actor: Actor, id: string): boolean {
  return actor.role === 'gm' || (actor.role === 'player' && controllerOf(state, id) === actor.participantId);
}

function refuse(code: string, message: string, field: string): never {
  throw new RuleError(code, message, field, ruleCitation('structuredTime'));
}

/**
 * The one pool of physical dice a d100 command takes: "rolls", every roll the command makes in the
 * order it makes them. It is the roller's own for an attack (with the defender's evasion when the
 * defender can oppose, and the attack's every participant in an All Out Attack); any other command's
 * rolls are the GM's to enter.
 */
export const ROLLS_POOL = 'rolls';

/** The pools `command` rolls, with whose they are. */
export function dicePools(state: Controlled & { readonly sheets?: Readonly<Record<string, { readonly hidden?: boolean } | undefined>> }, command: EncounterCommand, viewer: Actor): DicePool[] {
  const character = (id: string): PoolOwner => {
    const f = ownGet(state.fighters, id);
    const shown = viewer.role === 'gm' || !ownGet(state.sheets ?? {}, id)?.hidden || controllerOf(state, id) === viewer.participantId;
    return { kind: 'character', id, controller: controllerOf(state, id), ...(f && shown ? { name: f.name } : {}) };
  };
  let owners: PoolOwner[];
  if (command.type === 'attack') {
    const defender = ownGet(state.fighters, command.defender);
    owners = [character(command.attacker), ...(defender && canOppose(defender) ? [character(command.defender)] : [])];
  } else if (command.type === 'all-out-attack') owners = command.participants.map((p) => character(p.id));
  else owners = [{ kind: 'opposition' }];
  return [{ name: ROLLS_POOL, owners, sides: 100, label: `every roll of the ${command.type} in turn`, rule: ruleCitation('structuredTime') }];
}

/** The attack settings the GM rules on: a player's attack takes them from the sheets. */
const GM_ATTACK_FIELDS = ['attackTarget', 'evasionTarget', 'damage', 'tier', 'advantages'] as const;

/**
 * Refuses what the sender of `command` may not do beyond the rules themselves: a player declaring
 * what only the GM rules (targets, damage, advantages), and physical dice that would fill another
 * character's roll (the defender's evasion, an ally's part of an All Out Attack, the next turn's
 * Blood Loss test). The GM may enter any dice.
 */
export function requireAuthority(state: Controlled, command: EncounterCommand, ctx: DecideContext): void {
  const actor = ctx.actor;
  requireEnteredPools(asPoolDice(ctx.dice).entered, dicePools(state, command, actor), ctx, `a ${command.type} command`);
  if (actor.role === 'gm') return;
  if (actor.role !== 'player') refuse('observer', 'observers watch the table; they cannot change it', 'type');
  if (command.type === 'attack') {
    const raw = command as Record<string, unknown>;
    for (const field of GM_ATTACK_FIELDS) {
      const value = raw[field];
      if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
      refuse('gm-only', `${field}: only the GM sets an attack's ${field} (the sheet gives the player's)`, field);
    }
  }
}
