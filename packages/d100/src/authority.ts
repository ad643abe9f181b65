import { asPoolDice, mayFillPool, ownGet, requireEnteredPools, RuleError, withArticle, type Actor, type DecideContext, type DicePool, type PoolOwner } from '@personae/core';
import type { EncounterCommand } from './commands';
import { protectorFor, type Fighter } from './fighter';
import { commandPools, type PoolScene } from './pools';
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

/** What the pool declaration reads of the table beyond the fighters: which characters are hidden, and the last attack's attacker. */
export type PoolState = Controlled & { readonly sheets?: Readonly<Record<string, { readonly hidden?: boolean } | undefined>> };

/** The pools `command` rolls (./pools.ts), with whose they are, as `viewer` may know them: a character hidden from a player has no pool for them. */
export function dicePools(state: PoolState, command: EncounterCommand, viewer: Actor, lastAttacker: string | null = null): DicePool[] {
  const shown = (id: string) => viewer.role === 'gm' || !ownGet(state.sheets ?? {}, id)?.hidden || controllerOf(state, id) === viewer.participantId;
  const owner = (id: string): PoolOwner => {
    const f = ownGet(state.fighters, id);
    return { kind: 'character', id, controller: controllerOf(state, id), ...(f && shown(id) ? { name: f.name } : {}) };
  };
  const scene: PoolScene = {
    ids: Object.keys(state.fighters).filter(shown),
    lastAttacker,
    grappler: (id) => ownGet(state.fighters, id)?.conditions.grappledBy ?? null,
    distracted: (id) => ownGet(state.fighters, id)?.conditions.distracting ?? null,
  };
  return commandPools(command, scene).map((p) => {
    const o = owner(p.who);
    const whose = o.kind === 'character' && o.name ? `${o.name}'s` : "the GM's character's";
    return { name: p.name, owners: [o], sides: p.sides, label: `${whose} ${p.what}`, rule: p.rule };
  });
}


/** The attack settings the GM rules on: a player's attack takes them from the sheets. */
const GM_ATTACK_FIELDS = ['attackTarget', 'evasionTarget', 'damage', 'tier', 'advantages'] as const;

/**
 * Refuses what the sender of `command` may not do beyond the rules themselves: a player declaring
 * what only the GM rules (targets, damage, advantages), and physical dice that would fill another
 * character's roll (the defender's evasion, an ally's part of an All Out Attack, the next turn's
 * Blood Loss test). The GM may enter any dice.
 */
export function requireAuthority(state: PoolState, command: EncounterCommand, ctx: DecideContext, lastAttacker: string | null = null): void {
  const actor = ctx.actor;
  const entered = asPoolDice(ctx.dice).entered;
  if (Object.keys(entered).length) {
    const declared = dicePools(state, command, actor, lastAttacker);
    // A player hears only of the pools they could fill, so a refusal names no hidden character.
    requireEnteredPools(entered, declared, ctx, withArticle(`${command.type} command`), declared.filter((p) => mayFillPool(p, actor)));
  }
  if (actor.role === 'gm') return;
  if (actor.role !== 'player') refuse('observer', 'observers watch the table; they cannot change it', 'type');
  if (command.type === 'attack') {
    // "Fate Points", Block Heavy Wound: the points of the character the hit lands on, spent only by whoever
    // plays it; "Defending and Protecting": a protected ally's hit lands on its protector
    const struck = command.called && command.ignoreProtector ? command.defender : (protectorFor(state.fighters, command.attacker, command.defender)?.id ?? command.defender);
    if (command.fateBlocks > 0 && !controls(state, actor, struck)) {
      const whose = struck === command.defender ? "the defender's Fate Points are" : "the hit lands on the defender's protector, whose Fate Points are";
      throw new RuleError('not-your-fate-points', `fateBlocks: ${whose} spent by whoever plays it, not by the attacker; its player declares them with fate-block`, 'fateBlocks', ruleCitation('fatePoints'));
    }
    const raw = command as Record<string, unknown>;
    for (const field of GM_ATTACK_FIELDS) {
      const value = raw[field];
      if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
      refuse('gm-only', `${field}: only the GM sets an attack's ${field} (the sheet gives the player's)`, field);
    }
  }
}
