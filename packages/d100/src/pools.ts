import type { EncounterCommand } from './commands';
import { ANALYSE_CITATION as DISRUPT_CITATION, ruleCitation, seed, type RuleId } from './rules';
import type { Citation } from '@personae/core';

const LOCATION_CITE = seed('How Attacks Work');

/**
 * The named pools of a d100 command: the one way physical dice enter it (@personae/core
 * `poolDice`). Each die a command draws belongs to the character who rolls it, so that a player may
 * type in their own attack roll while the table rolls the defender's evasion.
 *
 * | command                                   | pool               | whose                 | the dice                                         |
 * |-------------------------------------------|--------------------|-----------------------|--------------------------------------------------|
 * | attack, grapple, trick                    | `attack`           | the attacker          | the attack roll (two against a Condemned target), and its rolls again to break a tie (opposedTie=reroll) |
 * | attack, grapple, trick                    | `evasion`          | the defender          | the evasion roll, and its rolls again to break a tie |
 * | attack, trick                             | `location`         | the attacker          | hit locations (a Burst's extra hits too)         |
 * | attack                                    | `actor`            | the attacker          | the Agility test against a Shocked defender      |
 * | test, movement-test, move, fall, staunch, disengage, distract, scary-face, escape-grapple, end-ailment | `actor` | the one acting (`who`) | its tests, and the location of a fall or terrain damage |
 * | disengage, distract, scary-face, escape-grapple | `target:ID`  | character ID          | its opposing test (and its rolls again to break a tie) |
 * | reload (with `hurry`)                     | `actor`            | the one reloading     | the hurry test                                   |
 * | inflict-ailment (with `resist`)           | `target:ID`        | the target            | its test to resist the ailment                   |
 * | all-out-attack                            | `actor:ID`         | participant ID        | its roll                                         |
 * | spend-fate (reroll), force-reroll         | `reroll`           | whose test is rolled again | the new roll                                |
 * | spend-fate (reroll), force-reroll         | `location`         | the last attack's attacker | a location the new roll makes necessary     |
 * | start                                     | `initiative:ID`    | character ID          | its d10 roll-offs for a tie                      |
 * | start, end-turn                           | `turn:ID`          | character ID          | its tests at a turn's end or start (Frozen, Blood Loss, Confused, Miasma) and a crash's location |
 * | any but undo                              | `exhaustion:ID`    | character ID          | an Exhausted character's Toughness test after Stress |
 */

/** What the declaration reads of an encounter. */
export interface PoolScene {
  /** The characters whose per-character pools (initiative, turn, exhaustion) may be named. */
  readonly ids: readonly string[];
  /** The attacker of the last command, when it was an attack (a reroll may need a new location). */
  readonly lastAttacker?: string | null;
  /** Who grapples `id`, if anyone. */
  readonly grappler?: (id: string) => string | null;
  /** Whom `id` is distracting, if anyone (a forced reroll is theirs). */
  readonly distracted?: (id: string) => string | null;
}

/** A pool a command rolls: its name, the character whose roll it is, its dice, and what they are for. */
export interface CommandPool {
  readonly name: string;
  readonly who: string;
  readonly sides: number;
  /** What the dice are for, without the character's name ("attack roll"). */
  readonly what: string;
  readonly rule: Citation;
}

const ROLL: Readonly<Partial<Record<EncounterCommand['type'], RuleId>>> = {
  test: 'structuredTime',
  'movement-test': 'disengage',
  move: 'disengage',
  fall: 'flight',
  staunch: 'bloodLoss',
  disengage: 'disengage',
  'escape-grapple': 'grappled',
  'end-ailment': 'ailments',
};

