import { DUEL_IDS, duelPair, isRuleError, OFFLINE_GM, OFFLINE_NOW, playDuels, RuleError, type DiceSource, type DuelPair, type DuelSettings, type DuelTally } from '@personae/core';
import { seededDice } from '@personae/dice';
import { checkSheet } from '../sheet';
import { declaredAttackOdds, decideEncounter, evolveEncounter, initialEncounter, optionsOf, parseEncounterCommand, type DeclaredAttackOdds, type LucidityTableState } from './encounter';
import type { CommandOf } from './commands';

/**
 * Archetype against archetype for Lucidity sheets: the exact odds of every attack each character can
 * make on the other (each weapon, with the d20 or with a Lucidity roll in its place) against the other's
 * Defense and Protection, and whole duels played out by the encounter rules many times over
 * (lucidity-primary-character.txt "How Combat Works", "Actions", "Lucidity", "Hitting 0 Health").
 *
 * Every attack is declared to an encounter set up with the two characters, so the modifiers, Defense,
 * Penetration and Protection are those the table would roll with, and its odds are the table's own
 * (`declaredAttackOdds`). A duel is a fight one against one, so each attack is declared `oneOnOne`
 * (the trait 1 on 1; whether a fight is one is the GM's to say, open point U32).
 */

/** How the attack is rolled: the d20, or a Lucidity roll in its place (option lucidityOnAttack). */
export const LUCIDITY_ATTACK_ROLLS = ['d20', 'lucidity'] as const;
export type LucidityAttackRoll = (typeof LUCIDITY_ATTACK_ROLLS)[number];

export interface LucidityMatchupAttack {
  readonly attacker: string;
  readonly defender: string;
  readonly weapon: string;
  readonly roll: LucidityAttackRoll;
  /** The d20's modifiers summed (attribute, skill rank, traits). */
  readonly modifier: number;
  readonly defense: number;
  readonly damage: string;
  readonly protection: number;
  readonly odds: DeclaredAttackOdds;
}

export interface LucidityRefused {
  readonly attacker: string;
  readonly weapon: string;
  readonly roll: LucidityAttackRoll;
  readonly reason: string;
}

/** The ids the two characters have in a matchup's encounter: the first in the party, the second its foe. */
export const LUCIDITY_MATCHUP_IDS = DUEL_IDS;

/** Checks both sheets (a refusal names the sheet and field). */
export function lucidityPair(first: unknown, second: unknown): DuelPair {
  return duelPair(first, second, (raw) => checkSheet(raw));
}

function run(state: LucidityTableState, raw: Record<string, unknown>, dice: DiceSource): LucidityTableState {
  const parsed = parseEncounterCommand(raw);
  if (!parsed.ok) throw new RuleError(parsed.error.code, parsed.error.message, parsed.error.field);
  const [event] = decideEncounter(state, parsed.command, { actor: OFFLINE_GM, dice, now: OFFLINE_NOW });
  return evolveEncounter(state, event!);
}

/** The encounter under `preset` (and `overrides`) with the two characters in it, not yet started. */
export function lucidityDuelSetUp(pair: DuelPair, preset: string, overrides: Readonly<Record<string, unknown>>): LucidityTableState {
  const dice = seededDice(1);
  let state = initialEncounter(preset, overrides);
  state = run(state, { type: 'add', id: LUCIDITY_MATCHUP_IDS[0], side: 'party', sheet: pair.first }, dice);
  return run(state, { type: 'add', id: LUCIDITY_MATCHUP_IDS[1], side: 'foe', sheet: pair.second }, dice);
}

/** The set-up encounter started: initiative rolled with `dice`. */
export function lucidityDuelStart(setUp: LucidityTableState, dice: DiceSource): LucidityTableState {
  return run(setUp, { type: 'start' }, dice);
}

function currentOf(state: LucidityTableState): string {
  return state.game.order[state.game.turn]!;
}

/** Turns end until it is `id`'s turn. */
function turnOf(state: LucidityTableState, id: string, dice: DiceSource): LucidityTableState {
  let s = state;
  for (let guard = 0; guard < 8 && currentOf(s) !== id; guard++) s = run(s, { type: 'end-turn' }, dice);
  if (currentOf(s) !== id) throw new Error(`${id} never had a turn`);
  return s;
}

function attackCommand(actor: string, target: string, weapon: string, roll: LucidityAttackRoll): Record<string, unknown> {
  return { type: 'attack', actor, target, weapon, oneOnOne: true, ...(roll === 'lucidity' ? { useLucidity: true } : {}) };
}

