import { knownRoll, rollPool, type DiceSource, type Roll } from '@personae/dice';
import type { Citation } from './citation';
import type { Actor, HostSettings } from './decider';
import { RuleError } from './errors';

/**
 * Named dice pools: the one way results of physical dice enter a command. Every roll a command makes
 * belongs to a pool with a name ("actor", "target:orc-2", "order:ana", "d20", ...); the command's
 * envelope may carry the faces of any pool, typed in at the table, and the host rolls every pool left
 * out. A ruleset declares, for a command and the state, which pools the command rolls and whose they
 * are; `requireEnteredPools` checks the entered pools against that declaration, and the source
 * `poolDice` refuses an entered pool the command rolled a different number of dice in.
 */

/** Faces typed in from physical dice, by the name of the pool they fill. */
export type EnteredPools = Readonly<Record<string, readonly number[]>>;

/** Whose roll a pool is. */
export type PoolOwner =
  /** The issuer's own roll, not a character's (a free roll typed in at the table). */
  | { readonly kind: 'own' }
  /** The GM's side: the opposition, a difficulty. */
  | { readonly kind: 'opposition' }
  /** A character's roll; `controller`: the participant playing it (null: the GM); `name` only when the issuer may see it. */
  | { readonly kind: 'character'; readonly id: string; readonly controller: string | null; readonly name?: string };

/** A pool a command rolls, as its ruleset declares it. */
export interface DicePool {
  readonly name: string;
  /** Whose roll it is; a pool shared by several (rerolls of either side) lists each. */
  readonly owners: readonly PoolOwner[];
  /** Faces of its dice, 1 to `sides`. */
  readonly sides: number;
  /** How many dice it rolls, when the ruleset knows it before rolling. */
  readonly count?: number;
  /** Words for people: "Ana's attack", "the GM's difficulty dice". */
  readonly label: string;
  /** The rule that makes the roll. */
  readonly rule?: Citation;
}

const POOL_NAME = /^[A-Za-z0-9._:-]{1,120}$/;

/** Whether `name` can name a pool: 1-120 letters, digits, ".", "_", ":" or "-". */
export function isPoolName(name: string): boolean {
  return POOL_NAME.test(name);
}

function whose(owner: PoolOwner): string {
  if (owner.kind === 'opposition') return "the GM's side";
  if (owner.kind === 'own') return 'your own roll';
  return owner.name ? `${owner.name}'s roll` : "the GM's side";
}

function faceProblem(pool: string, faces: readonly number[], sides: number, rule: Citation | undefined): void {
  faces.forEach((value, i) => {
    if (!Number.isInteger(value) || value < 1 || value > sides) {
      throw new RuleError('dice-face', `dice.${pool}: die #${i + 1} is ${value}, but a d${sides} shows 1 to ${sides}`, `dice.${pool}`, rule);
    }
  });
}

/**
 * The one dice-authority check over a ruleset's declaration: every entered pool must be one the
 * command rolls, with faces its dice can show and, where the declaration knows it, as many dice as it
 * rolls. The GM may fill any pool; a player fills only their own free pool and the pools of characters
 * they control, and only when the table accepts physical dice (setting physicalDice). A host that
 * passes no settings (a replayed scenario, a test) is taken to accept them.
 */
export function requireEnteredPools(
  entered: EnteredPools,
  declared: readonly DicePool[],
  ctx: { readonly actor: Actor; readonly settings?: HostSettings | undefined },
  command = 'this command',
  /** The pools a refusal lists as the ones the command rolls (default: all), so that it names no hidden character. */
  listed: readonly DicePool[] = declared,
): void {
  const names = Object.keys(entered);
  if (names.length === 0) return;
  if (ctx.actor.role === 'observer') throw new RuleError('forbidden', 'observers watch the table; they cannot enter dice', `dice.${names[0]}`);
  if (ctx.actor.role === 'player' && ctx.settings && !ctx.settings.physicalDice) {
    throw new RuleError('physical-dice-off', `dice.${names[0]}: this table does not take results of physical dice from players (setting physicalDice)`, `dice.${names[0]}`);
  }
  for (const name of names) {
    const pool = declared.find((p) => p.name === name);
    if (!pool) {
      const rolled = listed.length ? `it rolls ${listed.map((p) => `"${p.name}" (${p.label})`).join(', ')}` : `it rolls no dice${ctx.actor.role === 'gm' ? '' : ' you may enter'}`;
      throw new RuleError('dice-pool', `dice.${name}: ${command} rolls no pool "${name}"; ${rolled}`, `dice.${name}`);
    }
    const faces = entered[name]!;
    faceProblem(name, faces, pool.sides, pool.rule);
    if (pool.count !== undefined && faces.length !== pool.count) {
      throw new RuleError('dice-count', `dice.${name}: ${faces.length} ${faces.length === 1 ? 'die was' : 'dice were'} entered for ${pool.label}, which rolls ${pool.count}`, `dice.${name}`, pool.rule);
    }
    if (ctx.actor.role === 'gm') continue;
    for (const owner of pool.owners) {
      if (owner.kind === 'own') continue;
      if (owner.kind === 'character' && owner.controller !== null && owner.controller === ctx.actor.participantId) continue;
      const shared = pool.owners.length > 1 ? 'includes' : 'is';
      // A ruleset that lists the player's own pools apart has the refusal name them, and only them.
      const yours = listed === declared ? '' : listed.length ? `; in ${command} you may fill ${listed.map((p) => `"${p.name}" (${p.label})`).join(', ')}` : `; ${command} rolls no dice you may enter`;
      throw new RuleError('not-your-dice', `dice.${name}: ${pool.label} ${shared} ${whose(owner)}; a player enters dice only for their own rolls and the characters they play${yours}`, `dice.${name}`, pool.rule);
    }
  }
}

