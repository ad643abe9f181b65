import { playDuels, type DuelSettings, type DuelTally } from '@personae/core';
import { seededDice, type DiceSource } from '@personae/dice';
import type { ChallengeResult } from '../challenge/resolve';
import type { Combatant } from '../encounter/combatant';
import { EncounterCommandSchema, type DefenseChoice, type EncounterCommand } from '../encounter/commands';
import { decide } from '../encounter/decide';
import { RuleError } from '../encounter/errors';
import type { EncounterEvent } from '../encounter/events';
import { evolve } from '../encounter/evolve';
import { EMPTY_STATE, type EncounterState } from '../encounter/state';
import { oddsOfRolled } from './rejudge';
import type { ChallengeOdds } from '../odds/types';
import type { Preset, TableOptions } from '../options';

/**
 * Archetype against archetype: two characters, the exact odds of every attack one can make on the
 * other with every defense the other may answer with, and whole duels played out by the encounter rules
 * (personae-core-2011.txt "Encounters", "Attack", "Defense", "Injury and Death") many times over.
 *
 * Sides are built by the encounter itself: each attack is decided once in a fresh violent encounter and
 * the pools and modifiers it rolled (skill, attribute, Qualities, weapons, status) are what the exact
 * odds are computed for.
 */

// The duel tally and its confidence interval are shared by every ruleset's matchup (@personae/core).
export { wilsonInterval, type DuelSettings, type DuelTally } from '@personae/core';

export interface MatchupAttack {
  readonly attacker: string;
  readonly defender: string;
  readonly skill: string;
  readonly defense: DefenseChoice;
  readonly defenseSkill?: string;
  /** An active defense, declared ahead with the defender's action. */
  readonly active: boolean;
  readonly actor: { readonly dice: number; readonly modifier: number };
  readonly reactor: { readonly dice: number; readonly modifier: number };
  readonly odds: ChallengeOdds;
  /** Lines the encounter added (defenses, abilities, penalties). */
  readonly notes: readonly string[];
}

export interface Refused {
  readonly attacker: string;
  readonly skill: string;
  readonly defense: DefenseChoice;
  readonly defenseSkill?: string;
  readonly reason: string;
}

function apply(state: EncounterState, events: readonly EncounterEvent[]): EncounterState {
  let s = state;
  for (const e of events) s = evolve(s, e);
  return s;
}

function run(state: EncounterState, raw: Record<string, unknown>, dice: DiceSource): { state: EncounterState; events: EncounterEvent[] } {
  const command = EncounterCommandSchema.parse(raw) as EncounterCommand;
  const events = decide(state, command, dice);
  return { state: apply(state, events), events };
}

/**
 * A violent encounter between the two (personae-core-2011.txt "Escalation"): straight to violence where
 * the table's ladder allows it, otherwise up the ladder one step at a time, skipping stages it lacks.
 */
export function duelStart(a: Combatant, b: Combatant, preset: Preset, overrides: Partial<TableOptions>, dice: DiceSource): EncounterState {
  let state = run(EMPTY_STATE, { type: 'set-up', actor: 'gm', title: `${a.name} against ${b.name}`, options: { preset, options: overrides }, characters: [a, b] }, dice).state;
  try {
    return run(state, { type: 'escalate', actor: a.id, to: 'violent' }, dice).state;
  } catch (e) {
    if (!(e instanceof RuleError)) throw e;
  }
  for (const to of ['non-violent', 'hostile', 'violent'] as const) {
    try {
      state = run(state, { type: 'escalate', actor: a.id, to }, dice).state;
    } catch (e) {
      if (!(e instanceof RuleError) || e.code !== 'unknown-stage') throw e;
    }
  }
  return state;
}

/** The skills a character can attack with: each skill tied to a weapon it carries. */
export function attackSkills(c: Combatant): string[] {
  return c.skills.filter((s) => s.weapon !== undefined).map((s) => s.name);
}

/**
 * The defenses a character might answer an attack with (personae-core-2011.txt "Passive vs. Active
 * Defense"): the passive dodge and block, and a parry with each weapon skill, an active defense declared
 * ahead with an action.
 */
export function defenseChoices(c: Combatant): { defense: DefenseChoice; defenseSkill?: string; active: boolean }[] {
  const out: { defense: DefenseChoice; defenseSkill?: string; active: boolean }[] = [
    { defense: 'dodge', active: false },
    { defense: 'block', active: false },
  ];
  for (const skill of attackSkills(c)) out.push({ defense: 'parry', defenseSkill: skill, active: true });
  return out;
}

/** Turns end until it is `id`'s turn. */
function turnOf(state: EncounterState, id: string, dice: DiceSource): EncounterState {
  let s = state;
  for (let guard = 0; guard < 8; guard++) {
    const combat = s.now!.combat!;
    const current = combat.order[combat.index]!;
    if (current === id) return s;
    s = run(s, { type: 'end-turn', actor: current }, dice).state;
  }
  throw new Error(`${id} never had a turn`);
}

