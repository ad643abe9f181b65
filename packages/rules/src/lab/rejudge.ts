import { seededDice } from '@personae/dice';
import { compareDice, compareHighestMeets, meetsOnFullTie, type RawComparison } from '../challenge/compare';
import { judge, type Grade, type Outcome } from '../challenge/outcome';
import type { ChallengeResult } from '../challenge/resolve';
import { steerNeeded } from '../encounter/actions/critical-spending';
import type { Combatant } from '../encounter/combatant';
import type { Labeled } from '../effects';
import type { EncounterEvent } from '../encounter/events';
import { runScenario, type Scenario, type ScenarioRun } from '../encounter/scenario';
import { challengeOdds, unopposedOdds } from '../odds/api';
import type { ChallengeOdds, ExactLimits } from '../odds/types';
import { tableOptions, type Preset, type TableOptions } from '../options';

/**
 * The same dice under other rules: a recorded roll judged again with the dice it compared, and a whole
 * scenario played again with the same dice stream. A designer's question ("what would this session
 * have been under srd-v4?") answered without changing anything recorded.
 */

/** What one roll came to under one rule set. */
export interface RollVerdict {
  readonly outcome: Outcome;
  readonly grade: Grade | null;
  readonly criticals: { readonly actor: number; readonly reactor: number };
  /** The actor's exact chance of success under these rules, for plain pools of the sizes rolled (rerolls and armor aside). */
  readonly chance: number;
  /** Under fullTie = reroll, when the recorded dice end in a full tie the rules would roll again. */
  readonly rollsAgain?: boolean;
}

export interface RejudgedRoll {
  readonly kind: ChallengeResult['kind'];
  readonly actor: { readonly name: string; readonly dice: readonly number[]; readonly modifier: number };
  readonly reactor: { readonly name: string; readonly dice: readonly number[]; readonly modifier: number };
  readonly then: RollVerdict;
  readonly now: RollVerdict;
  /** Whether the outcome, grade or criticals differ. */
  readonly changed: boolean;
}

/** The recorded attempts in order: earlier full ties rolled again, then the one that settled it. */
function attemptsOf(result: ChallengeResult): ChallengeResult[] {
  return [...(result.previousAttempts ?? []), { ...result, previousAttempts: [] }];
}

function rawOf(attempt: ChallengeResult, options: TableOptions): RawComparison {
  const a = attempt.actor;
  const r = attempt.reactor;
  if (attempt.kind !== 'unopposed') return compareDice(a.dice, a.modifier, r.dice, r.modifier);
  // personae-core-2011.txt "Unopposed Challenges": the reading the table chose (option unopposed).
  return options.unopposed === 'highest-die' ? compareHighestMeets(a.dice, a.modifier, r.dice, r.modifier) : meetsOnFullTie(compareDice(a.dice, a.modifier, r.dice, r.modifier));
}

/**
 * Limits for odds worked out while someone waits (a form as it is filled in, a log judged again in the
 * browser): pools with rerolls or armor past about a twentieth of a second of enumeration are simulated
 * (20,000 samples), and say so (method = 'simulation').
 */
export const QUICK_LIMITS: ExactLimits = { maxPairs: 1_000_000, maxRerollWork: 200_000, samples: 20_000 };

export interface RolledOddsSettings {
  /**
   * Criticals spent to steer after the dice, only if needed (personae-v4-srd-playing.txt "Critical
   * Success"): each turns what is still not a success into a glancing success, and never a glancing
   * success into a clear one.
   */
  readonly criticalSteer?: number;
  /** Leave the abilities that acted on the dice out: the odds of the plain pools, always computed level by level. */
  readonly plain?: boolean;
  readonly limits?: ExactLimits;
}

/**
 * The exact odds of a challenge with the pools it rolled, its Potential Thresholds, the abilities that
 * acted on its dice (rerolls, forced rerolls, armor: personae-core-2011.txt "What Special Abilities Can
 * Do", "Armor") unless `plain`, and its steering.
 */
export function oddsOfRolled(result: ChallengeResult, options: TableOptions, settings: RolledOddsSettings = {}): ChallengeOdds {
  const steer = result.steer?.reduce((s, l) => s + l.value, 0) ?? 0;
  const side = (s: ChallengeResult['actor']) => ({
    dice: s.pool.dice,
    modifier: s.modifier,
    ...(s.potentialThreshold !== undefined ? { potentialThreshold: s.potentialThreshold } : {}),
    ...(settings.plain ? {} : s.diceAbilities),
  });
  const at = (steps: number) =>
    result.kind === 'unopposed' && result.difficulty
      ? unopposedOdds({ player: side(result.actor), difficulty: result.difficulty.value, skillRating: result.actor.pool.base, steer: steps }, options, settings.limits)
      : challengeOdds({ actor: side(result.actor), reactor: side(result.reactor), steer: steps }, options, settings.limits);
  const odds = at(steer);
  if (!settings.criticalSteer) return odds;
  // One step more turns every remaining failure and full tie into a success; the clear successes stay those without it.
  const steered = at(steer + 1);
  return { ...steered, clearSuccess: odds.clearSuccess, glancingSuccess: steered.success - odds.clearSuccess };
}

