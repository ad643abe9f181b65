import { REROLLS } from '../challenge';
import { orderPool } from './order';

/**
 * The named pools an encounter command rolls (the one way physical dice enter it, see
 * @personae/core `poolDice`):
 *
 * | pool             | the dice                                                              |
 * |------------------|-----------------------------------------------------------------------|
 * | `actor`          | the acting character's roll (against the first target, if several)   |
 * | `actor:ID`       | the acting character's roll against target `ID`, after the first      |
 * | `target:ID`      | target `ID`'s answer                                                  |
 * | `difficulty`     | the GM's dice: against an unopposed or a recovery challenge           |
 * | `rerolls`        | rerolls of either side and full-tie rerolls, in the order rolled      |
 * | `order:ID`       | character `ID`'s roll for the action order                            |
 */
export const ACTOR_POOL = 'actor';
export const DIFFICULTY_POOL = 'difficulty';
export { REROLLS as REROLLS_POOL, orderPool };

/** The pool of the actor's roll against the `k`-th target (`id`). */
export function actorPool(id: string, k: number): string {
  return k === 0 ? ACTOR_POOL : `${ACTOR_POOL}:${id}`;
}

/** The pool of a target's answer. */
export function targetPool(id: string): string {
  return `target:${id}`;
}
