import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { givenDice } from '@personae/dice';
import {
  armourAt,
  attackModifiers,
  attackSpec,
  commandSchema,
  confusedActs,
  decideEncounter,
  declaredAttackOdds,
  DEFAULT_OPTIONS,
  encounterDecider,
  evolveEncounter,
  groupsOf,
  inflictAilment,
  initialEncounter,
  initiativeOrder,
  makeFighter,
  movementOutcome,
  panicFlees,
  resolveOptions,
  strengthBonus,
  type AttackCommand,
  type EncounterCommand,
  type EncounterEvent,
  type EncounterState,
  viewEncounter,
} from '../src';

/**
 * One test per value of each option that settles an open term or a contradiction of
 * d100-combat-rules.txt, each under the seed heading the option reads.
 */
const GM: Actor = { role: 'gm', participantId: 'gm' };
const base = { melee: 50, ballistic: 40, magic: 50, strength: 30, toughness: 40, agility: 50, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
/** Initiative: A 5, B 4, C 3, D 2 (Agility Bonus). A and D are the party (TB 4), B and C Shadows (TB 3). */
const SHEETS = {
  a: { name: 'A', side: 'pc', scores: base, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, melee: 40, agility: 40, toughness: 30 }, armour: { body: 3 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
  c: { name: 'C', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 30, toughness: 30 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
  d: { name: 'D', side: 'pc', scores: { ...base, agility: 20, perception: 10 }, weapons: [{ name: 'Staff', class: 'melee', element: 'melee', damage: 2 }] },
};

function run(state: EncounterState, command: Record<string, unknown>, dice: number[] = []): EncounterState {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideEncounter(state, parsed.command as EncounterCommand, { actor: GM, dice: givenDice(dice), now: '' }).reduce(evolveEncounter, state);
}

function table(options: Record<string, unknown> = {}, sheets: Record<string, unknown> = SHEETS): EncounterState {
  let s = run(initialEncounter(), { type: 'set-options', options });
  for (const [id, sheet] of Object.entries(sheets)) s = run(s, { type: 'add-character', id, sheet });
  return run(s, { type: 'start' });
}

const last = (s: EncounterState): EncounterEvent => groupsOf(s).at(-1)!.at(-1)!;
const summaryOf = (s: EncounterState) => {
  const e = last(s);
  if (e.type !== 'attack-resolved') throw new Error(`expected an attack, got ${e.type}`);
  return e.data.summary;
};
const attack = (c: Record<string, unknown>): AttackCommand => commandSchema.parse({ type: 'attack', ...c }) as AttackCommand;
const labels = (s: EncounterState, c: Record<string, unknown>) => {
  const cmd = attack(c);
  return attackModifiers(s.fighters[cmd.attacker]!, s.fighters[cmd.defender]!, attackSpec(s, cmd), s.options).map((m) => `${m.label} ${m.value}`);
};
/** Ends turns until it is `who`'s turn. */
function until(s: EncounterState, who: string, dice: number[] = []): EncounterState {
  for (let i = 0; i < 10 && s.current !== who; i++) s = run(s, { type: 'end-turn' }, dice);
  return s;
}

describe('C1 evasionVsMagic ("Standard Attack and other Attack Actions" against "How Attacks Work")', () => {
  const dodger = { ...SHEETS, b: { ...SHEETS.b, skills: [{ name: 'Acrobatics', focus: 'Dodge', score: 'agility', training: 'trained' }] } };
  const psy = { attacker: 'a', defender: 'b', kind: 'magic', element: 'psy', damage: 3 };
  it('any-evasion: Dodge opposes a Psychic spell', () => {
    const s = table({}, dodger);
    expect(attackSpec(s, attack(psy)).evasionTarget).toBe(50);
  });
  it('no-dodge-vs-mental: Dodge does not oppose a Psychic spell (it still opposes Fire); Anticipate does', () => {
    const s = table({ evasionVsMagic: 'no-dodge-vs-mental' }, dodger);
    expect(attackSpec(s, attack(psy)).evasionTarget).toBeNull();
    expect(attackSpec(s, attack({ ...psy, element: 'fire' })).evasionTarget).toBe(50);
    // roll 45 against Magic 50: a hit with no evasion roll; the next die is the location
    expect(summaryOf(run(s, { type: 'attack', ...psy }, [45, 50])).evasionRoll).toBeNull();
    const anticipating = table({ evasionVsMagic: 'no-dodge-vs-mental' }, { ...dodger, b: { ...dodger.b, skills: [...dodger.b.skills, { name: 'Awareness', focus: 'Anticipate', score: 'perception', training: 'known' }] } });
    expect(attackSpec(anticipating, attack(psy)).evasionTarget).toBe(30);
  });
});

describe('C2 difficultTerrainScope ("Difficult Terrain" against the Advantage table in "How Attacks Work")', () => {
  it('movement-and-agility: the Difficult Terrain Number burdens Agility tests, not attacks', () => {
    let s = run(table(), { type: 'set-terrain', target: 'a', dtn: 2 });
    expect(labels(s, { attacker: 'a', defender: 'b' })).not.toContain('Difficult Terrain -20');
    s = run(s, { type: 'test', who: 'a', score: 'agility' }, [45]);
    const e = last(s);
    expect(e.type === 'test-rolled' && e.data.modifiers).toEqual([{ label: 'Difficult Terrain', value: -20 }]);
    // 45 against 50 - 20 = 30 fails
    expect(e.type === 'test-rolled' && e.data.success).toBe(false);
  });
  it('all-actions: it burdens attacks too', () => {
    const s = run(table({ difficultTerrainScope: 'all-actions' }), { type: 'set-terrain', target: 'a', dtn: 2 });
    expect(labels(s, { attacker: 'a', defender: 'b' })).toContain('Difficult Terrain -20');
  });
});

describe('C5 frozenImmunity (Frozen and Shocked rows of the ailments passage after "Fate Points")', () => {
  const iceProof = (e: string) => e === 'ice';
  it('ice-frozen: immunity to Ice confers immunity to Frozen; Shocked still takes hold', () => {
    const o = { ...DEFAULT_OPTIONS, frozenImmunity: 'ice-frozen' as const };
    expect(inflictAilment([], 'frozen', { turnsStarted: 0 }, iceProof, o)).toMatchObject({ ok: false, reason: 'immune' });
    expect(inflictAilment([], 'shocked', { turnsStarted: 0 }, iceProof, o).ok).toBe(true);
  });
  it('literal: immunity to Ice confers immunity to Shocked, and Frozen takes hold', () => {
    const o = { ...DEFAULT_OPTIONS, frozenImmunity: 'literal' as const };
    expect(inflictAilment([], 'frozen', { turnsStarted: 0 }, iceProof, o).ok).toBe(true);
    expect(inflictAilment([], 'shocked', { turnsStarted: 0 }, iceProof, o)).toMatchObject({ ok: false, reason: 'immune' });
    expect(inflictAilment([], 'shocked', { turnsStarted: 0 }, (e) => e === 'elec', o).ok).toBe(false);
  });
});

describe('C7 injuryDuration ("Wounds and Injury")', () => {
  const hurt = (options: Record<string, unknown>) => {
    const s = table(options);
    const a = s.fighters.a!;
    const injuries = [{ location: 'head' as const, name: 'concussion', level: 1 }, { location: 'body' as const, name: 'puncture', level: 3 }];
    return { ...s, fighters: { ...s.fighters, a: { ...a, tracks: { max: a.tracks.max, left: { light: 0, heavy: 0, deadly: 1 } }, injuries } } };
  };
  const names = (s: EncounterState) => s.fighters.a!.injuries.map((i) => i.name);
  it('all-heavy-restored: the Injuries end when the Heavy track (2 for TB 4) is full again', () => {
    let s = run(hurt({}), { type: 'restore-wounds', target: 'a', heavy: 1 });
    expect(names(s)).toEqual(['concussion', 'puncture']);
    expect(names(run(s, { type: 'treat-injuries', target: 'a', how: 'rest' }))).toEqual(['concussion', 'puncture']);
    s = run(s, { type: 'restore-wounds', target: 'a', heavy: 1 });
    expect(s.fighters.a!.tracks.left.heavy).toBe(2);
    expect(names(s)).toEqual([]);
  });
  it('that-heavy-restored: each Heavy wound restored ends the latest Injury', () => {
    const s = run(hurt({ injuryDuration: 'that-heavy-restored' }), { type: 'restore-wounds', target: 'a', heavy: 1 });
    expect(names(s)).toEqual(['concussion']);
  });
  it('rest-or-medical: restoring ends none; rest or medical attention ends them all', () => {
    const s = run(hurt({ injuryDuration: 'rest-or-medical' }), { type: 'restore-wounds', target: 'a', heavy: 2, light: 9 });
    expect(s.fighters.a!.tracks.left).toEqual({ light: 4, heavy: 2, deadly: 1 });
    expect(names(s)).toEqual(['concussion', 'puncture']);
    expect(names(run(s, { type: 'treat-injuries', target: 'a', how: 'medical' }))).toEqual([]);
  });
});

describe('C8 confusedBands (Confused row of the ailments passage after "Fate Points")', () => {
  const fail = (dof: number) => ({ success: false, degreesOfFailure: dof });
  it('the bands below 4: nothing at 0-1 DoF, drops the left hand at odd DoF and the right at even', () => {
    expect(confusedActs(fail(1), DEFAULT_OPTIONS)).toEqual({ acts: ['nothing'] });
    expect(confusedActs(fail(3), DEFAULT_OPTIONS)).toEqual({ acts: ['drop'], hand: 'left' });
    expect(confusedActs(fail(2), DEFAULT_OPTIONS)).toEqual({ acts: ['drop'], hand: 'right' });
    expect(confusedActs({ success: true, degreesOfFailure: 0 }, DEFAULT_OPTIONS)).toEqual({ acts: [] });
  });
  it('highest-band: at 5+ DoF it attacks itself only; the test is rolled at the start of its turn', () => {
    let s = run(table(), { type: 'inflict-ailment', target: 'b', ailment: 'confused' });
    // B's Intelligence 30 - 10 (an ailment of its own gives no Advantage to itself): roll 85 is 5 DoF
    s = run(s, { type: 'end-turn' }, [85]);
    const e = groupsOf(s).at(-1)!.find((x) => x.type === 'turn-started')!;
    expect(e.type === 'turn-started' && e.data.confused).toMatchObject({ roll: 85, success: false, degrees: 5, acts: ['attack-self'] });
  });
  it('at 0-1 DoF it does nothing that Turn: its Move and Action are spent so, and an attack or a Move is refused with the rule', () => {
    let s = run(table(), { type: 'inflict-ailment', target: 'b', ailment: 'confused' });
    // B's start-of-turn Intelligence test: 35 fails by at most 1 DoF
    s = run(s, { type: 'end-turn' }, [35]);
    const e = groupsOf(s).at(-1)!.find((x) => x.type === 'turn-started')!;
    expect(e.type === 'turn-started' && e.data.confused).toMatchObject({ roll: 35, success: false, acts: ['nothing'] });
    expect(viewEncounter(s, GM).characters.find((c) => c.id === 'b')!.turn).toEqual({ action: false, move: false, actionSpentOn: 'doing nothing (Confused)', moveSpentOn: 'doing nothing (Confused)', oneMore: false });
    const refused = (command: Record<string, unknown>) => {
      try {
        run(s, command, [10, 90, 50]);
        return null;
      } catch (err) {
        const r = err as { code: string; message: string; rule?: { section: string } };
        return { code: r.code, message: r.message, section: r.rule?.section };
      }
    };
    expect(refused({ type: 'attack', attacker: 'b', defender: 'a' })).toEqual({ code: 'confused', message: 'type: B is Confused and does nothing this Turn (its Intelligence test failed by 0 or 1 DoF), though it may still oppose attacks: no Standard Attack', section: 'Ailments (untitled passage after "Fate Points")' });
    expect(refused({ type: 'defend' })).toMatchObject({ code: 'confused' });
    // a passed test on its next Turn leaves the Turn its own
    const next = until(run(s, { type: 'end-turn' }), 'b', [10]);
    expect(viewEncounter(next, GM).characters.find((c) => c.id === 'b')!.turn).toMatchObject({ action: true, move: true });
  });
  it('both: at 5+ DoF it attacks the nearest character and itself', () => {
    expect(confusedActs(fail(5), { confusedBands: 'both' }).acts).toEqual(['attack-nearest', 'attack-self']);
    expect(confusedActs(fail(4), { confusedBands: 'both' }).acts).toEqual(['attack-nearest']);
  });
});

describe('C9 dofThresholds (Climbing in "Obstacles and unusual movement")', () => {
  const fail = (dof: number) => ({ success: false, degreesOfFailure: dof });
  it('at-least: 3 DoF doubly Hinders, 5 DoF falls', () => {
    expect(movementOutcome('climb', fail(3), DEFAULT_OPTIONS)).toEqual({ hindrance: 2, falls: false, sinks: false });
    expect(movementOutcome('climb', fail(5), DEFAULT_OPTIONS).falls).toBe(true);
    // A's Agility 50, roll 85: 3 DoF
    const s = run(table(), { type: 'movement-test', who: 'a', kind: 'climb' }, [85]);
    const e = last(s);
    expect(e.type === 'movement-tested' && e.data.outcome).toEqual({ hindrance: 2, falls: false, sinks: false });
  });
  it('exactly: 2 DoF doubly Hinders and 4 DoF falls, but 3 and 5 DoF only Hinder', () => {
    const o = { dofThresholds: 'exactly' as const };
    expect(movementOutcome('climb', fail(2), o).hindrance).toBe(2);
    expect(movementOutcome('climb', fail(4), o).falls).toBe(true);
    expect(movementOutcome('climb', fail(3), o)).toEqual({ hindrance: 1, falls: false, sinks: false });
    expect(movementOutcome('climb', fail(5), o)).toEqual({ hindrance: 1, falls: false, sinks: false });
    // Swimming says "or more" itself: the option leaves it alone
    expect(movementOutcome('swim', fail(3), o).hindrance).toBe(2);
  });
});

describe('C10 panickedMargin (Panicked row of the ailments passage after "Fate Points")', () => {
  // A (Melee 50, -10 for its own Panicked) attacks B, the source: roll 55 fails by 1 DoF; B's Agility 40 evades with roll 20, 2 DoS
  const panicked = (options: Record<string, unknown>) => run(table(options), { type: 'inflict-ailment', target: 'a', ailment: 'panicked', source: 'b' });
  it('sum: 1 DoF and 2 DoS are 3 apart: A spends its next Move and Action fleeing', () => {
    expect(panicFlees(1, 2, { panickedMargin: 'sum' })).toBe(true);
    const s = run(panicked({}), { type: 'attack', attacker: 'a', defender: 'b' }, [55, 20]);
    expect(s.fighters.a!.conditions.mustFlee).toBe(true);
    // the flight is A's next Move and Action: the end of this Turn does not take it away
    expect(run(s, { type: 'end-turn' }).fighters.a!.conditions.mustFlee).toBe(true);
    expect(until(run(s, { type: 'end-turn' }), 'a').fighters.a!.conditions).toMatchObject({ mustFlee: false, fleeing: 'b' });
  });
  it('absolute-difference: 1 and 2 differ by 1: no flight; 4 DoF against 0 DoS still flees', () => {
    expect(panicFlees(4, 0, { panickedMargin: 'absolute-difference' })).toBe(true);
    const s = run(panicked({ panickedMargin: 'absolute-difference' }), { type: 'attack', attacker: 'a', defender: 'b' }, [55, 20]);
    expect(s.fighters.a!.conditions.mustFlee).toBe(false);
  });
  it('winning a test against the source ends the panic', () => {
    const s = run(panicked({}), { type: 'attack', attacker: 'a', defender: 'b' }, [15, 90, 50]);
    expect(s.fighters.a!.ailments.map((x) => x.name)).toEqual([]);
  });
});

describe('C20 highGround (High Ground in the Advantage table of "How Attacks Work")', () => {
  const placed = (options: Record<string, unknown>, drop: number) => run(run(table(options), { type: 'place', target: 'a', x: 0, y: 0, elevation: drop }), { type: 'place', target: 'b', x: 1, y: 0, elevation: 0 });
  it('at-least-1m-lower: a target 1 m or 3 m below gives High Ground', () => {
    expect(labels(placed({}, 1), { attacker: 'a', defender: 'b' })).toContain('High Ground 10');
    expect(labels(placed({}, 3), { attacker: 'a', defender: 'b' })).toContain('High Ground 10');
    expect(labels(placed({}, 0), { attacker: 'a', defender: 'b' })).not.toContain('High Ground 10');
  });
  it('up-to-1m-lower: 1 m below does, 3 m below does not', () => {
    expect(labels(placed({ highGround: 'up-to-1m-lower' }, 1), { attacker: 'a', defender: 'b' })).toContain('High Ground 10');
    expect(labels(placed({ highGround: 'up-to-1m-lower' }, 3), { attacker: 'a', defender: 'b' })).not.toContain('High Ground 10');
  });
});

describe('D7 initiativeBonus ("Combat Structure", Step Three: "either their Agility Bonus or Perception Bonus")', () => {
  // Q: Agility 52 (AB 5), Perception 38 (PB 3). R: Agility 31 (AB 3), Perception 64 (PB 6).
  const q = makeFighter({ id: 'q', scores: { ...base, agility: 52, perception: 38 } });
  const r = makeFighter({ id: 'r', scores: { ...base, agility: 31, perception: 64 } });
  const order = (from?: 'higher' | 'agility' | 'perception') => initiativeOrder([q, r], givenDice([]), {}, { method: 'roll-off' }, from).map((x) => [x.id, x.initiative, x.score]);
  it('higher (default): each counts its higher Bonus, R 6 before Q 5', () => {
    expect(order()).toEqual([['r', 6, 64], ['q', 5, 52]]);
  });
  it('agility: Q 5 before R 3; perception: R 6 before Q 3', () => {
    expect(order('agility')).toEqual([['q', 5, 52], ['r', 3, 31]]);
    expect(order('perception')).toEqual([['r', 6, 64], ['q', 3, 38]]);
  });
  it('the table option reaches the encounter\'s start', () => {
    let s = run(initialEncounter(), { type: 'set-options', options: { initiativeBonus: 'agility' } });
    s = run(run(s, { type: 'add-character', id: 'x', sheet: { ...SHEETS.a, scores: { ...base, agility: 52, perception: 38 } } }), { type: 'add-character', id: 'y', sheet: { ...SHEETS.a, name: 'Y', scores: { ...base, agility: 31, perception: 64 } } });
    expect(run(s, { type: 'start' }).order).toEqual(['x', 'y']);
  });
});

describe('U13 initiativeLastTie ("Combat Structure", Step Three)', () => {
  const scores = { ...base };
  const p = makeFighter({ id: 'p', side: 'pc', scores });
  const e = makeFighter({ id: 'e', side: 'shadows', scores });
  it('roll-off: d10 each, higher first (P 2, E 9: E first)', () => {
    expect(initiativeOrder([p, e], givenDice([2, 9])).map((x) => x.id)).toEqual(['e', 'p']);
  });
  it('players-first: the party goes first, no dice rolled', () => {
    expect(initiativeOrder([e, p], givenDice([]), {}, { method: 'players-first' }).map((x) => x.id)).toEqual(['p', 'e']);
  });
  it('gm: the GM orders the tie with tieOrder; a tie left unordered is refused naming it', () => {
    expect(initiativeOrder([p, e], givenDice([]), {}, { method: 'gm', tieOrder: ['e', 'p'] }).map((x) => x.id)).toEqual(['e', 'p']);
    let s = run(initialEncounter(), { type: 'set-options', options: { initiativeLastTie: 'gm' } });
    s = run(run(s, { type: 'add-character', id: 'x', sheet: SHEETS.a }), { type: 'add-character', id: 'y', sheet: { ...SHEETS.a, name: 'Y' } });
    expect(() => run(s, { type: 'start' })).toThrow(/tieOrder: x, y tie .*missing: x, y/);
    expect(run(s, { type: 'start', tieOrder: ['y', 'x'] }).order).toEqual(['y', 'x']);
  });
});

describe('U17 armour ("How Attacks Work", Step Five: Defense is TB plus Armour)', () => {
  // A's Melee 50, roll 45: 1 DoS; B's evasion 40 fails on 90; location 5 is the head.
  // Damage 5 + SB 3 + 1 = 9 against B's TB 3 and the Armour of the head
  it('per-location: B has no Armour on the head: Defense 3', () => {
    const s = table();
    expect(armourAt(s.fighters.b!, 'head', s.options)).toBe(0);
    expect(summaryOf(run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [45, 90, 5]))).toMatchObject({ location: 'head', damage: 9, defense: 3 });
  });
  it('single: the body Armour 3 covers the head: Defense 6', () => {
    const s = table({ armour: 'single' });
    expect(summaryOf(run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [45, 90, 5]))).toMatchObject({ location: 'head', damage: 9, defense: 6 });
  });
});

describe('U19 protectDuration ("Defending and Protecting", Protect)', () => {
  // A protects D; B (Melee 40) attacks D: roll 20, 2 DoS; D's evasion 20 fails on 90; body. Damage 3 + 3 + 2 = 8 against A's TB 4: one wound on A
  const guarded = (options: Record<string, unknown>) => until(run(table(options), { type: 'protect', ally: 'd' }), 'b');
  it('the hit lands on the protector; a Called Attack may go past it with one more Disadvantage', () => {
    const s = guarded({});
    const hit = run(s, { type: 'attack', attacker: 'b', defender: 'd' }, [20, 90, 50]);
    expect(summaryOf(hit).protectedBy).toBe('a');
    expect(hit.fighters.a!.tracks.left.light).toBe(3);
    expect(hit.fighters.d!.tracks.left.light).toBe(4);
    expect(hit.fighters.a!.conditions.protecting).toBeNull();
    expect(labels(s, { attacker: 'b', defender: 'd', called: 'body', ignoreProtector: true })).toContain('past the protector -10');
    // 20 against 40 - 20 - 10 = 10 fails: the Disadvantages count
    expect(() => run(s, { type: 'attack', attacker: 'b', defender: 'd', ignoreProtector: true }, [20, 90, 50])).toThrow(/only a Called Attack/);
  });
  it('next-turn-start: the protection ends when the protector\'s next turn starts', () => {
    expect(until(guarded({}), 'a').fighters.a!.conditions.protecting).toBeNull();
  });
  it('until-triggered: it waits past the protector\'s next turn, until an attack hits the ally', () => {
    const s = until(guarded({ protectDuration: 'until-triggered' }), 'a');
    expect(s.round).toBe(2);
    expect(s.fighters.a!.conditions.protecting).toBe('d');
  });
});

describe('U43 unnatural (Enraged row of the ailments passage after "Fate Points")', () => {
  const enraged = { ...makeFighter({ id: 'e', scores: base }), ailments: [{ name: 'enraged' as const, turns: 2, elapsed: 0, since: 0 }] };
  it('add-to-bonus: Strength 30 gives SB 3, Unnatural Strength (2) makes it 5', () => {
    expect(strengthBonus(enraged, { unnatural: 'add-to-bonus' })).toBe(5);
    expect(strengthBonus(makeFighter({ id: 'n', scores: base }), { unnatural: 'add-to-bonus' })).toBe(3);
  });
  it('multiply-bonus: it doubles SB 3 to 6, and the melee damage shows it', () => {
    expect(strengthBonus(enraged, { unnatural: 'multiply-bonus' })).toBe(6);
    const s = run(table({ unnatural: 'multiply-bonus' }), { type: 'inflict-ailment', target: 'a', ailment: 'enraged' });
    // Melee 50 + 10 (Enraged) = 60, roll 45: 2 DoS; +1 net Advantage; 5 + 6 + 2 + 1 = 14
    expect(summaryOf(run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [45, 90, 50])).damage).toBe(14);
  });
});

