import type { D100Options } from './options';
import type { TestResult } from './test';
import { distance } from './equipment';
import { ALTITUDES, altitudeOf, bonus, type Altitude, type Fighter, type Position, type Terrain } from './fighter';

/**
 * Movement (d100-combat-rules.txt, untitled movement passage, "Hindered Movement", "Obstacles and
 * unusual movement"): how far a Move goes, and what a hurried climb, a swim or a leap comes to.
 */
export const MOVEMENT_TESTS = ['climb', 'swim', 'leap'] as const;
export type MovementTest = (typeof MOVEMENT_TESTS)[number];

export interface MovementOutcome {
  /** Sources of Hindrance the move carries: 0 free, 1 Hindered, 2 doubly Hindered. */
  readonly hindrance: 0 | 1 | 2;
  /** A climber loses its grip and falls; a leaper may fall. */
  readonly falls: boolean;
  /** A swimmer in rough water may sink and start to drown. */
  readonly sinks: boolean;
}

/**
 * A climb, swim or leap test's outcome. Climbing: a pass removes the Hindrance; failing by 2 DoF
 * doubly Hinders, by 4 DoF the climber falls (option `dofThresholds`, C9: "by" read as "at least",
 * or as exactly that many). Swimming: a pass removes the Hindrance, 2 DoF or more doubly Hinders;
 * in rough water (`rough`) a pass only keeps the swimmer afloat and 4 DoF or more sinks it.
 * Leaping: a pass removes the Hindrance; 4 DoF or more doubly Hinders and may make the leaper fall.
 */
export function movementOutcome(kind: MovementTest, test: Pick<TestResult, 'success' | 'degreesOfFailure'>, options: Pick<D100Options, 'dofThresholds'>, rough = false): MovementOutcome {
  const dof = test.degreesOfFailure;
  const free: MovementOutcome = { hindrance: 0, falls: false, sinks: false };
  const hindered: MovementOutcome = { hindrance: 1, falls: false, sinks: false };
  switch (kind) {
    case 'climb': {
      if (test.success) return free;
      const at = (n: number) => (options.dofThresholds === 'at-least' ? dof >= n : dof === n);
      if (at(4)) return { hindrance: 2, falls: true, sinks: false };
      if (at(2)) return { hindrance: 2, falls: false, sinks: false };
      return hindered;
    }
    case 'swim':
      if (rough) return test.success ? hindered : { hindrance: dof >= 2 ? 2 : 1, falls: false, sinks: dof >= 4 };
      if (test.success) return free;
      return dof >= 2 ? { hindrance: 2, falls: false, sinks: false } : hindered;
    case 'leap':
      if (test.success) return free;
      return dof >= 4 ? { hindrance: 2, falls: true, sinks: false } : hindered;
  }
}

/**
 * How many metres a Move covers ("Hindered Movement"): a Basic Move twice the Agility Bonus, a Run
 * four times; Hindered halves it (rounded down); two or more sources of Hindrance leave 1 metre.
 */
export function moveAllowance(f: Fighter, run: boolean, hindrance: number): number {
  const full = bonus(f.scores.agility) * (run ? 4 : 2);
  if (hindrance >= 2) return Math.min(1, full);
  return hindrance === 1 ? Math.floor(full / 2) : full;
}

/**
 * A failed test to cross Difficult Terrain at full speed ("Difficult Terrain"): Uneven/Slippery
 * ground throws the character prone; Damaging ground deals its damage plus the degrees of failure.
 */
export function fullSpeedFailure(terrain: Terrain, test: Pick<TestResult, 'success' | 'degreesOfFailure'>, terrainDamage: number): { prone: boolean; damage: number | null } {
  if (test.success) return { prone: false, damage: null };
  return terrain === 'uneven' ? { prone: true, damage: null } : { prone: false, damage: terrainDamage + test.degreesOfFailure };
}

export { ALTITUDES, type Altitude } from './fighter';

const BAND: Readonly<Record<Altitude, string>> = { ground: 'at Ground', low: 'flying Low', high: 'flying High' };

/**
 * Why an attack cannot reach between altitude bands, or null when it can (untitled flight passage
 * after "Difficult Terrain"): a character flying High and one lower cannot attack each other, except
 * with a specially long-ranged Ballistic weapon (`longRange` on the sheet, which the GM approves);
 * Ground cannot melee Low, and by the same 20 metres Low cannot melee Ground.
 */
export function altitudeBar(attacker: Fighter, defender: Fighter, melee: boolean, longRange: boolean): string | null {
  const a = altitudeOf(attacker);
  const d = altitudeOf(defender);
  if (a === d) return null;
  if ((a === 'high' || d === 'high') && (melee || !longRange)) return `${attacker.name}, ${BAND[a]}, cannot attack ${defender.name}, ${BAND[d]}, without a long-ranged Ballistic weapon`;
  if (melee) return `${attacker.name}, ${BAND[a]}, cannot reach ${defender.name}, ${BAND[d]}, in melee`;
  return null;
}

