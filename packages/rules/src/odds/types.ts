import type { ChallengeOptions } from '../challenge/resolve';
import type { RerollSpec } from '../challenge/reroll';

/** One side of a challenge as the odds see it: the dice it rolls and what it adds to them. */
export interface OddsSide {
  /** Dice rolled, after bonus and penalty dice (raised to the table's minimumPool as poolSize does). */
  dice: number;
  /** The attribute plus every circumstantial addition, summed. */
  modifier: number;
  /** Caps criticals under the web and srd-v4 rules. */
  potentialThreshold?: number;
  /** This side's own reroll abilities. */
  rerolls?: readonly RerollSpec[];
  /** Abilities of this side that make the opponent reroll. */
  forceRerolls?: readonly RerollSpec[];
  /** Armor: how many of the opponent's dice this side ignores. */
  ignoreOpponentDice?: number;
}

export interface ChallengeQuery {
  actor: OddsSide;
  reactor: OddsSide;
  /** Steps of steering applied once the result is known (srd-v4): failure -> glancing -> clear. */
  steer?: number;
}

export interface UnopposedQuery {
  player: OddsSide;
  /** The difficulty added to the GM's dice (core-2011 "Unopposed Challenges", "Assess the Difficulty"). */
  difficulty: number;
  /** The rating of the skill rolled; the GM rolls one die fewer, at least one. Default: player.dice. */
  skillRating?: number;
  steer?: number;
}

/**
 * The chances of one challenge, from the actor's (or player's) side.
 *
 * success + failure + fullTie = 1 and clearSuccess + glancingSuccess = success. Under option
 * fullTie = reroll every probability (criticals too) is conditioned on the attempt not being a full tie,
 * since such an attempt is rolled again: exact odds divide by 1 - P(full tie) and simulation rolls again.
 * The probability of a rerolled attempt is then given in rerolledTie.
 */
export interface ChallengeOdds {
  success: number;
  clearSuccess: number;
  glancingSuccess: number;
  failure: number;
  fullTie: number;
  /** Probability of the actor banking 0, 1, 2, ... criticals in this challenge. */
  criticals: number[];
  /** The same for the reactor (always [1] when the reactor is the GM's difficulty roll). */
  reactorCriticals: number[];
  method: 'exact' | 'simulation';
  /** Simulation only: how many challenges were rolled. */
  samples?: number;
  /** Simulation only: the standard error of `success`, sqrt(p(1 - p) / samples). */
  standardError?: number;
  /** Under fullTie = reroll: the probability that one attempt ends in a full tie and is rolled again. */
  rerolledTie?: number;
  /** When the answer is a simulation although exact odds were asked for: why. */
  note?: string;
}

/** The table options the odds read: the same ones the resolver reads. */
export type OddsOptions = ChallengeOptions;

export interface SimulationSettings {
  /** How many challenges to roll. */
  samples: number;
  /** Seed of the generator; the same seed gives the same answer. Default 1. */
  seed?: number;
  /** Called now and then, and once at the end, with the challenges rolled so far. */
  onProgress?: (done: number, total: number) => void;
}

/** Limits for exact odds of pools with rerolls or armor (enumerated), past which a simulation answers. */
export interface ExactLimits {
  /** The most pairs of (actor, reactor) sorted pools compared. Default 12,000,000 (about half a second). */
  maxPairs?: number;
  /** The most reroll outcomes enumerated for one side. Default 2,000,000. */
  maxRerollWork?: number;
  /** Samples of the fallback simulation. Default 200,000. */
  samples?: number;
  /** Seed of the fallback simulation. Default 1. */
  seed?: number;
}
