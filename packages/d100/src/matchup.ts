import { DUEL_IDS, duelPair, isRuleError, OFFLINE_GM, OFFLINE_NOW, playDuels, RuleError, type DiceSource, type DuelPair, type DuelSettings, type DuelTally } from '@personae/core';
import { seededDice } from '@personae/dice';
import type { AttackSpec } from './attack';
import { attackSpec, decideEncounter, declaredAttackOdds, encounterDecider, evolveEncounter, initialEncounter, type AttackCommand, type EncounterCommand, type EncounterEvent, type EncounterState } from './encounter';
import type { AttackOdds } from './odds';
import { checkSheet } from './sheet';

/**
 * Archetype against archetype for d100 sheets: the exact odds of every attack each character can make
 * on the other (each weapon, a Persona's magic among them) against each way the other may meet it, and
 * whole duels played out by the encounter rules many times over (d100-combat-rules.txt "Combat
 * Structure", "How Attacks Work", "Defending and Protecting").
 *
 * Every attack is declared to an encounter set up with the two characters, so the targets, Advantages,
 * damage, armour, Toughness and affinities are those the table would roll with, and its odds are
 * `declaredAttackOdds`, the table's own exact odds.
 */

/**
 * How the defender meets an attack: with its best Evasion (a Parry, Dodge or Acrobatics skill, else
 * Agility); with Evasion after taking the Defend action on its own turn (an Advantage on the Evasion,
 * and no extra wound or Stagger from Weakness, a Technical Hit or a Critical); or not at all.
 */
export const D100_DEFENCES = ['evasion', 'defend', 'none'] as const;
export type D100Defence = (typeof D100_DEFENCES)[number];

export interface D100MatchupAttack {
  readonly attacker: string;
  readonly defender: string;
  readonly weapon: string;
  readonly defence: D100Defence;
  /** The attack as the encounter declared it: its kind, element, targets, damage and Advantages. */
  readonly spec: AttackSpec;
  readonly odds: AttackOdds;
}

export interface D100Refused {
  readonly attacker: string;
  readonly weapon: string;
  readonly defence: D100Defence;
  readonly reason: string;
}

/** The ids the two characters have in a matchup's encounter. */
export const D100_MATCHUP_IDS = DUEL_IDS;

/** Checks both sheets (a refusal names the sheet and field) and sets the second on the other side. */
export function d100Pair(first: unknown, second: unknown): DuelPair {
  return duelPair(first, second, checkSheet, (a, b) => (b.side === a.side ? { side: a.side === 'opponents' ? 'rivals' : 'opponents' } : {}));
}

function run(state: EncounterState, raw: Record<string, unknown>, dice: DiceSource): { state: EncounterState; events: EncounterEvent[] } {
  const parsed = encounterDecider.parseCommand(raw);
  if (!parsed.ok) throw new RuleError(parsed.error.code, parsed.error.message, parsed.error.field);
  const events = decideEncounter(state, parsed.command, { actor: OFFLINE_GM, dice, now: OFFLINE_NOW });
  let s = state;
  for (const e of events) s = evolveEncounter(s, e);
  return { state: s, events };
}

/** The encounter under `preset` (and `overrides`) with the two characters in it, not yet started. */
export function d100DuelSetUp(pair: DuelPair, preset: string, overrides: Readonly<Record<string, unknown>>): EncounterState {
  const dice = seededDice(1);
  let state = initialEncounter(preset, overrides);
  if (preset !== 'seed' || Object.keys(overrides).length) state = run(state, { type: 'set-options', preset, options: { ...overrides } }, dice).state;
  state = run(state, { type: 'add-character', id: D100_MATCHUP_IDS[0], sheet: pair.first }, dice).state;
  return run(state, { type: 'add-character', id: D100_MATCHUP_IDS[1], sheet: pair.second }, dice).state;
}

/** The set-up encounter started: initiative rolled with `dice`. */
export function d100DuelStart(setUp: EncounterState, dice: DiceSource): EncounterState {
  return run(setUp, { type: 'start' }, dice).state;
}

/** Turns end until it is `id`'s turn. */
function turnOf(state: EncounterState, id: string, dice: DiceSource): EncounterState {
  let s = state;
  for (let guard = 0; guard < 8 && s.current !== id; guard++) s = run(s, { type: 'end-turn' }, dice).state;
  if (s.current !== id) throw new Error(`${id} never had a turn`);
  return s;
}

function attackCommand(attacker: string, defender: string, weapon: string, defence: D100Defence): Record<string, unknown> {
  return { type: 'attack', attacker, defender, weapon, ...(defence === 'none' ? { evasionTarget: null } : {}) };
}

/**
 * The exact odds of every attack of each on the other, with each defence. An attack the encounter
 * refuses (a weapon it cannot use against that target) is listed with the rule's reason instead.
 */
