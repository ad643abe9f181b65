import { isRuleError, isSecretRollEvent, OFFLINE_GM, OFFLINE_NOW } from '@personae/core';
import { replayedDice, seededDice } from '@personae/dice';
import type { CommandOf } from './encounter/commands';
import { declaredAttackOdds, decideEncounter, evolveEncounter, initialEncounter, type LucidityEvent, type LucidityTableState } from './encounter/encounter';
import { runLucidityScenario, type LucidityScenario, type LucidityScenarioRun, type ObservedStep } from './encounter/scenario';
import { resolveOptions, type LucidityOptions } from './options';

/**
 * The same dice under other rules, for Lucidity scenarios: every attack of a recorded run decided again
 * from the situation it was made in, with the d20, buff, break and damage dice its command used (given in
 * the file or drawn from the seed), under another preset or options; with the attack's exact odds under
 * each rule set (declaredAttackOdds), and the whole scenario played again under the new rules.
 */

/** What one attack came to under one rule set ("How Combat Works"). */
export interface LucidityAttackVerdict {
  readonly hit: boolean;
  readonly total: number;
  readonly penetration: number;
  readonly damage: number;
  readonly damageTaken: number;
  readonly toHealth: number;
  readonly toLucidity: number;
  readonly dies: boolean;
  /** The exact chance of a hit and the expected damage taken there under these rules (null where the rules refuse the attack). */
  readonly odds: { readonly hit: number; readonly expectedDamage: number } | null;
}

export interface LucidityRejudgedAttack {
  /** The scenario's action (1-based) that made the attack; rejudgeLucidityStep alone gives the run's command index (0-based, characters first). */
  readonly action: number;
  readonly attacker: string;
  readonly target: string;
  /** Dice the command drew from the seed (dice given in the file stay in the command). */
  readonly drawn: readonly number[];
  readonly then: LucidityAttackVerdict;
  /** Null when the new rules refuse the command in that situation (`refused` says why). */
  readonly now: LucidityAttackVerdict | null;
  readonly refused?: string;
  readonly extraDice: number;
  readonly changed: boolean;
}

type Attacked = Extract<LucidityEvent, { type: 'attacked' }>;

function optionsOf(state: LucidityTableState): LucidityOptions {
  return resolveOptions(state.preset, state.overrides);
}

function verdict(e: Attacked, state: LucidityTableState, command: CommandOf<'attack'>): LucidityAttackVerdict {
  let odds: LucidityAttackVerdict['odds'] = null;
  try {
    const o = declaredAttackOdds(state.game, command, optionsOf(state));
    if (o) odds = { hit: o.hit, expectedDamage: o.expectedDamage };
  } catch (err) {
    if (!isRuleError(err)) throw err;
  }
  const d = e.data;
  return { hit: d.hit, total: d.roll.total, penetration: d.penetration, damage: d.damage, damageTaken: d.damageTaken, toHealth: d.toHealth, toLucidity: d.toLucidity, dies: d.dies, odds };
}

function differ(a: LucidityAttackVerdict, b: LucidityAttackVerdict | null): boolean {
  return !b || a.hit !== b.hit || a.total !== b.total || a.damageTaken !== b.damageTaken || a.toHealth !== b.toHealth || a.toLucidity !== b.toLucidity || a.dies !== b.dies;
}

/** One attack judged again under `now` (the situation with its preset and options replaced). */
export function rejudgeLucidityStep(step: ObservedStep, now: { preset: string; overrides: Readonly<Record<string, unknown>> }, seed = 1): LucidityRejudgedAttack | null {
  if (step.event.type !== 'attacked' || step.command.type !== 'attack') return null;
  const command = step.command as unknown as CommandOf<'attack'>;
  const then = verdict(step.event, step.before, command);
  const situation: LucidityTableState = { ...step.before, preset: now.preset, overrides: now.overrides };
  const dice = replayedDice(step.drawn, seed);
  let again: LucidityAttackVerdict | null = null;
  let refused: string | undefined;
  try {
    const [event] = decideEncounter(situation, command, { actor: step.actor, dice: dice.dice, now: OFFLINE_NOW });
    if (event?.type === 'attacked') again = verdict(event, situation, command);
    else refused = 'the new rules make no attack of this command';
  } catch (e) {
    if (!isRuleError(e)) throw e;
    refused = e.message;
  }
  const name = (id: string) => step.before.game.combatants[id]?.name ?? id;
  return {
    action: step.index,
    attacker: name(step.event.data.attacker),
    target: name(step.event.data.target),
    drawn: step.drawn,
    then,
    now: again,
    ...(refused ? { refused } : {}),
    extraDice: dice.extra(),
    changed: differ(then, again),
  };
}

export interface LucidityRulesReplay {
  readonly then: { readonly preset: string; readonly overrides: Readonly<Record<string, unknown>>; readonly run: LucidityScenarioRun };
  readonly now: { readonly preset: string; readonly overrides: Readonly<Record<string, unknown>>; readonly run: LucidityScenarioRun };
  readonly attacks: readonly LucidityRejudgedAttack[];
}

