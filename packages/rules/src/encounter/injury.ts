import type { TableOptions } from '../options';
import type { Combatant } from './combatant';

/**
 * Health statuses and hits (personae-core-2011.txt "Injury and Death", "Adversaries").
 *
 * A character reaches Injured on sustaining as many hits as its threshold (1 + Stature + bonuses),
 * and each further hit reaches the next status: Wounded, Incapacitated, Dying. Minor supporting
 * characters reach Injured with one hit; minions have only Incapacitated and Dying.
 */
export const STATUSES = ['unharmed', 'injured', 'wounded', 'incapacitated', 'dying', 'dead'] as const;
export type Status = (typeof STATUSES)[number];
/** The statuses injury passes through, in order. */
export type LadderStatus = Exclude<Status, 'unharmed' | 'dead'>;

export const STATUS_LABEL: Record<Status, string> = {
  unharmed: 'Unharmed',
  injured: 'Injured',
  wounded: 'Wounded',
  incapacitated: 'Incapacitated',
  dying: 'Dying',
  dead: 'Dead',
};

const FULL: readonly LadderStatus[] = ['injured', 'wounded', 'incapacitated', 'dying'];
const MINION: readonly LadderStatus[] = ['incapacitated', 'dying'];
/** An obstacle worn down by hits is overcome: out of play, as Incapacitated is (option obstacleHealth). */
const OBSTACLE: readonly LadderStatus[] = ['incapacitated'];

export type InjuryOptions = Pick<TableOptions, 'minionThreshold'>;

/** The statuses this character can reach, in order (personae-core-2011.txt "Adversaries"). */
export function ladder(c: Pick<Combatant, 'tier' | 'role' | 'obstacle'>): readonly LadderStatus[] {
  if (c.obstacle) return OBSTACLE;
  return c.tier === 'minion' && c.role !== 'main' ? MINION : FULL;
}

/** Extra hits before Injured from abilities that are always in effect (e.g. a culture's Iron Constitution). */
export function thresholdBonus(c: Combatant): { value: number; source: string }[] {
  return c.specialAbilities.flatMap((a) => (a.effect.type === 'extra-hits-before-injured' ? [{ value: a.effect.hits, source: a.name }] : []));
}

/**
 * Hits that take the character to its first status. Main characters and major supporting
 * characters: 1 + Stature + bonuses; minor ones: one hit; minions: option minionThreshold.
 */
export function threshold(c: Combatant, options: InjuryOptions): number {
  if (c.obstacle) return c.obstacle.health ?? 1;
  if (c.role !== 'main' && c.tier === 'minor') return 1;
  if (c.role !== 'main' && c.tier === 'minion' && options.minionThreshold === 'one-hit') return 1;
  if (c.hitsBeforeInjured !== undefined) return c.hitsBeforeInjured;
  return 1 + c.attributes.stature + thresholdBonus(c).reduce((s, b) => s + b.value, 0);
}

/** Hits at which each status of the ladder is reached: the threshold, then one more hit per status. */
export function hitsForStatus(c: Combatant, options: InjuryOptions, status: LadderStatus): number {
  const i = ladder(c).indexOf(status);
  if (i < 0) throw new RangeError(`${c.name} has no ${status} status`);
  return threshold(c, options) + i;
}

/** The status a tally of hits amounts to. */
export function statusForHits(c: Combatant, options: InjuryOptions, hits: number): Status {
  const t = threshold(c, options);
  if (hits < t) return 'unharmed';
  const steps = ladder(c);
  return steps[Math.min(hits - t, steps.length - 1)]!;
}

/** Position of a status in the full order (unharmed 0 ... dead 5), for comparisons. */
export function severity(status: Status): number {
  return STATUSES.indexOf(status);
}

export interface HitsApplied {
  readonly before: number;
  readonly after: number;
  /** Hits the attack inflicted that were lost: no attack rolls over more than one status. */
  readonly lost: number;
  readonly statusBefore: Status;
  readonly statusAfter: Status;
}

/**
 * Tally the hits of one successful attack or harmful power. No number of hits delivered by one
 * challenge rolls over from one status to the next (personae-core-2011.txt "Injury and Death"): the
 * tally stops at the hits of the next status, the rest are lost. The document's example: a
 * 3-hit threshold and 4 hits make the opponent Injured only, and only a later attack reaches Wounded.
 * Hits beyond Dying have nowhere to go and are lost too.
 */
export function applyAttackHits(c: Combatant, options: InjuryOptions, hits: number, incoming: number): HitsApplied {
  const steps = ladder(c);
  const t = threshold(c, options);
  const level = hits < t ? -1 : Math.min(hits - t, steps.length - 1);
  const cap = t + Math.min(level + 1, steps.length - 1);
  const after = Math.max(hits, Math.min(hits + incoming, cap));
  return {
    before: hits,
    after,
    lost: hits + incoming - after,
    statusBefore: statusForHits(c, options, hits),
    statusAfter: statusForHits(c, options, after),
  };
}

/** Dice each status costs (personae-core-2011.txt "Injury and Death"): not cumulative; Dying as Incapacitated. */
export const STATUS_PENALTY: Record<Status, number> = { unharmed: 0, injured: 1, wounded: 2, incapacitated: 3, dying: 3, dead: 3 };

/** Statuses that leave a character unconscious (personae-core-2011.txt "Injury and Death"). */
export function knocksOut(status: Status): boolean {
  return status === 'incapacitated' || status === 'dying' || status === 'dead';
}