/**
 * The height each band counts as (untitled flight passage after "Difficult Terrain"): Low is the
 * equivalent of 20 m off the ground, High anywhere above 150 m (taken at its least); Ground adds nothing.
 */
export const BAND_HEIGHT: Readonly<Record<Altitude, number>> = { ground: 0, low: 20, high: 150 };

/**
 * Metres between two placed characters with their altitude bands counted: a flyer stands its band's
 * height above the elevation of its square, so a character a band away is never as near as one beside
 * it in the same band, just as only the same band is adjacent (melee reach). Null when either is off the map.
 */
export function separation(a: Pick<Fighter, 'conditions'>, b: Pick<Fighter, 'conditions'>): number | null {
  const p = a.conditions.position;
  const q = b.conditions.position;
  if (!p || !q) return null;
  return distance({ ...p, elevation: p.elevation + BAND_HEIGHT[altitudeOf(a)] }, { ...q, elevation: q.elevation + BAND_HEIGHT[altitudeOf(b)] });
}

/** Bands a flyer's Move crosses; a Basic Move may cross one. */
export function bandsCrossed(from: Altitude, to: Altitude): number {
  return Math.abs(ALTITUDES.indexOf(from) - ALTITUDES.indexOf(to));
}

/** A flyer that starts falling drops a band at the end of each round and crashes as from 50 m (High) or 20 m (Low). */
export function crashMetres(fellFrom: Exclude<Altitude, 'ground'>): number {
  return fellFrom === 'high' ? 50 : 20;
}

/**
 * Falling ("Obstacles and unusual movement"): a hit of 1 damage per metre, Armour ignored; an
 * intentional or softened fall may test Athletics or Acrobatics and takes 1 less per DoS.
 */
export function fallDamage(metres: number, test?: Pick<TestResult, 'success' | 'degreesOfSuccess'>): number {
  return Math.max(0, Math.floor(metres) - (test?.success ? test.degreesOfSuccess : 0));
}

/** Scatter directions by the ones digit, as on a numeric keypad (untitled passage after "Chance Attacks"). */
const KEYPAD: Readonly<Record<number, string>> = { 1: 'south-west', 2: 'south', 3: 'south-east', 4: 'west', 5: 'up', 6: 'east', 7: 'north-west', 8: 'north', 9: 'north-east', 0: 'towards the attacker' };

/**
 * Where a scattering attack goes: the ones digit of its attack roll is the direction on a keypad (5
 * straight up, 0 back towards the attacker), the tens digit the metres; 100 reads as "00".
 */
export function scatter(attackRoll: number): { direction: string; metres: number } {
  const two = attackRoll === 100 ? 0 : attackRoll;
  return { direction: KEYPAD[two % 10]!, metres: Math.floor(two / 10) };
}

/** Each keypad direction as a step on the map, north the top row (smaller y); 5 and 0 are not steps. */
const KEYPAD_STEP: Readonly<Record<number, readonly [number, number]>> = { 1: [-1, 1], 2: [0, 1], 3: [1, 1], 4: [-1, 0], 6: [1, 0], 7: [-1, -1], 8: [0, -1], 9: [1, -1] };

/**
 * The square a scattering attack comes down on (untitled passage after "Chance Attacks"; frame U22):
 * from the square aimed at, its metres in the keypad direction, a diagonal metre being one square
 * each way as on the map; 0 moves it towards the attacker along the line between them, 5 straight up
 * (it stays over the square aimed at).
 */
export function scatterLanding(attackRoll: number, aimed: Pick<Position, 'x' | 'y'>, attacker: Pick<Position, 'x' | 'y'> | null): { x: number; y: number } {
  const two = attackRoll === 100 ? 0 : attackRoll;
  const metres = Math.floor(two / 10);
  const step = KEYPAD_STEP[two % 10];
  if (step) return { x: aimed.x + step[0] * metres, y: aimed.y + step[1] * metres };
  if (two % 10 === 5 || !attacker) return { x: aimed.x, y: aimed.y };
  const dx = attacker.x - aimed.x;
  const dy = attacker.y - aimed.y;
  const apart = Math.max(Math.abs(dx), Math.abs(dy));
  if (apart === 0) return { x: aimed.x, y: aimed.y };
  return { x: aimed.x + Math.round((dx * metres) / apart), y: aimed.y + Math.round((dy * metres) / apart) };
}

/**
 * Reload ("Equipment Actions"): the weapon's reload value in Actions; a passed hurry test takes one
 * off, and one more per 2 DoS, never below 1.
 */
export function reloadActions(reload: number, hurry?: Pick<TestResult, 'success' | 'degreesOfSuccess'>): number {
  if (!hurry?.success) return reload;
  return Math.max(1, reload - 1 - Math.floor(hurry.degreesOfSuccess / 2));
}
