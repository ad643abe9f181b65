import { seededDice, type DiceSource } from '@personae/dice';
import { RuleError } from './errors';
import type { SheetCheck } from './ruleset';

/**
 * Whole duels between two characters, played out many times by a ruleset's encounter rules: the count
 * each won, how many reached the round limit undecided, and how long they ran. The ruleset plays one
 * duel; this loop plays them all from one seeded stream of dice and reports progress.
 */

/** How whole duels came out. */
export interface DuelTally {
  readonly duels: number;
  /** Duels each side won, by character id. */
  readonly wins: Readonly<Record<string, number>>;
  /** Duels that reached the round limit with both still fighting. */
  readonly undecided: number;
  readonly rounds: { readonly mean: number; readonly max: number };
}

export interface DuelSettings {
  readonly duels: number;
  readonly seed: number;
  /** Rounds after which a duel counts as undecided. Default DUEL_ROUNDS. */
  readonly maxRounds?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

/** The round limit of a duel unless the settings give another. */
export const DUEL_ROUNDS = 50;

/** How one duel ended: the id of the one still fighting (null: both or neither), and the round it ended in. */
export interface DuelEnd {
  readonly winner: string | null;
  readonly round: number;
}

/**
 * Plays `settings.duels` duels between the characters `ids`, each by `duel` with the shared dice and the
 * round limit, and tallies them. Progress is reported every 100 duels and at the end.
 */
export function playDuels(ids: readonly [string, string], settings: DuelSettings, duel: (dice: DiceSource, maxRounds: number) => DuelEnd): DuelTally {
  const maxRounds = settings.maxRounds ?? DUEL_ROUNDS;
  const dice = seededDice(settings.seed);
  const wins: Record<string, number> = { [ids[0]]: 0, [ids[1]]: 0 };
  let undecided = 0;
  let roundSum = 0;
  let roundMax = 0;
  for (let n = 0; n < settings.duels; n++) {
    const end = duel(dice, maxRounds);
    roundSum += end.round;
    roundMax = Math.max(roundMax, end.round);
    if (end.winner !== null && Object.hasOwn(wins, end.winner)) wins[end.winner]!++;
    else undecided++;
    if (settings.onProgress && ((n + 1) % 100 === 0 || n + 1 === settings.duels)) settings.onProgress(n + 1, settings.duels);
  }
  return { duels: settings.duels, wins, undecided, rounds: { mean: settings.duels > 0 ? roundSum / settings.duels : 0, max: roundMax } };
}

/** The 95% Wilson score interval of a proportion: a confidence interval that stays inside 0..1. */
export function wilsonInterval(successes: number, trials: number, z = 1.959963984540054): { low: number; high: number } {
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Two character sheets set against each other, as their ruleset's encounter takes them. */
export interface DuelPair {
  readonly first: Readonly<Record<string, unknown>>;
  readonly second: Readonly<Record<string, unknown>>;
}

/** The ids the two characters of a matchup have in its encounter. */
export const DUEL_IDS = ['first', 'second'] as const;

/**
 * Checks both sheets with their ruleset's `check` (a refusal names the sheet, "first" or "second", and
 * the field), and tells the second apart: named "(2)" in a mirror match, and changed further by `apart`.
 */
export function duelPair<S extends { readonly name: string }>(first: unknown, second: unknown, check: (raw: unknown) => SheetCheck<S, unknown>, apart: (first: S, second: S) => Readonly<Record<string, unknown>> = () => ({})): DuelPair {
  const read = (raw: unknown, which: string): S => {
    const r = check(raw);
    if (!r.ok) {
      const p = r.problems[0]!;
      throw new RuleError('bad-sheet', `${which} sheet: ${p.message.startsWith(`${p.field}:`) ? '' : `${p.field}: `}${p.message}`, p.field);
    }
    return r.sheet;
  };
  const a = read(first, 'first');
  const b = read(second, 'second');
  return { first: first as Record<string, unknown>, second: { ...(second as Record<string, unknown>), ...(b.name === a.name ? { name: `${b.name} (2)` } : {}), ...apart(a, b) } };
}