describe('U45 condemned (Condemned row of the ailments passage after "Fate Points")', () => {
  // B is Condemned: A's Melee 50 + 10 (one ailment) = 60; B evades with Agility 40 (no Advantage)
  const condemned = (options: Record<string, unknown>) => run(table(options), { type: 'inflict-ailment', target: 'b', ailment: 'condemned' });
  it('attacker-may-reroll: a miss (70) is rolled again (30) against the same evasion (90), and the second stands', () => {
    const s = run(condemned({}), { type: 'attack', attacker: 'a', defender: 'b' }, [70, 90, 30, 50]);
    expect(summaryOf(s)).toMatchObject({ hit: true, roll: 30, evasionRoll: 90, condemnedRolls: [70, 30], location: 'body' });
    // a first roll that hits is not rolled again
    expect(summaryOf(run(condemned({}), { type: 'attack', attacker: 'a', defender: 'b' }, [30, 70, 90])).condemnedRolls).toBeUndefined();
  });
  it('attacker-better-of-two: two rolls, the lower kept', () => {
    const s = run(condemned({ condemned: 'attacker-better-of-two' }), { type: 'attack', attacker: 'a', defender: 'b' }, [30, 70, 90, 50]);
    expect(summaryOf(s)).toMatchObject({ hit: true, roll: 30, evasionRoll: 90, condemnedRolls: [30, 70] });
  });
  it('the exact odds count the reroll: both readings raise the chance to hit', () => {
    const cmd = attack({ attacker: 'a', defender: 'b' });
    const plain = table();
    const bWithout = { ...plain, fighters: { ...plain.fighters, b: { ...plain.fighters.b!, ailments: [{ name: 'dizzy' as const, turns: 2, elapsed: 0, since: 0 }] } } };
    const without = declaredAttackOdds(bWithout, cmd).hit; // another ailment: the same Advantage, no reroll
    const reroll = declaredAttackOdds(condemned({}), cmd).hit;
    const best = declaredAttackOdds(condemned({ condemned: 'attacker-better-of-two' }), cmd).hit;
    expect(reroll).toBeGreaterThan(without);
    expect(best).toBeGreaterThan(without);
  });
});