/** Exact odds of every attack of each on the other, with each defense the rules let the defender use. */
export function matchupOdds(a: Combatant, b: Combatant, preset: Preset, overrides: Partial<TableOptions> = {}): { attacks: MatchupAttack[]; refused: Refused[] } {
  const attacks: MatchupAttack[] = [];
  const refused: Refused[] = [];
  const dice = seededDice(1);
  const start = duelStart(a, b, preset, overrides, dice);
  const options = start.now!.options;
  for (const [attacker, defender] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const skill of attackSkills(attacker)) {
      for (const d of defenseChoices(defender)) {
        let events: EncounterEvent[];
        try {
          let state = start;
          if (d.active) {
            // The defender declares the parry on its turn; the attack comes on the attacker's next one.
            state = turnOf(state, defender.id, dice);
            state = run(state, { type: 'defend', actor: defender.id, kind: 'parry', skill: d.defenseSkill }, dice).state;
            state = run(state, { type: 'end-turn', actor: defender.id }, dice).state;
          }
          state = turnOf(state, attacker.id, dice);
          events = run(state, { type: 'attack', actor: attacker.id, target: defender.id, skill, defense: d.defense, ...(d.defenseSkill ? { defenseSkill: d.defenseSkill } : {}) }, dice).events;
        } catch (e) {
          if (!(e instanceof RuleError)) throw e;
          refused.push({ attacker: attacker.name, skill, defense: d.defense, ...(d.defenseSkill ? { defenseSkill: d.defenseSkill } : {}), reason: e.message });
          continue;
        }
        const resolved = events.find((e): e is Extract<EncounterEvent, { type: 'challenge-resolved' }> => e.type === 'challenge-resolved');
        if (!resolved) continue;
        const r: ChallengeResult = resolved.result;
        attacks.push({
          attacker: attacker.name,
          defender: defender.name,
          skill,
          defense: d.defense,
          ...(d.defenseSkill ? { defenseSkill: d.defenseSkill } : {}),
          active: d.active,
          actor: { dice: r.actor.pool.dice, modifier: r.actor.modifier },
          reactor: { dice: r.reactor.pool.dice, modifier: r.reactor.modifier },
          odds: oddsOfRolled(r, options),
          notes: resolved.notes,
        });
      }
    }
  }
  return { attacks, refused };
}

/** Whether a character is out of the fight: unconscious, incapacitated or dead. */
function out(state: EncounterState, id: string): boolean {
  const c = state.now!.characters[id]!;
  return !c.conscious || c.status === 'incapacitated' || c.status === 'dead';
}

/**
 * Whole duels by the encounter rules: on its turn each attacks the other with the attack that has the
 * best chance against the passive defense that serves the defender best (both from matchupOdds), then
 * ends its turn, until one is out of the fight or the round limit is reached.
 */
export function simulateDuels(a: Combatant, b: Combatant, preset: Preset, overrides: Partial<TableOptions>, settings: DuelSettings): DuelTally {
  const { attacks } = matchupOdds(a, b, preset, overrides);
  // For each attacker: the defender's best answer to each attack, then the attacker's best attack.
  const plan = new Map<string, MatchupAttack>();
  for (const c of [a, b]) {
    // An active defense costs the defender its action, so the duels answer with passive defenses.
    const mine = attacks.filter((x) => x.attacker === c.name && !x.active);
    const bySkill = new Map<string, MatchupAttack>();
    for (const x of mine) {
      const had = bySkill.get(x.skill);
      if (!had || x.odds.success < had.odds.success) bySkill.set(x.skill, x);
    }
    const best = [...bySkill.values()].sort((p, q) => q.odds.success - p.odds.success)[0];
    if (best) plan.set(c.id, best);
  }
  return playDuels([a.id, b.id], settings, (dice, maxRounds) => {
    let state = duelStart(a, b, preset, overrides, dice);
    while (!out(state, a.id) && !out(state, b.id) && state.now!.combat!.round <= maxRounds) {
      const combat = state.now!.combat!;
      const actor = combat.order[combat.index]!;
      const target = actor === a.id ? b.id : a.id;
      const chosen = plan.get(actor);
      if (chosen && !out(state, actor)) {
        try {
          state = run(state, { type: 'attack', actor, target, skill: chosen.skill, defense: chosen.defense, ...(chosen.defenseSkill ? { defenseSkill: chosen.defenseSkill } : {}) }, dice).state;
        } catch (e) {
          // An attack the rules refuse now (an ability used up, say) is passed over: the turn ends.
          if (!(e instanceof RuleError)) throw e;
        }
      }
      if (out(state, a.id) || out(state, b.id)) break;
      state = run(state, { type: 'end-turn', actor }, dice).state;
    }
    const round = state.now!.combat?.round ?? 0;
    const winner = out(state, b.id) && !out(state, a.id) ? a.id : out(state, a.id) && !out(state, b.id) ? b.id : null;
    return { winner, round };
  });
}
