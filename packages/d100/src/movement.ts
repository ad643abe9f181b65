import type { D100Options } from './options';
import type { TestResult } from './test';
import { bonus, type Fighter } from './fighter';

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