describe('U50 evasionsPerRound ("How Attacks Work", Step Three)', () => {
  // A attacks B twice: 80 misses (B evades on 50), then 40
  it('unlimited: B opposes both attacks', () => {
    // the second is a Chance Attack: A's turn holds one Action ("Structured Time")
    const s = run(run(table(), { type: 'attack', attacker: 'a', defender: 'b' }, [80, 50]), { type: 'attack', attacker: 'a', defender: 'b', chance: true }, [40, 95, 50]);
    expect(summaryOf(s).evasionRoll).toBe(95);
  });
  it('one: the second attack that Round goes unopposed; a new Round restores it', () => {
    let s = run(table({ evasionsPerRound: 'one' }), { type: 'attack', attacker: 'a', defender: 'b' }, [80, 50]);
    expect(s.fighters.b!.evasionsThisRound).toBe(1);
    s = run(s, { type: 'attack', attacker: 'a', defender: 'b', chance: true }, [40, 50]);
    expect(summaryOf(s)).toMatchObject({ hit: true, evasionRoll: null, evasionSpent: true, location: 'body' });
    expect(until(until(s, 'b'), 'a').fighters.b!.evasionsThisRound).toBe(0);
  });
});

describe('U53 apMeans (Burning and Enraged rows of the ailments passage after "Fate Points")', () => {
  // B (TB 3, body Armour 3) is Enraged and cannot evade: A's roll 45 hits the body for 5 + 3 + 1 + 1 (Advantage) = 10
  const hitEnraged = (options: Record<string, unknown>) => summaryOf(run(run(table(options), { type: 'inflict-ailment', target: 'b', ailment: 'enraged' }), { type: 'attack', attacker: 'a', defender: 'b' }, [45, 50]));
  it('armour-points: attacks on an Enraged target ignore its Armour (Defense 3); Burning ignores it too', () => {
    expect(hitEnraged({})).toMatchObject({ location: 'body', defense: 3 });
    const burning = until(run(run(table(), { type: 'inflict-ailment', target: 'b', ailment: 'burning' }), { type: 'end-turn' }), 'a');
    expect(burning.fighters.b!.tracks.left.light).toBe(2); // Damage 4 beats TB 3
  });
  it('armour-penetration: the Armour counts in full (Defense 6); Burning\'s Damage 4 does not beat TB 3 + Armour 3', () => {
    expect(hitEnraged({ apMeans: 'armour-penetration' })).toMatchObject({ location: 'body', defense: 6 });
    const burning = until(run(run(table({ apMeans: 'armour-penetration' }), { type: 'inflict-ailment', target: 'b', ailment: 'burning' }), { type: 'end-turn' }), 'a');
    expect(burning.round).toBe(2);
    expect(burning.fighters.b!.tracks.left.light).toBe(3);
  });
});

