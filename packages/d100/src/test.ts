import { modifier, RuleError, sumModifiers, type Modifier } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { DEFAULT_OPTIONS, TIE_REROLLS, type D100Options } from './options';
import { ruleCitation } from './rules';

/**
 * The d100 test: roll d100 (1 to 100, "00" read as 100) against a target number; at or under the
 * target succeeds. Degrees of success and of failure, natural 01/100, criticals and fumbles follow
 * the table options (the seed names degrees without defining them: option `degrees`).
 */
export interface TestResult {
  /** The base target (Score or skill) before Advantages and modifiers. */
  readonly base: number;
  readonly modifiers: readonly Modifier[];
  /** The final target number the roll is compared with. */
  readonly target: number;
  readonly roll: number;
  readonly success: boolean;
  /** Degrees of success when it succeeds, of failure when it fails. */
  readonly degrees: number;
  readonly degreesOfSuccess: number;
  readonly degreesOfFailure: number;
  /** Whether a natural 01 or 100 decided the result against the target. */
  readonly automatic: boolean;
  /**
   * A successful roll at or under the critical range (d100-combat-rules.txt, "Critical Hits"): only a
   * roll that succeeds can land as a Critical Hit, so a failed roll is never flagged.
   */
  readonly critical: boolean;
  /** An attack roll at or over the fumble range (d100-combat-rules.txt, "How Attacks Work"). */
  readonly fumble: boolean;
}

export function checkRoll(roll: unknown, field = 'roll'): number {
  if (typeof roll !== 'number' || !Number.isInteger(roll) || roll < 1 || roll > 100) {
    throw new RuleError('bad-roll', `${field}: ${JSON.stringify(roll)} is not a d100 result (a whole number from 1 to 100; "00" is 100)`, field, ruleCitation('test'));
  }
  return roll;
}

export function checkTarget(target: unknown, field = 'target'): number {
  if (typeof target !== 'number' || !Number.isInteger(target) || target < -1000 || target > 1000) {
    throw new RuleError('bad-target', `${field}: ${JSON.stringify(target)} is not a target number (a whole number from -1000 to 1000)`, field, ruleCitation('test'));
  }
  return target;
}

/** Degrees of a result under the `degrees` option, for a roll already known to succeed or fail. */
export function degreesOf(target: number, roll: number, success: boolean, method: D100Options['degrees']): number {
  const tens = (n: number) => Math.floor(n / 10);
  let d: number;
  switch (method) {
    case 'tens-digit':
    case 'tens-digit-plus-one':
      d = success ? tens(target) - tens(roll) : tens(roll) - tens(target);
      break;
    case 'margin':
    case 'margin-plus-one':
      d = Math.floor(Math.abs(target - roll) / 10);
      break;
  }
  d = Math.max(0, d);
  return method.endsWith('plus-one') ? d + 1 : d;
}

/** The net Advantage as a modifier: +10 per Advantage, -10 per Disadvantage (d100-combat-rules.txt, "How Attacks Work"). */
export function advantageModifiers(advantages: number, disadvantages: number): Modifier[] {
  const out: Modifier[] = [];
  if (advantages) out.push(modifier('advantage', `${advantages} Advantage${advantages === 1 ? '' : 's'}`, 10 * advantages));
  if (disadvantages) out.push(modifier('disadvantage', `${disadvantages} Disadvantage${disadvantages === 1 ? '' : 's'}`, -10 * disadvantages));
  return out;
}

/** Resolves a test with a known roll. */
export function resolveTest(base: number, roll: number, mods: readonly Modifier[] = [], options: Pick<D100Options, 'degrees' | 'autoResults' | 'criticalRange' | 'fumbleFrom'> = DEFAULT_OPTIONS): TestResult {
  checkTarget(base, 'target');
  checkRoll(roll);
  const target = base + sumModifiers(mods);
  let success = roll <= target;
  let automatic = false;
  if (options.autoResults === 'ffg') {
    if (roll === 1 && !success) (success = true), (automatic = true);
    if (roll === 100 && success) (success = false), (automatic = true);
  }
  const degrees = degreesOf(target, roll, success, options.degrees);
  return {
    base,
    modifiers: [...mods],
    target,
    roll,
    success,
    degrees,
    degreesOfSuccess: success ? degrees : 0,
    degreesOfFailure: success ? 0 : degrees,
    automatic,
    critical: success && roll <= options.criticalRange,
    fumble: roll >= options.fumbleFrom,
  };
}

/** Rolls a test with the injected dice. */
export function rollTest(base: number, dice: DiceSource, mods: readonly Modifier[] = [], options: D100Options = DEFAULT_OPTIONS): TestResult {
  return resolveTest(base, dice.die(100), mods, options);
}

