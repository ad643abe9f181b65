import { atLeastMinimumPool } from '../challenge/pool';
import { unopposedGmDice } from '../challenge/resolve';
import { abilitiesOf, hasAbilities, type SideAbilities } from './abilities';
import { compareDistributions, foldHighest, highestOfDistribution, highestOfRoll, rerollWork, sideDistribution, sortedPoolCount } from './enumerate';
import { criticalsOfOwnTens, foldTerminal, iidComparison, MAX_EXACT_DICE, type TerminalClasses } from './exact';
import { decidingPairs, type DecidingPairs } from './decided';
import { simulatePlan, type SimulationPlan } from './simulate';
import type { ChallengeOdds, ChallengeQuery, ExactLimits, OddsOptions, OddsSide, SimulationSettings, UnopposedQuery } from './types';
import { OddsTally, SUCCESS, verdictTable, type ClassVerdict, type VerdictContext, type VerdictTable } from './verdicts';

const DEFAULTS = { maxPairs: 12_000_000, maxRerollWork: 2_000_000, samples: 200_000, seed: 1 };

function wholeNumber(value: number, what: string, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`${what} must be a whole number of at least ${min}, got ${value}`);
}

function checkSide(side: OddsSide, what: string): void {
  wholeNumber(side.dice, `${what}.dice`, 0);
  if (!Number.isInteger(side.modifier)) throw new RangeError(`${what}.modifier must be a whole number, got ${side.modifier}`);
  if (side.ignoreOpponentDice !== undefined) wholeNumber(side.ignoreOpponentDice, `${what}.ignoreOpponentDice`, 0);
  if (side.potentialThreshold !== undefined) wholeNumber(side.potentialThreshold, `${what}.potentialThreshold`, 0);
}

function steps(steer: number | undefined): number {
  const s = steer ?? 0;
  wholeNumber(s, 'steer', 0);
  return s;
}

/** Dice a side rolls: its pool after the table's minimum, as the resolver's poolSize gives it (no bonus or penalty dice here). */
function rolled(side: OddsSide, options: Pick<OddsOptions, 'minimumPool'>): number {
  return atLeastMinimumPool(side.dice, options);
}

interface Prepared {
  readonly n: number;
  readonly m: number;
  readonly mA: number;
  readonly mR: number;
  readonly actor: SideAbilities;
  readonly reactor: SideAbilities;
  readonly context: VerdictContext;
  readonly mode: SimulationPlan['mode'];
}

function exactOrSimulated(p: Prepared, options: OddsOptions, limits: ExactLimits): ChallengeOdds {
  const table = verdictTable(options, p.context);
  const plain = !hasAbilities(p.actor) && !hasAbilities(p.reactor);
  if (plain) {
    if (Math.max(p.n, p.m) > MAX_EXACT_DICE) return simulated(p, options, limits, `pools above ${MAX_EXACT_DICE} dice are simulated`);
    const tally = new OddsTally();
    if (p.mode === 'highest-die') foldHighest(highestOfRoll(p.n), p.mA, highestOfRoll(p.m), p.mR, table, tally);
    else if (table.criticalsFollowOwnTens()) {
      // Nothing but the criticals reads the 10s, and they are each side's own: compare without them.
      foldTerminal(iidComparison(p.n, p.m, p.mA - p.mR, false), table, tally);
      const crits = criticalsOfOwnTens(table, p.n, p.m);
      tally.setCriticals(crits.actor, crits.reactor);
    } else foldTerminal(iidComparison(p.n, p.m, p.mA - p.mR, true), table, tally);
    return tally.result('exact');
  }
  const lim = { ...DEFAULTS, ...limits };
  const finalA = Math.max(0, p.n - p.actor.ignored);
  const finalR = Math.max(0, p.m - p.reactor.ignored);
  const pairs = p.mode === 'highest-die' ? 0 : Math.min(sortedPoolCount(p.n), sortedPoolCount(finalA)) * Math.min(sortedPoolCount(p.m), sortedPoolCount(finalR));
  const work = rerollWork(p.n, p.actor) + rerollWork(p.m, p.reactor) + sortedPoolCount(p.n) + sortedPoolCount(p.m);
  if (pairs > lim.maxPairs || work > lim.maxRerollWork) {
    return simulated(p, options, limits, `rerolls or armor on pools this large are simulated: ${pairs.toLocaleString('en')} pairs of sorted pools, ${work.toLocaleString('en')} reroll results to enumerate`);
  }
  const distA = sideDistribution(p.n, p.actor, options.armorIgnores);
  const distR = sideDistribution(p.m, p.reactor, options.armorIgnores);
  const tally = new OddsTally();
  if (p.mode === 'highest-die') foldHighest(highestOfDistribution(distA), p.mA, highestOfDistribution(distR), p.mR, table, tally);
  else foldTerminal(compareDistributions(distA, p.mA, distR, p.mR), table, tally);
  return tally.result('exact');
}