/** Judge a recorded roll under `options`, attempt by attempt while the rules roll full ties again. */
export function judgeRecorded(result: ChallengeResult, options: TableOptions): RollVerdict {
  if (result.kind === 'automatic' || result.kind === 'subsequent') {
    // No dice of its own: an automatic success, or a later challenge of a resolve track reusing a result.
    return { outcome: result.outcome, grade: result.grade, criticals: result.criticals, chance: result.outcome === 'success' ? 1 : 0 };
  }
  const attempts = attemptsOf(result);
  // Plain pools of the sizes rolled: a whole log is judged at once, where enumerating rerolls would cost too much.
  const chance = oddsOfRolled(result, options, { plain: true, criticalSteer: result.criticalSteer ?? 0 }).success;
  for (const [i, attempt] of attempts.entries()) {
    const judged = (steer: readonly Labeled[]) =>
      judge(rawOf(attempt, options), {
        options,
        ...(attempt.actor.potentialThreshold !== undefined ? { actorPotentialThreshold: attempt.actor.potentialThreshold } : {}),
        ...(attempt.reactor.potentialThreshold !== undefined ? { reactorPotentialThreshold: attempt.reactor.potentialThreshold } : {}),
        reactorIsIdentity: result.kind !== 'unopposed',
        steer,
      });
    let verdict = judged(result.steer ?? []);
    // A critical kept to steer is spent only where these rules leave the roll short of a success.
    const steps = verdict.rerollFullTie && i < attempts.length - 1 ? 0 : steerNeeded(verdict, result.criticalSteer ?? 0);
    if (steps > 0) verdict = judged([...(result.steer ?? []), { value: steps, source: `${steps} critical(s) spent` }]);
    const last = i === attempts.length - 1;
    if (verdict.rerollFullTie && !last) continue;
    return { outcome: verdict.outcome, grade: verdict.grade, criticals: verdict.criticals, chance, ...(verdict.rerollFullTie ? { rollsAgain: true } : {}) };
  }
  throw new Error('a recorded challenge has at least one attempt');
}

/** One recorded roll, then (under the rules it was rolled by) and now (under `now`). */
export function rejudge(result: ChallengeResult, then: TableOptions, now: TableOptions): RejudgedRoll {
  const a = judgeRecorded(result, then);
  const b = judgeRecorded(result, now);
  const changed = a.outcome !== b.outcome || a.grade !== b.grade || a.criticals.actor !== b.criticals.actor || a.criticals.reactor !== b.criticals.reactor || a.rollsAgain !== b.rollsAgain;
  const side = (s: ChallengeResult['actor']) => ({ name: s.name, dice: s.dice, modifier: s.modifier });
  return { kind: result.kind, actor: side(result.actor), reactor: side(result.reactor), then: a, now: b, changed };
}

/** Every roll of an event log (challenge-resolved events), judged again under other rules. */
export function rejudgeLog(events: readonly EncounterEvent[], then: TableOptions, now: TableOptions): (RejudgedRoll & { readonly event: number; readonly skill: string; readonly purpose: string })[] {
  const out: (RejudgedRoll & { event: number; skill: string; purpose: string })[] = [];
  for (const [i, e] of events.entries()) {
    if (e.type !== 'challenge-resolved') continue;
    out.push({ event: i, skill: e.skill, purpose: e.purpose, ...rejudge(e.result, then, now) });
  }
  return out;
}

export interface RulesReplay {
  readonly then: { readonly preset: Preset; readonly options: TableOptions; readonly run: ScenarioRun };
  readonly now: { readonly preset: Preset; readonly options: TableOptions; readonly run: ScenarioRun };
  /** Every roll of the recorded run, judged again with its own dice. */
  readonly rolls: ReturnType<typeof rejudgeLog>;
}

/**
 * A scenario under other rules: the recorded run, each of its rolls judged again with the same dice,
 * and the whole scenario played again under the new rules from the same seed (dice entered in the file
 * stay as entered; rolled dice come from the same stream in the same order, so they match roll for roll
 * while the new rules roll as many dice).
 */
export function replayUnderRules(scenario: Scenario, characters: readonly Combatant[], seed: number, preset: Preset, overrides: Partial<TableOptions>): RulesReplay {
  const thenOptions = tableOptions(scenario.options.preset, scenario.options.options as Partial<TableOptions>);
  const nowOptions = tableOptions(preset, overrides);
  const thenRun = runScenario(scenario, characters, seededDice(seed));
  const changed: Scenario = { ...scenario, options: { preset, options: overrides as Scenario['options']['options'] } };
  const nowRun = runScenario(changed, characters, seededDice(seed));
  return {
    then: { preset: scenario.options.preset, options: thenOptions, run: thenRun },
    now: { preset, options: nowOptions, run: nowRun },
    rolls: rejudgeLog(thenRun.events, thenOptions, nowOptions),
  };
}