/** Every pool `command` may roll, with the character whose roll each is. */
export function commandPools(command: EncounterCommand, scene: PoolScene): CommandPool[] {
  const pool = (name: string, who: string, what: string, rule: Citation, sides = 100): CommandPool => ({ name, who, sides, what, rule });
  const exhaustion = scene.ids.map((id) => pool(`exhaustion:${id}`, id, 'Toughness test while Exhausted', ruleCitation('fatigue')));
  const withExhaustion = (pools: CommandPool[]) => [...pools, ...exhaustion];
  const attackCite = ruleCitation('damage');
  switch (command.type) {
    case 'attack':
      return withExhaustion([
        pool('attack', command.attacker, 'attack roll', attackCite),
        pool('evasion', command.defender, 'evasion roll', attackCite),
        pool('location', command.attacker, 'hit location roll', LOCATION_CITE),
        pool('actor', command.attacker, 'Agility test against a Shocked defender', ruleCitation('ailments')),
      ]);
    case 'grapple':
    case 'trick':
      return withExhaustion([
        pool('attack', command.attacker, 'attack roll', command.type === 'grapple' ? ruleCitation('grapple') : attackCite),
        pool('evasion', command.defender, 'evasion roll', command.type === 'grapple' ? ruleCitation('grapple') : attackCite),
        ...(command.type === 'trick' ? [pool('location', command.attacker, 'hit location roll', LOCATION_CITE)] : []),
      ]);
    case 'all-out-attack':
      return withExhaustion(command.participants.map((p) => pool(`actor:${p.id}`, p.id, 'All Out Attack roll', ruleCitation('allOutAttack'))));
    case 'disengage':
      return withExhaustion([pool('actor', command.who, 'Disengage test', ruleCitation('disengage')), ...command.from.map((id) => pool(`target:${id}`, id, 'test against the Disengage', ruleCitation('disengage')))]);
    case 'distract':
    case 'scary-face':
      return withExhaustion([pool('actor', command.who, 'Distract or Scary Face test', DISRUPT_CITATION), pool(`target:${command.target}`, command.target, 'opposing test', DISRUPT_CITATION)]);
    case 'escape-grapple':
    {
      const grappler = scene.grappler?.(command.who) ?? null;
      return withExhaustion([pool('actor', command.who, 'test to break the grapple', ruleCitation('grappled')), ...(grappler ? [pool(`target:${grappler}`, grappler, 'test to hold the grapple', ruleCitation('grappled'))] : [])]);
    }
    case 'spend-fate':
    case 'force-reroll': {
      if (command.type === 'spend-fate' && command.spend !== 'reroll') return exhaustion;
      const rerolled = command.type === 'force-reroll' ? (scene.distracted?.(command.who) ?? null) : command.who;
      return withExhaustion([
        ...(rerolled ? [pool('reroll', rerolled, 'new roll', command.type === 'force-reroll' ? DISRUPT_CITATION : ruleCitation('fatePoints'))] : []),
        ...(scene.lastAttacker ? [pool('location', scene.lastAttacker, 'hit location roll', LOCATION_CITE)] : []),
      ]);
    }
    case 'reload':
      return withExhaustion(command.hurry ? [pool('actor', command.who, 'Reload hurry test', seed('Equipment Actions (Consumables, Reloading)'))] : []);
    case 'inflict-ailment':
      return withExhaustion(command.resist ? [pool(`target:${command.target}`, command.target, 'test to resist the ailment', seed('Elemental Affinities'))] : []);
    case 'start':
      return [
        ...scene.ids.map((id) => pool(`initiative:${id}`, id, 'initiative roll-off', ruleCitation('initiative'), 10)),
        ...scene.ids.map((id) => pool(`turn:${id}`, id, 'tests at the start of its turn', ruleCitation('structuredTime'))),
      ];
    case 'end-turn':
      return withExhaustion(scene.ids.map((id) => pool(`turn:${id}`, id, 'tests at the end or start of a turn', ruleCitation('structuredTime'))));
    case 'undo':
      return [];
    default: {
      const rule = ROLL[command.type];
      const who = (command as { who?: string }).who;
      return rule && who !== undefined ? withExhaustion([pool('actor', who, command.type === 'test' ? 'test' : `${command.type} test`, ruleCitation(rule))]) : exhaustion;
    }
  }
}
