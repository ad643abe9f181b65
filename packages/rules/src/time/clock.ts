import type { TableOptions } from '../options';

/**
 * Game time (personae-core-2011.txt "Space and Time", "Time and Encounters"): sessions, days and
 * scenes, and within a scene the escalation to encounters. Traits count their uses against these
 * periods ("once per scene", "once per session"), and banked criticals expire by them.
 */
export const STAGES = ['scene', 'non-violent', 'hostile', 'violent'] as const;
export type Stage = (typeof STAGES)[number];

export const STAGE_LABEL: Record<Stage, string> = {
  scene: 'scene',
  'non-violent': 'non-violent encounter',
  hostile: 'hostile encounter',
  violent: 'violent encounter',
};

export interface Clock {
  readonly session: number;
  readonly day: number;
  /** Scenes are numbered through the whole play, so "the following scene" is scene + 1. */
  readonly scene: number;
  readonly stage: Stage;
  /** Encounters are numbered through the whole play; the current one while stage is not "scene". */
  readonly encounter: number;
  /** The furthest stage the current encounter has reached. */
  readonly peak: Stage;
}

export const START_CLOCK: Clock = { session: 1, day: 1, scene: 1, stage: 'scene', encounter: 0, peak: 'scene' };

/**
 * The order of escalation: personae-core-2011.txt "Escalation" (scene -> non-violent encounter ->
 * violent encounter); personae-v4-srd-playing.txt "The Challenge" adds the hostile encounter between.
 */
export function escalationOrder(options: Pick<TableOptions, 'escalation'>): readonly Stage[] {
  return options.escalation === 'srd-v4' ? STAGES : ['scene', 'non-violent', 'violent'];
}

export function inEncounter(clock: Clock): boolean {
  return clock.stage !== 'scene';
}

export type Period = 'encounter' | 'scene' | 'day' | 'session';

/** A key that changes exactly when the period does, for once-per-period limits. */
export function periodKey(clock: Clock, period: Period): string {
  switch (period) {
    case 'encounter':
      return `encounter ${clock.encounter}`;
    case 'scene':
      return `scene ${clock.scene}`;
    case 'day':
      return `day ${clock.day}`;
    case 'session':
      return `session ${clock.session}`;
  }
}

/** When something happened, for expiry. */
export interface Stamp {
  readonly session: number;
  readonly day: number;
  readonly scene: number;
  /** The encounter it happened in, or null outside encounters. */
  readonly encounter: number | null;
}

export function stampOf(clock: Clock): Stamp {
  return { session: clock.session, day: clock.day, scene: clock.scene, encounter: inEncounter(clock) ? clock.encounter : null };
}

/** A moment at which banked criticals may expire. */
export type Moment =
  | { readonly kind: 'encounter-ended'; readonly encounter: number }
  | { readonly kind: 'scene-ended'; readonly scene: number }
  | { readonly kind: 'day-began' }
  | { readonly kind: 'session-began' };

/**
 * Whether criticals banked at `earned` expire at `moment` (personae-core-2011.txt "Critical Success",
 * option criticalsLast). Readings: end-of-encounter: when the encounter they were earned in ends
 * (earned outside an encounter: when that scene ends); next-scene: at the end of the scene after the
 * one they were earned in ("until the end of the next scene"); next-day and next-session: when the
 * next day or session starts.
 */
export function expiresAt(earned: Stamp, moment: Moment, last: TableOptions['criticalsLast']): boolean {
  switch (last) {
    case 'until-spent':
      return false;
    case 'end-of-encounter':
      if (moment.kind === 'encounter-ended') return earned.encounter === moment.encounter;
      if (moment.kind === 'scene-ended') return earned.encounter === null && earned.scene <= moment.scene;
      return false;
    case 'next-scene':
      return moment.kind === 'scene-ended' && moment.scene >= earned.scene + 1;
    case 'next-day':
      return moment.kind === 'day-began';
    case 'next-session':
      return moment.kind === 'session-began';
  }
}