describe('every option value parses', () => {
  it('resolveOptions accepts each new reading by name and refuses a wrong one naming the option', () => {
    expect(resolveOptions('seed', { condemned: 'attacker-better-of-two', armour: 'single' })).toMatchObject({ condemned: 'attacker-better-of-two', armour: 'single' });
    expect(() => resolveOptions('seed', { highGround: 'sometimes' })).toThrow(/option highGround: "sometimes" is not one of at-least-1m-lower, up-to-1m-lower/);
  });
});

describe('C16 doubleListedAdvantage (Charge and Focused Attack in "Standard Attack and other Attack Actions" and the Advantage table)', () => {
  it('count-once: a Charge gives one Advantage; a Focused Attack one, refused after a Move, and no Move after it', () => {
    const s = table();
    expect(labels(s, { attacker: 'a', defender: 'b', action: 'charge' })).toContain('Charge 10');
    expect(labels(s, { attacker: 'a', defender: 'b', action: 'focused' })).toContain('Focused Attack 10');
    const moved = { ...s, fighters: { ...s.fighters, a: { ...s.fighters.a!, conditions: { ...s.fighters.a!.conditions, moved: true } } } };
    expect(() => run(moved, { type: 'attack', attacker: 'a', defender: 'b', action: 'focused' }, [45, 90, 50])).toThrow(/has moved this turn and cannot make a Focused Attack/);
    expect(run(s, { type: 'attack', attacker: 'a', defender: 'b', action: 'focused' }, [45, 90, 50]).fighters.a!.conditions.moved).toBe(true);
  });
  it('count-twice: the action and the table each give one', () => {
    expect(labels(table({ doubleListedAdvantage: 'count-twice' }), { attacker: 'a', defender: 'b', action: 'charge' })).toContain('Charge 20');
  });
});

