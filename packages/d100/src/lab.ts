import { isRuleError, isSecretRollEvent, OFFLINE_GM, OFFLINE_NOW } from '@personae/core';
import { replayedDice, seededDice } from '@personae/dice';
import { resolveAttack, type AttackSpec } from './attack';
import { declaredAttackOdds, decideEncounter, encounterDecider, evolveEncounter, initialEncounter, summarize, type AttackCommand, type AttackSummary, type EncounterEvent, type EncounterState } from './encounter';
import type { Fighter } from './fighter';
import { attackOdds, type AttackOdds } from './odds';
import { resolveOptions, type D100Options } from './options';
import { runD100Scenario, type D100Run, type D100Scenario, type D100Step } from './scenario';

/**
 * The same dice under other rules, for d100 scenarios: every attack of a recorded run decided again
 * from the situation it was made in (the fighters as they stood), with the dice its command drew, under
 * another preset or options; with the attack's exact odds under each rule set (attackOdds), and the
 * whole scenario played again under the new rules from the same seed.
 */

/** What one attack came to under one rule set. */
export interface D100AttackVerdict {
  readonly hit: boolean;
  readonly critical: boolean;
  readonly fumble: boolean;
  readonly repelled: boolean;
  readonly location: string | null;
  /** The wounds dealt, in words, as the log gives them. */
  readonly wounds: readonly string[];
  readonly oneMore: boolean;
  /** The attack's exact odds in that situation under these rules (null when the odds do not cover it, as a Burst Attack). */
  readonly odds: Pick<AttackOdds, 'hit' | 'critical' | 'fumble' | 'stagger' | 'out'> | null;
}

export interface D100RejudgedAttack {
  /** The scenario's action (1-based) that made the attack. */
  readonly action: number;
  readonly attacker: string;
  readonly defender: string;
  /** The dice the command drew, in order. */
  readonly dice: readonly number[];
  readonly then: D100AttackVerdict;
  /** Null when the new rules refuse the command in that situation (`refused` says why). */
  readonly now: D100AttackVerdict | null;
  readonly refused?: string;
  /** Dice the new rules drew past those recorded (taken from a fresh seeded stream). */
  readonly extraDice: number;
  readonly changed: boolean;
}


function attackOf(events: readonly EncounterEvent[]): Extract<EncounterEvent, { type: 'attack-resolved' }> | undefined {
  return events.find((e): e is Extract<EncounterEvent, { type: 'attack-resolved' }> => e.type === 'attack-resolved');
}

function oddsIn(state: EncounterState, command: AttackCommand): D100AttackVerdict['odds'] {
  try {
    const o = declaredAttackOdds(state, command);
    return { hit: o.hit, critical: o.critical, fumble: o.fumble, stagger: o.stagger, out: o.out };
  } catch (e) {
    if (isRuleError(e)) return null;
    throw e;
  }
}

function verdict(summary: AttackSummary, odds: D100AttackVerdict['odds']): D100AttackVerdict {
  return { hit: summary.hit, critical: summary.critical, fumble: summary.fumble, repelled: summary.repelled, location: summary.location, wounds: summary.wounds, oneMore: summary.oneMore, odds };
}

function differ(a: D100AttackVerdict, b: D100AttackVerdict | null): boolean {
  return !b || a.hit !== b.hit || a.critical !== b.critical || a.fumble !== b.fumble || a.repelled !== b.repelled || a.location !== b.location || a.oneMore !== b.oneMore || a.wounds.join('|') !== b.wounds.join('|');
}

/** One attack step judged again under `now` (the situation with its options replaced). */
export function rejudgeD100Step(step: D100Step, now: { preset: string; options: D100Options }, seed = 1): D100RejudgedAttack | null {
  const recorded = attackOf(step.events);
  const parsed = encounterDecider.parseCommand(step.command);
  if (!recorded || !parsed.ok || parsed.command.type !== 'attack') return null;
  const command = parsed.command as AttackCommand;
  const then = verdict(recorded.data.summary, recorded.data.summary.burst ? null : oddsIn(step.before, command));
  const situation: EncounterState = { ...step.before, preset: now.preset, options: now.options };
  const dice = replayedDice(step.drawn, seed);
  let again: D100AttackVerdict | null = null;
  let refused: string | undefined;
  try {
    const decided = attackOf(decideEncounter(situation, command, { actor: OFFLINE_GM, dice: dice.dice, now: OFFLINE_NOW }));
    if (decided) again = verdict(decided.data.summary, decided.data.summary.burst ? null : oddsIn(situation, command));
    else refused = 'the new rules make no attack of this command';
  } catch (e) {
    if (!isRuleError(e)) throw e;
    refused = e.message;
  }
  return {
    action: step.action,
    attacker: step.before.fighters[recorded.data.attacker]?.name ?? recorded.data.attacker,
    defender: step.before.fighters[recorded.data.defender]?.name ?? recorded.data.defender,
    dice: step.drawn,
    then,
    now: again,
    ...(refused ? { refused } : {}),
    extraDice: dice.extra(),
    changed: differ(then, again),
  };
}