/** A Lucidity scenario under other rules: each attack judged again with its own dice, and the scenario played again from the same seed. */
export function replayLucidityUnderRules(scenario: LucidityScenario, sheets: (path: string) => unknown, seed: number, preset: string, overrides: Readonly<Record<string, unknown>>): LucidityRulesReplay {
  resolveOptions(preset, overrides);
  const { preset: thenPreset, ...thenOverrides } = scenario.options as { preset?: string } & Record<string, unknown>;
  const attacks: LucidityRejudgedAttack[] = [];
  const thenRun = runLucidityScenario(scenario, sheets, seededDice(seed), (step) => {
    const r = rejudgeLucidityStep(step, { preset, overrides }, seed + step.index);
    if (r) attacks.push({ ...r, action: step.index - scenario.characters.length + 1 });
  });
  const nowRun = runLucidityScenario({ ...scenario, options: { ...overrides, preset } }, sheets, seededDice(seed));
  return {
    then: { preset: thenPreset ?? 'standard', overrides: thenOverrides, run: thenRun },
    now: { preset, overrides, run: nowRun },
    attacks,
  };
}

/** An attack of a table's log judged again: the log's sequence number in place of a scenario's action. */
export interface LucidityLoggedAttack extends Omit<LucidityRejudgedAttack, 'action'> {
  readonly seq: number;
}


/**
 * The attack command a logged attack came from, as far as the log keeps it: attacker, target, weapon,
 * reaction, Inspirator, a Lucidity roll in place of the d20, and the buffs and breaks counted ("Buffs and
 * Breaks": the d20's buff/break modifier names them all, before cancelling; those Help and Interfere left
 * are counted again by the command), with the dice it drew in the order it drew them.
 */
function loggedAttack(e: Attacked, before: LucidityTableState): { command: CommandOf<'attack'>; drawn: number[] } {
  const d = e.data;
  const c = before.game.combatants[d.attacker];
  const label = d.roll.modifiers.map((m) => /\((\d+) buff, (\d+) break\)/.exec(m.label)).find((m) => m !== null);
  const buffs = label ? Number(label[1]) : d.roll.buffDice.length;
  const breaks = label ? Number(label[2]) : d.roll.breakDice.length;
  const command = {
    type: 'attack',
    actor: d.attacker,
    target: d.target,
    weapon: d.weapon,
    ...(d.reaction ? { reaction: d.reaction } : {}),
    buffs: Math.max(0, buffs - (c?.pendingBuffs ?? 0)),
    breaks: Math.max(0, breaks - (c?.pendingBreaks ?? 0)),
    ...(d.inspired ? { inspire: true } : {}),
    ...(d.roll.lucidity ? { useLucidity: true } : {}),
  } as unknown as CommandOf<'attack'>;
  const drawn = d.roll.guaranteed ? [...d.damageDice] : [d.roll.d20, ...d.roll.buffDice, ...d.roll.breakDice, ...d.damageDice];
  return { command, drawn };
}

/**
 * A table's log judged again under other rules (read only): the events are folded from the table's setup,
 * and every attack is decided again from the situation it was made in, with the dice it drew, under `now`,
 * with its exact odds under each rule set. The log keeps the attack, not the command: flanking, one on
 * one, a defender's help and dual wielding are not in it, so an attack that had them is judged without;
 * `reproduced` says whether the attack judged under the table's own rules comes out as recorded.
 */
export function rejudgeLucidityLog(
  events: readonly { readonly seq: number; readonly event: LucidityEvent }[],
  setup: { readonly preset?: string; readonly options?: Readonly<Record<string, unknown>> },
  now: { readonly preset: string; readonly overrides: Readonly<Record<string, unknown>> },
  seed = 1,
): (LucidityLoggedAttack & { readonly reproduced: boolean })[] {
  resolveOptions(now.preset, now.overrides);
  let state = initialEncounter(setup.preset, setup.options);
  const out: (LucidityLoggedAttack & { readonly reproduced: boolean })[] = [];
  for (const { seq, event } of events) {
    // A table's secret-roll events (commitments, reveals) are the table's, not the encounter's.
    if (isSecretRollEvent(event)) continue;
    if (event.type === 'attacked' && state.game.combatants[event.data.attacker]) {
      const { command, drawn } = loggedAttack(event, state);
      const step: ObservedStep = { index: seq, command: command as unknown as Record<string, unknown>, actor: OFFLINE_GM, before: state, drawn, event };
      const own = rejudgeLucidityStep(step, { preset: state.preset, overrides: state.overrides }, seed + seq);
      const r = rejudgeLucidityStep(step, now, seed + seq);
      if (r && own) {
        const { action: _action, ...rest } = r;
        out.push({ ...rest, seq, reproduced: !own.changed });
      }
    }
    state = evolveEncounter(state, event);
  }
  return out;
}