describe('All-Weapon Attack ("Standard Attack and other Attack Actions")', () => {
  it('each attack takes a Disadvantage, the off hand\'s one more', () => {
    const s = table();
    expect(labels(s, { attacker: 'a', defender: 'b', action: 'all-weapon' })).toContain('All-Weapon Attack -10');
    expect(labels(s, { attacker: 'a', defender: 'b', action: 'all-weapon', hand: 'left' })).toEqual(expect.arrayContaining(['All-Weapon Attack -10', 'off hand -10']));
  });
});

describe('C3 hazeWeather (Bad Weather and Obscuring Haze in the Advantage table of "How Attacks Work")', () => {
  it('count-once: both named give one Disadvantage', () => {
    expect(labels(table(), { attacker: 'a', defender: 'b', situations: ['bad-weather', 'obscuring-haze'] }).filter((l) => l.endsWith('-10'))).toEqual(['Bad Weather -10']);
  });
  it('stack: two Disadvantages; an entry for another kind of attack is refused naming it', () => {
    const s = table({ hazeWeather: 'stack' });
    expect(labels(s, { attacker: 'a', defender: 'b', situations: ['bad-weather', 'obscuring-haze'] })).toEqual(expect.arrayContaining(['Bad Weather -10', 'Obscuring Haze -10']));
    expect(() => labels(s, { attacker: 'a', defender: 'b', situations: ['point-blank'] })).toThrow(/situations.0: Range \(Point Blank\) holds for ballistic attacks only, not a melee attack/);
  });
});