export interface D100RulesReplay {
  readonly then: { readonly preset: string; readonly options: D100Options; readonly run: D100Run };
  readonly now: { readonly preset: string; readonly options: D100Options; readonly run: D100Run };
  /** Every attack of the recorded run, judged again with its own dice. */
  readonly attacks: readonly D100RejudgedAttack[];
}

/**
 * A d100 scenario under other rules: the recorded run with each attack judged again with its own dice
 * from the situation it was made in, and the whole scenario played again under `preset` and `overrides`
 * from the same seed (dice given in the file stay as given).
 */
export function replayD100UnderRules(scenario: D100Scenario, sheet: (path: string) => unknown, seed: number, preset: string, overrides: Readonly<Record<string, unknown>>): D100RulesReplay {
  const nowOptions = resolveOptions(preset, overrides);
  const attacks: D100RejudgedAttack[] = [];
  const thenRun = runD100Scenario(scenario, sheet, seededDice(seed), (step) => {
    const r = rejudgeD100Step(step, { preset, options: nowOptions }, seed + step.action);
    if (r) attacks.push(r);
  });
  const nowRun = runD100Scenario({ ...scenario, preset, options: { ...overrides } }, sheet, seededDice(seed));
  return {
    then: { preset: scenario.preset, options: resolveOptions(scenario.preset, scenario.options), run: thenRun },
    now: { preset, options: nowOptions, run: nowRun },
    attacks,
  };
}

/** An attack of a table's log judged again: the log's sequence number in place of a scenario's action. */
export interface D100LoggedAttack extends Omit<D100RejudgedAttack, 'action'> {
  readonly seq: number;
}

function specOdds(attacker: Fighter, defender: Fighter, spec: AttackSpec, options: D100Options, protector: Fighter | null): D100AttackVerdict['odds'] {
  try {
    const o = attackOdds(attacker, defender, spec, options, protector);
    return { hit: o.hit, critical: o.critical, fumble: o.fumble, stagger: o.stagger, out: o.out };
  } catch (e) {
    if (isRuleError(e)) return null;
    throw e;
  }
}

/**
 * A table's log judged again under other rules (read only): the events are folded from the table's setup,
 * and every attack is resolved again from the fighters as they stood, with the attack as it was recorded
 * (its targets, weapon, element, Advantages and Disadvantages: `spec`) and the dice it drew, under
 * `now`; with its exact odds under each rule set. The log keeps the attack, not the command that made it,
 * so rules that would build the attack differently (its Advantages, the location of a Called Attack) show
 * only through the resolution. A Burst Attack is not judged again; a Fate Point's Reroll is listed as the
 * attack the reroll made.
 */
export function rejudgeD100Log(
  events: readonly { readonly seq: number; readonly event: EncounterEvent }[],
  setup: { readonly preset?: string; readonly options?: Readonly<Record<string, unknown>> },
  now: { readonly preset: string; readonly overrides: Readonly<Record<string, unknown>> },
  seed = 1,
): D100LoggedAttack[] {
  const nowOptions = resolveOptions(now.preset, now.overrides);
  let state = initialEncounter(setup.preset, setup.options);
  let lastBefore: EncounterState = state;
  const out: D100LoggedAttack[] = [];
  for (const { seq, event } of events) {
    // A table's secret-roll events (commitments, reveals) are the table's, not the encounter's.
    if (isSecretRollEvent(event)) continue;
    const attack = event.type === 'attack-resolved' ? { data: event.data, before: state } : event.type === 'test-rerolled' && event.data.replacement.type === 'attack-resolved' ? { data: event.data.replacement.data, before: lastBefore } : null;
    if (event.type === 'attack-resolved') lastBefore = state;
    if (attack && !attack.data.summary.burst) {
      const { data: d, before } = attack;
      const attacker = before.fighters[d.attacker];
      const defender = before.fighters[d.defender];
      const protector = d.protector ? (before.fighters[d.protector] ?? null) : null;
      if (attacker && defender) {
        const then = verdict(d.summary, specOdds(attacker, defender, d.spec, before.options, protector));
        const dice = replayedDice(d.dice, seed + seq);
        let again: D100AttackVerdict | null = null;
        let refused: string | undefined;
        try {
          again = verdict(summarize(resolveAttack(attacker, defender, d.spec, dice.dice, nowOptions, protector)), specOdds(attacker, defender, d.spec, nowOptions, protector));
        } catch (e) {
          if (!isRuleError(e)) throw e;
          refused = e.message;
        }
        out.push({ seq, attacker: attacker.name, defender: defender.name, dice: d.dice, then, now: again, ...(refused ? { refused } : {}), extraDice: dice.extra(), changed: differ(then, again) });
      }
    }
    state = evolveEncounter(state, event);
  }
  return out;
}