function simulated(p: Prepared, options: OddsOptions, limits: ExactLimits, note: string): ChallengeOdds {
  const lim = { ...DEFAULTS, ...limits };
  return { ...simulatePlan(plan(p, options), lim.samples, lim.seed), note };
}

function plan(p: Prepared, options: OddsOptions): SimulationPlan {
  return { mode: p.mode, actorDice: p.n, reactorDice: p.m, actorModifier: p.mA, reactorModifier: p.mR, actor: p.actor, reactor: p.reactor, options, context: p.context };
}

function prepareOpposed(q: ChallengeQuery, options: OddsOptions): Prepared {
  checkSide(q.actor, 'actor');
  checkSide(q.reactor, 'reactor');
  const abilities = abilitiesOf(q.actor, q.reactor);
  return {
    n: rolled(q.actor, options),
    m: rolled(q.reactor, options),
    mA: q.actor.modifier,
    mR: q.reactor.modifier,
    actor: abilities.actor,
    reactor: abilities.reactor,
    context: {
      actorPotentialThreshold: q.actor.potentialThreshold,
      reactorPotentialThreshold: q.reactor.potentialThreshold,
      reactorIsIdentity: true,
      steer: steps(q.steer),
      mode: 'opposed',
    },
    mode: 'opposed',
  };
}

/**
 * The unopposed challenge as resolveUnopposed rolls it (personae-core-2011.txt "Unopposed
 * Challenges"): the GM rolls one die fewer than the skill's rating, at least one, adding the difficulty;
 * the GM is no identity (no criticals, no natural-10 effects). Both pools take a minimum of one die, as
 * the resolver's unopposed path does.
 */
function prepareUnopposed(q: UnopposedQuery, options: OddsOptions): Prepared {
  checkSide(q.player, 'player');
  if (!Number.isInteger(q.difficulty)) throw new RangeError(`difficulty must be a whole number, got ${q.difficulty}`);
  const skill = q.skillRating ?? q.player.dice;
  wholeNumber(skill, 'skillRating', 0);
  const gm: OddsSide = { dice: unopposedGmDice(skill), modifier: q.difficulty };
  const abilities = abilitiesOf(q.player, gm);
  const mode = options.unopposed === 'highest-die' ? 'highest-die' : 'tie-break';
  return {
    n: rolled(q.player, options),
    m: rolled(gm, options),
    mA: q.player.modifier,
    mR: q.difficulty,
    actor: abilities.actor,
    reactor: abilities.reactor,
    context: {
      actorPotentialThreshold: q.player.potentialThreshold,
      reactorIsIdentity: false,
      steer: steps(q.steer),
      mode: mode === 'tie-break' ? 'meets-on-full-tie' : 'opposed',
    },
    mode,
  };
}

/**
 * Exact odds of an opposed challenge under the table's options, every rule applied by `judge`
 * (personae-core-2011.txt "The Challenge", "Critical Success"; personae-v4-srd-playing.txt "The
 * Challenge", "Clear Success, Glancing Success, and Steering", "Critical Success").
 *
 * Plain pools are computed level by level (exact.ts). Pools with rerolls, forced rerolls or armor are
 * enumerated exactly while that stays small (see ExactLimits); beyond it the answer is a simulation,
 * marked method = 'simulation' with its samples, standard error and a note.
 *
 * Under option fullTie = reroll the odds are conditioned on the attempt not being a full tie
 * (divided by 1 - P(full tie)); that probability is given as rerolledTie.
 */
export function challengeOdds(q: ChallengeQuery, options: OddsOptions, limits: ExactLimits = {}): ChallengeOdds {
  return exactOrSimulated(prepareOpposed(q, options), options, limits);
}

/** Exact odds of an unopposed challenge, by the table's unopposed option (see challengeOdds). */
export function unopposedOdds(q: UnopposedQuery, options: OddsOptions, limits: ExactLimits = {}): ChallengeOdds {
  return exactOrSimulated(prepareUnopposed(q, options), options, limits);
}

/** Monte Carlo odds of an opposed challenge through the resolver's code (see simulate.ts). */
export function simulateChallenge(q: ChallengeQuery, options: OddsOptions, settings: SimulationSettings): ChallengeOdds {
  return simulatePlan(plan(prepareOpposed(q, options), options), settings.samples, settings.seed ?? 1, settings.onProgress);
}

/** Monte Carlo odds of an unopposed challenge. */
export function simulateUnopposed(q: UnopposedQuery, options: OddsOptions, settings: SimulationSettings): ChallengeOdds {
  return simulatePlan(plan(prepareUnopposed(q, options), options), settings.samples, settings.seed ?? 1, settings.onProgress);
}