describe('fatePointsPerWeek ("Fate Points": the pool replenishes at the start of each week)', () => {
  const spent = (options: Record<string, unknown>) => {
    const s = table(options, { ...SHEETS, a: { ...SHEETS.a, realisation: 30, fatePoints: 1 } });
    return s;
  };
  it('true: a new week refills the pool to the Realisation Bonus', () => {
    const s = spent({});
    expect(s.fighters.a!.fate.current).toBe(1);
    expect(run(s, { type: 'new-week' }).fighters.a!.fate).toEqual({ current: 3, max: 3 });
  });
  it('false: the table refuses a weekly refill', () => {
    expect(() => run(spent({ fatePointsPerWeek: false }), { type: 'new-week' })).toThrow(/does not refill Fate Points weekly/);
  });
});

describe('Ailments: Panicked ("you spend your next move and action fleeing")', () => {
  /** A (Melee 50, -10 Panicked) at (0, 0) attacks B, its source, at (1, 0): 55 fails by 1 DoF, B evades with 20 (2 DoS): 3 apart. */
  function fled(sheets: Record<string, unknown> = SHEETS): EncounterState {
    let s = run(table({}, sheets), { type: 'inflict-ailment', target: 'a', ailment: 'panicked', source: 'b' });
    s = run(run(s, { type: 'place', target: 'a', x: 0, y: 0 }), { type: 'place', target: 'b', x: 1, y: 0 });
    s = run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [55, 20]);
    return until(run(s, { type: 'end-turn' }), 'a');
  }
  const turnOf = (s: EncounterState) => viewEncounter(s, GM).characters.find((c) => c.id === 'a')!.turn;
  const refusalOf = (s: EncounterState, command: Record<string, unknown>) => {
    try {
      run(s, command, [10, 90, 50]);
      return 'accepted';
    } catch (e) {
      const r = e as { code: string; field?: string; message: string; rule?: { section: string } };
      return { code: r.code, field: r.field, message: r.message, section: r.rule?.section };
    }
  };

  it("the next Turn's Move and Action are spent on the flight, as the Turn count shows", () => {
    const s = fled();
    expect(s.fighters.a!.conditions.fleeing).toBe('b');
    expect(turnOf(s)).toEqual({ action: false, move: false, actionSpentOn: 'fleeing (Panicked)', moveSpentOn: 'fleeing (Panicked)', oneMore: false });
    const started = groupsOf(s).at(-1)!.find((e) => e.type === 'turn-started' && e.data.id === 'a')!;
    expect(started.type === 'turn-started' && started.data.fleeing).toBe('b');
  });

  it('an attack, a Defend or overcoming the panic is refused with the rule, and the state is unchanged', () => {
    const s = fled();
    const before = JSON.stringify(s);
    const message = 'type: A is Panicked and spends this Turn\'s Move and Action fleeing from B: no ';
    expect(refusalOf(s, { type: 'attack', attacker: 'a', defender: 'b' })).toEqual({ code: 'fleeing', field: 'type', message: `${message}Standard Attack`, section: 'Ailments (untitled passage after "Fate Points")' });
    expect(refusalOf(s, { type: 'defend' })).toMatchObject({ code: 'fleeing', message: `${message}Defend` });
    expect(refusalOf(s, { type: 'end-ailment', who: 'a', ailment: 'panicked' })).toMatchObject({ code: 'fleeing', message: `${message}overcoming Panic` });
    expect(JSON.stringify(s)).toBe(before);
  });

  it('the flight is one Move away from the source: nearer or level is refused, further is made, a second is refused', () => {
    const s = fled();
    // B at (1, 0); A at (0, 0) is 1 m from it, and so is (0, 1)
    expect(refusalOf(s, { type: 'move', who: 'a', x: 0, y: 1 })).toEqual({ code: 'flee-away', field: 'x', message: 'x: A is Panicked and flees from B: (0, 1) is 1 m from it, no further than the 1 m it starts at', section: 'Ailments (untitled passage after "Fate Points")' });
    const away = run(s, { type: 'move', who: 'a', x: -4, y: 0 });
    expect(away.fighters.a!.conditions.position).toMatchObject({ x: -4, y: 0 });
    const moved = groupsOf(away).at(-1)!.find((e) => e.type === 'moved')!;
    expect(moved.type === 'moved' && moved.data).toMatchObject({ flight: 'b', left: ['b'] });
    expect(turnOf(away)).toMatchObject({ action: false, move: false, moveSpentOn: 'fleeing (Panicked)' });
    expect(refusalOf(away, { type: 'move', who: 'a', x: -6, y: 0 })).toMatchObject({ code: 'fleeing', field: 'who' });
  });

  it('away counts altitude bands as height (the flight passage): a flyer rising to Low beside B has fled 20 m from it', () => {
    const s = fled({ ...SHEETS, a: { ...SHEETS.a, flight: true } });
    // (0, 1) is as near B on the map as (0, 0), but Low is 20 m above the ground
    const up = run(s, { type: 'move', who: 'a', x: 0, y: 1, altitude: 'low' });
    expect(up.fighters.a!.conditions).toMatchObject({ altitude: 'low', position: { x: 0, y: 1 } });
    const moved = groupsOf(up).at(-1)!.find((e) => e.type === 'moved')!;
    expect(moved.type === 'moved' && moved.data).toMatchObject({ flight: 'b' });
    expect(refusalOf(s, { type: 'move', who: 'a', x: 0, y: 1 })).toMatchObject({ code: 'flee-away' });
  });

  it('the Turn after the flight is its own again: a fresh Move and Action, the panic still on it', () => {
    const s = until(run(fled(), { type: 'end-turn' }), 'a');
    expect(s.fighters.a!.conditions).toMatchObject({ mustFlee: false, fleeing: null });
    expect(turnOf(s)).toEqual({ action: true, move: true, actionSpentOn: null, moveSpentOn: null, oneMore: false });
    expect(s.fighters.a!.ailments.map((x) => x.name)).toContain('panicked');
  });

  it('a failure short of the margin gives no flight', () => {
    let s = run(table(), { type: 'inflict-ailment', target: 'a', ailment: 'panicked', source: 'b' });
    // 55 fails by 1 DoF; B's 35 evades with 1 DoS: 2 apart
    s = until(run(run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [55, 35]), { type: 'end-turn' }), 'a');
    expect(s.fighters.a!.conditions.fleeing ?? null).toBeNull();
    expect(turnOf(s)).toMatchObject({ action: true, move: true });
  });
});
