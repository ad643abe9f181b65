import type { Labeled } from '../effects';
import type { PoolSpec } from './pool';
import { ChallengeError } from './resolve';

/**
 * Concerted effort (personae-v4-srd-playing.txt "Concerted Effort"): two or more player characters
 * challenge together. The coordinator rolls, the others add their ratings in the skill (an unlocked
 * skill is not required: an unskilled contributor adds the single die anyone may roll), the total is
 * capped at two more than the participants' average Potential Threshold, the coordinator's attribute is
 * added, and a successful injuring challenge deals one hit per participant. Once per scene (tracked by
 * the encounter clock, option concertedEffortPerScene).
 */
export interface ConcertedParticipant {
  readonly name: string;
  /** Rating in the skill; 0 when the skill is not unlocked. */
  readonly rating: number;
  readonly potentialThreshold: number;
}

export interface ConcertedEffort {
  readonly pool: PoolSpec;
  readonly cap: number;
  readonly hits: number;
  readonly explanation: string;
}

export function concertedEffort(coordinator: ConcertedParticipant, contributors: readonly ConcertedParticipant[], skill: string): ConcertedEffort {
  if (contributors.length === 0) throw new ChallengeError('contributors', 'a concerted effort needs at least two characters: a coordinator and one contributor');
  const everyone = [coordinator, ...contributors];
  const averageThreshold = everyone.reduce((s, p) => s + p.potentialThreshold, 0) / everyone.length;
  const cap = Math.floor(averageThreshold) + 2;
  const base = Math.max(1, coordinator.rating);
  const added: Labeled[] = contributors.map((c) => ({ value: Math.max(1, c.rating), source: `${c.name}${c.rating > 0 ? '' : ' (unskilled)'}` }));
  const total = base + added.reduce((s, a) => s + a.value, 0);
  const dice = Math.min(total, cap);
  const explanation =
    `concerted effort: ${coordinator.name} ${base} + ${added.map((a) => `${a.source} ${a.value}`).join(' + ')} = ${total} dice` +
    (dice < total ? `, capped at ${cap} (average Potential Threshold ${averageThreshold.toFixed(2)} + 2)` : '');
  return {
    pool: { base: dice, baseSource: `${skill} (concerted effort of ${everyone.length})` },
    cap,
    hits: everyone.length,
    explanation,
  };
}