/** The chances of a test before it is rolled: success, and a success that lands as a Critical. */
export interface TestOdds {
  readonly success: number;
  readonly critical: number;
}

/**
 * Exact odds of a test, each of the hundred rolls counted once under the table's options. With
 * `fateReroll` a failed roll is rolled again ("Fate Points", Reroll) and the roll option
 * `rerollKeeps` names stands: the second, or the better (lower) of the two.
 */
export function testOdds(base: number, mods: readonly Modifier[], options: Pick<D100Options, 'degrees' | 'autoResults' | 'criticalRange' | 'fumbleFrom' | 'rerollKeeps'>, fateReroll = false): TestOdds {
  const at = Array.from({ length: 100 }, (_, i) => resolveTest(base, i + 1, mods, options));
  // counted in ten-thousandths: each first roll stands for a hundred second rolls
  let success = 0;
  let critical = 0;
  for (const first of at) {
    if (first.success || !fateReroll) {
      success += first.success ? 100 : 0;
      critical += first.critical ? 100 : 0;
      continue;
    }
    for (const second of at) {
      const kept = options.rerollKeeps === 'second' ? second : at[Math.min(first.roll, second.roll) - 1]!;
      success += kept.success ? 1 : 0;
      critical += kept.critical ? 1 : 0;
    }
  }
  return { success: success / 10000, critical: critical / 10000 };
}

export interface OpposedResult {
  readonly actor: TestResult;
  /** Null when the reactor did not or could not oppose (Staggered, Helpless, a Fumble). */
  readonly reactor: TestResult | null;
  readonly actorWins: boolean;
  /** How the winner was found. */
  readonly decidedBy: 'actor-failed' | 'reactor-failed' | 'unopposed' | 'degrees' | 'higher-target' | 'tie' | 'reroll';
  /** Under opposedTie=reroll: each pair of rolls made again to break the tie, in order. */
  readonly tieRolls?: readonly TieRoll[];
}

/** One pair of rolls made again to break a tie (option opposedTie=reroll). */
export interface TieRoll {
  readonly actor: number;
  readonly reactor: number;
}

/** Where the dice that break a tie come from: one d100 for each side. */
export interface TieDice {
  readonly actor: () => number;
  readonly reactor: () => number;
}

/**
 * An opposed test (d100-combat-rules.txt, "Standard Attack and other Attack Actions"): the actor wins
 * only by succeeding, and then when the reactor fails or has fewer degrees; equal degrees fall by the
 * `opposedTie` option. Under `reroll` both tests are rolled again, with the same targets and
 * modifiers, until one side wins that comparison (at most TIE_REROLLS times); the rolls made again only
 * break the tie: the first tests' degrees, Critical and Fumble stand. Without `tieDice` a tie under
 * `reroll` goes to the reactor.
 */
export function resolveOpposed(actor: TestResult, reactor: TestResult | null, options: Pick<D100Options, 'opposedTie'> & Partial<D100Options> = DEFAULT_OPTIONS, tieDice?: TieDice): OpposedResult {
  if (!actor.success) return { actor, reactor, actorWins: false, decidedBy: 'actor-failed' };
  if (reactor === null) return { actor, reactor, actorWins: true, decidedBy: 'unopposed' };
  if (!reactor.success) return { actor, reactor, actorWins: true, decidedBy: 'reactor-failed' };
  if (actor.degrees !== reactor.degrees) return { actor, reactor, actorWins: actor.degrees > reactor.degrees, decidedBy: 'degrees' };
  switch (options.opposedTie) {
    case 'actor':
      return { actor, reactor, actorWins: true, decidedBy: 'tie' };
    case 'reactor':
      return { actor, reactor, actorWins: false, decidedBy: 'tie' };
    case 'higher-target-then-reactor':
      if (actor.target !== reactor.target) return { actor, reactor, actorWins: actor.target > reactor.target, decidedBy: 'higher-target' };
      return { actor, reactor, actorWins: false, decidedBy: 'tie' };
    case 'reroll': {
      if (!tieDice) return { actor, reactor, actorWins: false, decidedBy: 'tie' };
      const all = { ...DEFAULT_OPTIONS, ...options };
      const tieRolls: TieRoll[] = [];
      while (tieRolls.length < TIE_REROLLS) {
        const a = resolveTest(actor.base, tieDice.actor(), actor.modifiers, all);
        const r = resolveTest(reactor.base, tieDice.reactor(), reactor.modifiers, all);
        tieRolls.push({ actor: a.roll, reactor: r.roll });
        const again = resolveOpposed(a, r, { opposedTie: 'reactor' });
        if (again.decidedBy !== 'tie') return { actor, reactor, actorWins: again.actorWins, decidedBy: 'reroll', tieRolls };
      }
      return { actor, reactor, actorWins: false, decidedBy: 'tie', tieRolls };
    }
  }
}