/**
 * The exact odds of every attack of each on the other. An attack the encounter refuses (a massive
 * weapon without Guts, a Lucidity roll the table does not allow) is listed with the rule's reason.
 */
export function lucidityMatchupOdds(pair: DuelPair, preset: string, overrides: Readonly<Record<string, unknown>> = {}): { attacks: LucidityMatchupAttack[]; refused: LucidityRefused[] } {
  const dice = seededDice(1);
  const start = lucidityDuelStart(lucidityDuelSetUp(pair, preset, overrides), dice);
  const opts = optionsOf(start);
  const attacks: LucidityMatchupAttack[] = [];
  const refused: LucidityRefused[] = [];
  for (const [attacker, defender] of [LUCIDITY_MATCHUP_IDS, [LUCIDITY_MATCHUP_IDS[1], LUCIDITY_MATCHUP_IDS[0]]] as const) {
    const a = start.game.combatants[attacker]!;
    const t = start.game.combatants[defender]!;
    for (const weapon of a.weapons) {
      for (const roll of LUCIDITY_ATTACK_ROLLS) {
        try {
          const state = turnOf(start, attacker, dice);
          const raw = attackCommand(attacker, defender, weapon.name, roll);
          // Declared to the encounter first: a refusal is the table's, with its reason.
          run(state, raw, dice);
          const odds = declaredAttackOdds(state.game, raw as unknown as CommandOf<'attack'>, opts);
          if (!odds) continue;
          attacks.push({ attacker: a.name, defender: t.name, weapon: weapon.name, roll, modifier: odds.modifiers.reduce((n, m) => n + m.value, 0), defense: odds.defense, damage: weapon.damage, protection: t.protection + t.shieldProtection, odds });
        } catch (e) {
          if (!isRuleError(e)) throw e;
          refused.push({ attacker: a.name, weapon: weapon.name, roll, reason: e.message });
        }
      }
    }
  }
  return { attacks, refused };
}

/** Whether a combatant is out of the fight: unconscious or dead ("Hitting 0 Health"). */
function out(state: LucidityTableState, id: string): boolean {
  const c = state.game.combatants[id]!;
  return c.condition === 'unconscious' || c.condition === 'dead';
}

/**
 * Whole duels by the Lucidity encounter rules: on its turn each attacks the other with its best attack
 * rolled on the d20 (the most damage taken on average), falling back on the next where the rules refuse
 * it, for as long as its actions allow ("Actions"), then ends its turn, until one is out of the fight or
 * the round limit is reached.
 */
export function simulateLucidityDuels(pair: DuelPair, preset: string, overrides: Readonly<Record<string, unknown>>, settings: DuelSettings): DuelTally {
  const { attacks } = lucidityMatchupOdds(pair, preset, overrides);
  const plan = new Map<string, string[]>();
  for (const [id, sheet] of [[LUCIDITY_MATCHUP_IDS[0], pair.first], [LUCIDITY_MATCHUP_IDS[1], pair.second]] as const) {
    const mine = attacks.filter((x) => x.attacker === sheet.name && x.roll === 'd20').sort((p, q) => q.odds.expectedDamage - p.odds.expectedDamage);
    plan.set(id, mine.map((x) => x.weapon));
  }
  const [a, b] = LUCIDITY_MATCHUP_IDS;
  const setUp = lucidityDuelSetUp(pair, preset, overrides);
  return playDuels([a, b], settings, (dice, maxRounds) => {
    let state = lucidityDuelStart(setUp, dice);
    while (!out(state, a) && !out(state, b) && state.game.round <= maxRounds) {
      const actor = currentOf(state);
      const target = actor === a ? b : a;
      // Attacks while an action is left for one (two actions a turn), then the turn ends.
      for (let n = 0; n < 4 && !out(state, a) && !out(state, b); n++) {
        const before = state;
        for (const weapon of plan.get(actor) ?? []) {
          try {
            state = run(state, attackCommand(actor, target, weapon, 'd20'), dice);
            break;
          } catch (e) {
            if (!isRuleError(e)) throw e;
          }
        }
        if (state === before) break;
      }
      if (out(state, a) || out(state, b)) break;
      state = run(state, { type: 'end-turn' }, dice);
    }
    return { winner: out(state, b) && !out(state, a) ? a : out(state, a) && !out(state, b) ? b : null, round: state.game.round };
  });
}
