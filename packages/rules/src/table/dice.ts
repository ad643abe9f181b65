import { asPoolDice, mayFillPool, ownGet, requireEnteredPools, withArticle, type DicePool, type PoolOwner } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { rule } from '../encounter/errors';
import { ACTOR_POOL, actorPool, DIFFICULTY_POOL, orderPool, REROLLS_POOL, targetPool } from '../encounter/pools';
import { encounterOnlyHidden } from './hidden';
import type { TableCommand } from './commands';
import type { TableSettings, TableState, Viewer } from './state';

/**
 * Dice authority at a Personae table: the named pools a command rolls (encounter/pools.ts names
 * them), whose each is, and the one check of the pools a participant typed in. The GM may fill any
 * pool; a player fills their own free pool and the pools of characters they play, and only when the
 * table accepts physical dice (setting physicalDice). Pools left out are rolled by the table.
 */

const OPPOSITION: PoolOwner = { kind: 'opposition' };
const CHALLENGE = rule('core', 'The Challenge');

/**
 * Whose roll a character's pool is, with its name only for a viewer who may see the character: of
 * the characters that exist only in the encounter, only obstacles and hazards the GM left in the open.
 */
function characterOwner(state: TableState, viewer: Viewer, id: string): PoolOwner {
  if (id === 'gm') return OPPOSITION;
  const c = ownGet(state.characters, id);
  const def = ownGet(state.encounter.now?.characters ?? {}, id)?.def;
  const shown = viewer.role === 'gm' || (c ? !c.hidden || c.owner === viewer.participantId : def !== undefined && !encounterOnlyHidden(def));
  const name = c?.sheet.name ?? def?.name;
  return { kind: 'character', id, controller: c?.owner ?? null, ...(shown && name ? { name } : {}) };
}

function whose(owner: PoolOwner): string {
  return owner.kind === 'character' && owner.name ? `${owner.name}'s` : "the GM's";
}

/** Every pool `command` rolls in the table's state, as `viewer` sees them. */
export function dicePools(state: TableState, viewer: Viewer, command: TableCommand): DicePool[] {
  const pool = (name: string, owners: readonly PoolOwner[], label: string, citation = CHALLENGE): DicePool => ({ name, owners, sides: 10, label, rule: citation });
  if (command.type === 'roll') {
    const own: PoolOwner = { kind: 'own' };
    return [
      pool(ACTOR_POOL, [own], `${command.actor.name}'s roll`),
      command.difficulty !== undefined ? pool(DIFFICULTY_POOL, [OPPOSITION], "the GM's difficulty dice", rule('core', 'Unopposed Challenges')) : pool('reactor', [OPPOSITION], `${command.reactor?.name ?? 'the reactor'}'s roll`),
      pool(REROLLS_POOL, [OPPOSITION], 'rerolls'),
    ];
  }
  if (command.type !== 'encounter') return [];
  const inner = command.command;
  const actor = characterOwner(state, viewer, inner.actor);
  switch (inner.type) {
    case 'attack':
    case 'power':
    case 'interact':
    case 'inquire': {
      if (inner.type === 'interact' && inner.subsequent) return [];
      const raw = inner as { target?: string; targets?: string[] };
      const targets = raw.targets ?? (raw.target !== undefined ? [raw.target] : []);
      const out: DicePool[] = [];
      targets.forEach((id, k) => {
        const target = characterOwner(state, viewer, id);
        const against = target.kind === 'character' && target.name ? target.name : 'its target';
        out.push(pool(actorPool(id, k), [actor], `${whose(actor)} roll against ${against}`), pool(targetPool(id), [target], `${whose(target)} answer`));
      });
      return [...out, pool(REROLLS_POOL, [actor, ...targets.map((id) => characterOwner(state, viewer, id))], 'rerolls of either side')];
    }
    case 'unopposed':
      return [
        pool(ACTOR_POOL, [actor], `${whose(actor)} roll`),
        pool(DIFFICULTY_POOL, [OPPOSITION], "the GM's difficulty dice", rule('core', 'Unopposed Challenges')),
        pool(REROLLS_POOL, [actor, OPPOSITION], 'rerolls of either side'),
      ];
    case 'recover': {
      const who = characterOwner(state, viewer, inner.target ?? inner.actor);
      const healing = rule('core', 'Healing and Recovery');
      return [pool(ACTOR_POOL, [who], `${whose(who)} recovery roll`, healing), pool(DIFFICULTY_POOL, [OPPOSITION], "the GM's recovery dice", healing), pool(REROLLS_POOL, [who, OPPOSITION], 'rerolls of either side')];
    }
    case 'escalate': {
      // Only violence has an action order, and only a method other than seating rolls for it.
      if (inner.to !== 'violent' || state.encounter.now?.options.actionOrder === 'seating') return [];
      // A character hidden from the sender has no pool for them: naming it is answered as naming no one.
      const hiddenFrom = (id: string) => {
        const c = ownGet(state.characters, id);
        return viewer.role !== 'gm' && c !== undefined && c.hidden && c.owner !== viewer.participantId;
      };
      const seated = Object.values(state.encounter.now?.characters ?? {}).filter((c) => c.present && !hiddenFrom(c.def.id));
      return seated.map((c) => {
        const owner = characterOwner(state, viewer, c.def.id);
        return pool(orderPool(c.def.id), [owner], `${whose(owner)} roll for the action order`, rule('core', 'The Action Order, and Actions'));
      });
    }
    default:
      return [];
  }
}

/** Refuses pools the viewer may not fill, or that the command does not roll; the GM may fill any the command rolls. */
export function requireDiceAuthority(state: TableState, viewer: Viewer, command: TableCommand, dice: DiceSource, settings: TableSettings | undefined): void {
  const entered = asPoolDice(dice).entered;
  if (Object.keys(entered).length === 0) return;
  const declared = dicePools(state, viewer, command);
  // A player hears only of the pools they could fill, so the refusal names no hidden character.
  const listed = declared.filter((p) => mayFillPool(p, viewer));
  requireEnteredPools(entered, declared, { actor: viewer, settings }, withArticle(`${command.type === 'encounter' ? command.command.type : command.type} command`), listed);
}