/** Whether `actor` may fill `pool`: the GM any; a player their own free roll and the pools of the characters they play, and no pool shared with anyone else. */
export function mayFillPool(pool: DicePool, actor: Actor): boolean {
  return actor.role === 'gm' || (actor.role === 'player' && pool.owners.every((o) => o.kind === 'own' || (o.kind === 'character' && o.controller !== null && o.controller === actor.participantId)));
}

/** A dice source that rolls named pools: a pool's entered faces when the table typed them in, otherwise the host's dice. */
export interface PoolDice extends DiceSource {
  /** The pools typed in. */
  readonly entered: EnteredPools;
  /**
   * `count` dice of pool `name`: its entered faces (exactly that many) or the host's. `what` names the
   * roll in a refusal ("Aldric's roll"); a function is called only when the roll is refused.
   */
  roll(name: string, count: number, sides?: number, rule?: Citation, what?: string | (() => string)): Roll;
  /**
   * The entered faces of pool `name`, each checked against a d`sides`, taken whole (for rules that
   * take dice already rolled and roll the rest themselves); undefined when the pool was not entered.
   */
  take(name: string, sides: number, rule?: Citation): readonly number[] | undefined;
  /** Pool `name` as a source for rolls whose number is known only while rolling (rerolls): its entered faces in order, or the host's. */
  pool(name: string): DiceSource;
  /** Refuses an entered pool the command rolled fewer (or more) dice in than were entered. */
  finish(): void;
}

/**
 * Dice for one command: the entered pools, then the host's source for every pool left out. A roll
 * outside any pool (`die`) is the host's. The count of a pool is checked when it is rolled (`roll`)
 * or when the command is done (`finish`); a face out of range is refused when it is drawn.
 */
export function poolDice(entered: EnteredPools, host: DiceSource): PoolDice {
  const drawn = new Map<string, number>();
  const short = new Map<string, number>();
  const check = (name: string, faces: readonly number[], sides: number, rule?: Citation) => faceProblem(name, faces, sides, rule);
  return {
    kind: host.kind,
    entered,
    die: (sides) => host.die(sides),
    roll(name, count, sides = 10, rule, what = 'this roll') {
      const faces = entered[name];
      if (!faces) return rollPool(host, count, sides);
      check(name, faces, sides, rule);
      if (faces.length !== count) {
        throw new RuleError('dice-count', `dice.${name}: ${faces.length} ${faces.length === 1 ? 'die was' : 'dice were'} entered, but ${typeof what === 'function' ? what() : what} takes ${count}`, `dice.${name}`, rule);
      }
      drawn.set(name, faces.length);
      return knownRoll(faces, 'given', sides);
    },
    take(name, sides, rule) {
      const faces = entered[name];
      if (!faces) return undefined;
      check(name, faces, sides, rule);
      drawn.set(name, faces.length);
      return faces;
    },
    pool(name) {
      const faces = entered[name];
      if (!faces) return host;
      return {
        kind: 'given',
        die(sides) {
          const used = drawn.get(name) ?? 0;
          if (used >= faces.length) {
            short.set(name, (short.get(name) ?? 0) + 1);
            return host.die(sides);
          }
          check(name, [faces[used]!], sides);
          drawn.set(name, used + 1);
          return faces[used]!;
        },
      };
    },
    finish() {
      for (const [name, faces] of Object.entries(entered)) {
        const used = drawn.get(name) ?? 0;
        const rolled = used + (short.get(name) ?? 0);
        if (rolled === 0) throw new RuleError('dice-pool', `dice.${name}: ${faces.length} ${faces.length === 1 ? 'die was' : 'dice were'} entered, but the command rolled nothing in pool "${name}"`, `dice.${name}`);
        if (rolled !== faces.length) {
          throw new RuleError('dice-count', `dice.${name}: ${faces.length} ${faces.length === 1 ? 'die was' : 'dice were'} entered, but the command rolled ${rolled} in pool "${name}"`, `dice.${name}`);
        }
      }
    },
  };
}

/** A plain source as a pool source with nothing entered (simulations, tests, the CLI's seeded dice). */
export function asPoolDice(dice: DiceSource): PoolDice {
  return isPoolDice(dice) ? dice : poolDice({}, dice);
}

export function isPoolDice(dice: DiceSource): dice is PoolDice {
  return typeof (dice as Partial<PoolDice>).roll === 'function' && typeof (dice as Partial<PoolDice>).finish === 'function';
}
