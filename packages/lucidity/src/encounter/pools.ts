import { ownGet, type Actor, type DicePool, type EnteredPools, type PoolDice, type PoolOwner } from '@personae/core';
import { seed } from '../citation';
import type { LucidityCommand } from './commands';
import type { LucidityTableState } from './state';

/**
 * The named pools a Lucidity command rolls: the one way physical dice enter it (@personae/core
 * `poolDice`). Commands carry no dice; the rules take a pool's entered faces where they would have
 * rolled it, and roll the pools left out.
 *
 * | command          | pool            | whose                | the dice                                  |
 * |------------------|-----------------|----------------------|-------------------------------------------|
 * | attack, roll     | `d20`           | the actor            | the d20                                   |
 * | attack, roll     | `buffs`, `breaks` | the actor          | the buff and break d6s                    |
 * | attack           | `damage`        | the actor            | the weapon's damage dice                  |
 * | roll             | `against`       | the defender         | an opposed roll's d20 against the actor   |
 * | lucidity-roll    | `d20`, `d20:second` | the actor        | the roll, and the second of a Fate's Gamble |
 * | narrative        | `resistance`    | the target           | its d20 to resist                          |
 * | rest             | `health`        | the resting one      | the d4s of Health regained                 |
 * | start            | `initiative:ID` | combatant `ID`       | its initiative d20                         |
 * | end-turn         | `zero-health:ID` | combatant `ID`      | its end-of-round roll at 0 Health          |
 */

/** The recorded dice fields of a command (scenario files, the CLI), and the pool each fills. */
const FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  attack: { d20: 'd20', buffDice: 'buffs', breakDice: 'breaks', damageDice: 'damage' },
  roll: { d20: 'd20', buffDice: 'buffs', breakDice: 'breaks' },
  'lucidity-roll': { d20: 'd20', d20Second: 'd20:second' },
  narrative: { d20: 'resistance' },
  rest: { healthDice: 'health' },
};
const PER_COMBATANT: Readonly<Record<string, string>> = { start: 'initiative', 'end-turn': 'zero-health' };

const list = (v: unknown): number[] => (Array.isArray(v) ? (v as number[]) : [v as number]);

/**
 * A command written with its dice (as scenario files and the CLI keep them), split into the command
 * and the named pools its dice fill.
 */
export function recordedPools(raw: Readonly<Record<string, unknown>>): { command: Record<string, unknown>; pools: EnteredPools } {
  const command: Record<string, unknown> = { ...raw };
  const pools: Record<string, number[]> = {};
  const type = String(raw.type);
  for (const [field, pool] of Object.entries(FIELDS[type] ?? {})) {
    if (command[field] === undefined) continue;
    // An empty list enters nothing: the pool is rolled.
    if (list(command[field]).length) pools[pool] = list(command[field]);
    delete command[field];
  }
  if (type === 'roll' && raw.against && typeof raw.against === 'object' && 'd20' in raw.against) {
    const { d20, ...against } = raw.against as Record<string, unknown>;
    if (d20 !== undefined) pools.against = list(d20);
    command.against = against;
  }
  const each = PER_COMBATANT[type];
  if (each && raw.dice && typeof raw.dice === 'object') {
    for (const [id, d20] of Object.entries(raw.dice as Record<string, unknown>)) pools[`${each}:${id}`] = list(d20);
    delete command.dice;
  }
  return { command, pools };
}

/** The command with the dice its entered pools hold, in the fields the rules read them from. */
export function withEnteredDice(cmd: LucidityCommand, pools: PoolDice): LucidityCommand {
  const out: Record<string, unknown> = { ...cmd };
  const one = (faces: readonly number[] | undefined) => faces?.[0];
  for (const [field, pool] of Object.entries(FIELDS[cmd.type] ?? {})) {
    const faces = pools.take(pool, sidesOf(pool));
    if (faces) out[field] = field === 'd20' || field === 'd20Second' ? one(faces) : [...faces];
  }
  if (cmd.type === 'roll' && cmd.against) {
    const d20 = one(pools.take('against', 20));
    if (d20 !== undefined) out.against = { ...cmd.against, d20 };
  }
  const each = PER_COMBATANT[cmd.type];
  if (each) {
    const dice: Record<string, number> = {};
    for (const name of Object.keys(pools.entered)) if (name.startsWith(`${each}:`)) dice[name.slice(each.length + 1)] = one(pools.take(name, 20))!;
    if (Object.keys(dice).length) out.dice = dice;
  }
  return out as LucidityCommand;
}

function sidesOf(pool: string): number {
  return pool === 'buffs' || pool === 'breaks' ? 6 : pool === 'health' ? 4 : pool === 'damage' ? 100 : 20;
}

/** Every pool `cmd` may roll, with whose each is, as `viewer` may know them. */
export function dicePools(state: LucidityTableState, cmd: LucidityCommand, viewer: Actor): DicePool[] {
  const owner = (id: string): PoolOwner => {
    const c = ownGet(state.game.combatants, id);
    const shown = c && (!c.hidden || viewer.role === 'gm' || c.controller === viewer.participantId);
    return { kind: 'character', id, controller: c?.controller ?? null, ...(shown ? { name: c.name } : {}) };
  };
  // The acting combatant's own rolls: whether the sender commands it at all is the rules' check, which refuses the whole command.
  const acting = (name: string, who: string, label: string, count?: number): DicePool => ({ ...pool(name, who, label, count), owners: [{ kind: 'own' }] });
  const pool = (name: string, who: string, label: string, count?: number): DicePool => ({ name, owners: [owner(who)], sides: sidesOf(name.split(':')[0]!), ...(count ? { count } : {}), label, rule: seed('How Combat Works') });
  const named = (who: string) => (owner(who) as { name?: string }).name ?? "the GM's combatant";
  switch (cmd.type) {
    case 'attack':
    case 'roll':
      return [
        acting('d20', cmd.actor, `${named(cmd.actor)}'s d20`, 1),
        acting('buffs', cmd.actor, `${named(cmd.actor)}'s buff d6s`),
        acting('breaks', cmd.actor, `${named(cmd.actor)}'s break d6s`),
        ...(cmd.type === 'attack' ? [acting('damage', cmd.actor, `${named(cmd.actor)}'s damage dice`)] : []),
        ...(cmd.type === 'roll' && cmd.against ? [pool('against', cmd.against.id, `${named(cmd.against.id)}'s d20 against the roll`, 1)] : []),
      ];
    case 'lucidity-roll':
      return [acting('d20', cmd.actor, `${named(cmd.actor)}'s d20`, 1), acting('d20:second', cmd.actor, `${named(cmd.actor)}'s second d20`, 1)];
    case 'narrative':
      return [pool('resistance', cmd.target, `${named(cmd.target)}'s d20 to resist`, 1)];
    case 'rest':
      return [pool('health', cmd.id, `${named(cmd.id)}'s Health d4s`)];
    case 'start':
    case 'end-turn': {
      const each = PER_COMBATANT[cmd.type]!;
      // A combatant hidden from the sender has no pool for them: naming it is answered as naming no one.
      const seen = Object.values(state.game.combatants).filter((c) => !c.hidden || viewer.role === 'gm' || c.controller === viewer.participantId);
      return seen.map(({ id }) => pool(`${each}:${id}`, id, `${named(id)}'s ${cmd.type === 'start' ? 'initiative' : 'end-of-round'} d20`, 1));
    }
    default:
      return [];
  }
}