/** The plan a worker runs for an opposed or unopposed query (parallel.ts). */
export function simulationPlan(q: { kind: 'opposed'; query: ChallengeQuery } | { kind: 'unopposed'; query: UnopposedQuery }, options: OddsOptions): SimulationPlan {
  return plan(q.kind === 'opposed' ? prepareOpposed(q.query, options) : prepareUnopposed(q.query, options), options);
}

/** Success only, from plain terminal classes, conditioned like OddsTally on a full tie not rerolled. */
function successOf(tc: TerminalClasses, table: VerdictTable): number {
  const tally = new SuccessTally();
  foldTerminal(tc, table, tally);
  return tally.kept > 0 ? tally.success / tally.kept : 0;
}

class SuccessTally {
  success = 0;
  kept = 0;
  add(v: ClassVerdict, p: number): void {
    if (v.rerollFullTie) return;
    this.kept += p;
    if (v.outcome === SUCCESS) this.success += p;
  }
}

/**
 * The actor's chance of success for plain pools, the fast way: natural 10s are followed only when the
 * table's rules let them change an outcome (the srd-v4 natural-10 rules do).
 */
export function successChance(q: { actor: Pick<OddsSide, 'dice' | 'modifier'>; reactor: Pick<OddsSide, 'dice' | 'modifier'>; steer?: number }, options: OddsOptions): number {
  checkSide(q.actor, 'actor');
  checkSide(q.reactor, 'reactor');
  const table = verdictTable(options, { reactorIsIdentity: true, steer: steps(q.steer), mode: 'opposed' });
  const n = rolled(q.actor, options);
  const m = rolled(q.reactor, options);
  if (Math.max(n, m) > MAX_EXACT_DICE) throw new RangeError(`exact odds take pools of at most ${MAX_EXACT_DICE} dice`);
  return successOf(iidComparison(n, m, q.actor.modifier - q.reactor.modifier, table.outcomeDependsOnTens()), table);
}

/**
 * Success probabilities [i][j] of actorDice[i] dice against reactorDice[j] dice, the actor's modifier
 * exceeding the reactor's by modifierDifference (plain pools, no steering).
 */
export function oddsGrid(actorDice: readonly number[], reactorDice: readonly number[], modifierDifference: number, options: OddsOptions): number[][] {
  if (!Number.isInteger(modifierDifference)) throw new RangeError(`modifierDifference must be a whole number, got ${modifierDifference}`);
  const table = verdictTable(options, { reactorIsIdentity: true, steer: 0, mode: 'opposed' });
  const track = table.outcomeDependsOnTens();
  const pools = (xs: readonly number[], what: string): number[] =>
    xs.map((d, i) => {
      wholeNumber(d, `${what}[${i}]`, 0);
      const n = rolled({ dice: d, modifier: 0 }, options);
      if (n > MAX_EXACT_DICE) throw new RangeError(`exact odds take pools of at most ${MAX_EXACT_DICE} dice`);
      return n;
    });
  const as = pools(actorDice, 'actorDice');
  const rs = pools(reactorDice, 'reactorDice');
  return as.map((n) => rs.map((m) => successOf(iidComparison(n, m, modifierDifference, track), table)));
}

/**
 * How the dice comparison of an opposed or unopposed challenge is decided: the deciding pair's
 * distribution (decided.ts) for the pools as they roll. Plain pools only: rerolls and armor change which
 * dice are compared, and are refused with a RangeError. Under the literal 2011 unopposed reading only
 * the highest dice count, so every comparison is decided on the first pair (meeting the target wins).
 */
export function howDecided(q: { kind: 'opposed'; query: ChallengeQuery } | { kind: 'unopposed'; query: UnopposedQuery }, options: OddsOptions): DecidingPairs {
  const p = q.kind === 'opposed' ? prepareOpposed(q.query, options) : prepareUnopposed(q.query, options);
  if (hasAbilities(p.actor) || hasAbilities(p.reactor)) throw new RangeError('how a challenge is decided is computed for plain pools; rerolls and armor change which dice are compared');
  if (p.n > MAX_EXACT_DICE || p.m > MAX_EXACT_DICE) throw new RangeError(`exact odds take pools of at most ${MAX_EXACT_DICE} dice`);
  if (p.mode === 'highest-die') {
    const win = highestMeets(p.n, p.mA, p.m, p.mR);
    return { actor: [win], reactor: [1 - win], actorExtraDice: 0, reactorExtraDice: 0, fullTie: 0 };
  }
  return decidingPairs(p.n, p.m, p.mA - p.mR);
}

/** The chance that the highest of n d10s plus mA meets or beats the highest of m d10s plus mR. */
function highestMeets(n: number, mA: number, m: number, mR: number): number {
  const highest = (dice: number, v: number): number => ((v / 10) ** dice - ((v - 1) / 10) ** dice);
  let p = 0;
  for (let a = 1; a <= 10; a++) for (let r = 1; r <= 10; r++) if (a + mA >= r + mR) p += highest(n, a) * highest(m, r);
  return p;
}
