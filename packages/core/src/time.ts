/**
 * Game time every ruleset shares: sessions hold scenes, scenes hold rounds (in an encounter), rounds
 * hold turns. Timed effects (an ailment for three rounds, a boost until the end of the scene) name the
 * unit they count in and expire when the clock passes their end.
 */
export type TimeUnit = 'turn' | 'round' | 'scene' | 'session';

export interface GameClock {
  readonly session: number;
  readonly scene: number;
  /** 0 outside an encounter. */
  readonly round: number;
  /** The turn within the round, from 1; 0 outside an encounter or between rounds. */
  readonly turn: number;
}

export const CLOCK_START: GameClock = { session: 1, scene: 1, round: 0, turn: 0 };

/** Moves the clock one unit on; the smaller units start again. */
export function tick(clock: GameClock, unit: TimeUnit): GameClock {
  switch (unit) {
    case 'turn':
      return { ...clock, turn: clock.turn + 1 };
    case 'round':
      return { ...clock, round: clock.round + 1, turn: 1 };
    case 'scene':
      return { ...clock, scene: clock.scene + 1, round: 0, turn: 0 };
    case 'session':
      return { ...clock, session: clock.session + 1, scene: clock.scene + 1, round: 0, turn: 0 };
  }
}

/** An effect that lasts a number of units from when it began. `owner` is whose turns count for 'turn'. */
export interface TimedEffect<D = unknown> {
  readonly id: string;
  readonly unit: TimeUnit;
  /** How many units it lasts; Infinity-like values are written as null (until removed). */
  readonly duration: number | null;
  /** How many of its units have passed. */
  readonly elapsed: number;
  readonly data: D;
}

export function startEffect<D>(id: string, unit: TimeUnit, duration: number | null, data: D): TimedEffect<D> {
  if (duration !== null && (!Number.isInteger(duration) || duration < 0)) throw new RangeError(`an effect lasts a whole number of ${unit}s, got ${duration}`);
  return { id, unit, duration, elapsed: 0, data };
}

export interface ExpiryResult<D> {
  readonly active: readonly TimedEffect<D>[];
  readonly expired: readonly TimedEffect<D>[];
}

/**
 * Counts one `unit` passing for every effect that counts in it (a scene passing also ends every
 * round- and turn-counted effect; a session passing ends scene-counted ones too), and splits them into
 * those still active and those that just expired.
 */
export function passTime<D>(effects: readonly TimedEffect<D>[], unit: TimeUnit): ExpiryResult<D> {
  const rank: Record<TimeUnit, number> = { turn: 0, round: 1, scene: 2, session: 3 };
  const active: TimedEffect<D>[] = [];
  const expired: TimedEffect<D>[] = [];
  for (const e of effects) {
    if (rank[e.unit] < rank[unit] && unit !== 'round') {
      // a larger unit passing ends every effect counted in smaller units (a round passing does not end turn effects: turns count them)
      expired.push(e);
      continue;
    }
    if (e.unit !== unit) {
      active.push(e);
      continue;
    }
    const next = { ...e, elapsed: e.elapsed + 1 };
    if (next.duration !== null && next.elapsed >= next.duration) expired.push(next);
    else active.push(next);
  }
  return { active, expired };
}