export function d100MatchupOdds(pair: DuelPair, preset: string, overrides: Readonly<Record<string, unknown>> = {}): { attacks: D100MatchupAttack[]; refused: D100Refused[] } {
  // The same sheets under the same rules give the same odds: reused (simulateD100Duels asks on every call)
  const key = JSON.stringify([pair.first, pair.second, preset, overrides]);
  let odds = oddsMade.get(key);
  if (!odds) {
    odds = matchupOdds(pair, preset, overrides);
    if (oddsMade.size >= ODDS_KEPT) oddsMade.delete(oddsMade.keys().next().value!);
    oddsMade.set(key, odds);
  }
  return { attacks: [...odds.attacks], refused: [...odds.refused] };
}

/** Odds already worked out, by sheets, preset and overrides; the oldest go first past ODDS_KEPT. */
const oddsMade = new Map<string, { readonly attacks: readonly D100MatchupAttack[]; readonly refused: readonly D100Refused[] }>();
const ODDS_KEPT = 16;

function matchupOdds(pair: DuelPair, preset: string, overrides: Readonly<Record<string, unknown>>): { attacks: D100MatchupAttack[]; refused: D100Refused[] } {
  const dice = seededDice(1);
  const start = d100DuelStart(d100DuelSetUp(pair, preset, overrides), dice);
  const attacks: D100MatchupAttack[] = [];
  const refused: D100Refused[] = [];
  for (const [attacker, defender] of [D100_MATCHUP_IDS, [D100_MATCHUP_IDS[1], D100_MATCHUP_IDS[0]]] as const) {
    const sheet = start.sheets[attacker]!;
    for (const weapon of sheet.weapons) {
      for (const defence of D100_DEFENCES) {
        let state = start;
        try {
          if (defence === 'defend') {
            // The Defend action is the defender's, on its own turn; the attack comes on the attacker's next.
            state = turnOf(state, defender, dice);
            state = run(state, { type: 'defend' }, dice).state;
            state = run(state, { type: 'end-turn' }, dice).state;
          }
          state = turnOf(state, attacker, dice);
          const raw = attackCommand(attacker, defender, weapon.name, defence);
          // Declared to the encounter first: a refusal is the table's, with its reason.
          run(state, raw, dice);
          const command = encounterDecider.parseCommand(raw);
          if (!command.ok) throw new RuleError(command.error.code, command.error.message, command.error.field);
          const c = command.command as AttackCommand;
          attacks.push({ attacker: sheet.name, defender: state.sheets[defender]!.name, weapon: weapon.name, defence, spec: attackSpec(state, c), odds: declaredAttackOdds(state, c) });
        } catch (e) {
          if (!isRuleError(e)) throw e;
          refused.push({ attacker: sheet.name, weapon: weapon.name, defence, reason: e.message });
        }
      }
    }
  }
  return { attacks, refused };
}

/** The wounds an attack takes on average (Persona wounds included). */
export function expectedWounds(odds: AttackOdds): number {
  return Object.entries(odds.wounds).reduce((s, [n, p]) => s + Number(n) * p, 0);
}

/**
 * Whole duels by the d100 encounter rules: on its turn each attacks the other with its best attack
 * against Evasion (the most likely to take the other out, then the most wounds on average), falling
 * back on the next where the rules refuse it, then ends its turn, until one is out of the fight or
 * the round limit is reached. A One More the attack earns is taken as another attack.
 */
export function simulateD100Duels(pair: DuelPair, preset: string, overrides: Readonly<Record<string, unknown>>, settings: DuelSettings): DuelTally {
  const { attacks } = d100MatchupOdds(pair, preset, overrides);
  const plan = new Map<string, string[]>();
  for (const [id, sheet] of [[D100_MATCHUP_IDS[0], pair.first], [D100_MATCHUP_IDS[1], pair.second]] as const) {
    const mine = attacks.filter((x) => x.attacker === sheet.name && x.defence === 'evasion');
    mine.sort((p, q) => q.odds.out - p.odds.out || expectedWounds(q.odds) - expectedWounds(p.odds));
    plan.set(id, mine.map((x) => x.weapon));
  }
  const [a, b] = D100_MATCHUP_IDS;
  const setUp = d100DuelSetUp(pair, preset, overrides);
  return playDuels([a, b], settings, (dice, maxRounds) => {
    let state = d100DuelStart(setUp, dice);
    const out = (id: string): boolean => state.fighters[id]!.out;
    // Each turn: attacks while the rules allow one (a One More gives another), then the turn ends.
    while (!out(a) && !out(b) && state.round <= maxRounds) {
      const actor = state.current!;
      const target = actor === a ? b : a;
      for (let attacksThisTurn = 0; attacksThisTurn < 4 && !out(a) && !out(b); attacksThisTurn++) {
        const before = state;
        for (const weapon of plan.get(actor) ?? []) {
          try {
            state = run(state, attackCommand(actor, target, weapon, 'evasion'), dice).state;
            break;
          } catch (e) {
            if (!isRuleError(e)) throw e;
          }
        }
        if (state === before || state.oneMore?.holder !== actor) break;
      }
      if (out(a) || out(b)) break;
      state = run(state, { type: 'end-turn' }, dice).state;
    }
    return { winner: out(b) && !out(a) ? a : out(a) && !out(b) ? b : null, round: state.round };
  });
}
