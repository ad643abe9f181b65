import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { checkSheet, describeD100Event, evolveEncounter, groupsOf, initialEncounter, redactD100Event, type EncounterEvent, type EncounterState } from '../src';
import { GM, refusal, run } from './drive';

/**
 * "Equipment Actions (Consumables, Reloading)", Reload, and "Fumble" (d100-combat-rules.txt): a
 * Ballistic weapon whose sheet gives a clip has its shots counted, jams on a Fumble, and is reloaded
 * one Action at a time, a hurry test taking one Action off plus one per 2 DoS (at least 1).
 */
const P1: Actor = { role: 'player', participantId: 'p1' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
const PISTOL = { name: 'Pistol', class: 'pistol', element: 'missile', damage: 4, clip: 1, reload: 2, spareLoads: 1 };
/** A (p1) acts first, Agility 30 against B's 20. */
const SHEETS = {
  a: { name: 'A', side: 'pc', scores: base, weapons: [PISTOL] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 20 }, weapons: [{ name: 'Rifle', class: 'basic', element: 'missile', damage: 6, hands: 2, clip: 5, reload: 3 }] },
};

function table(sheets: Record<string, Record<string, unknown>> = SHEETS): EncounterState {
  let s = initialEncounter('seed');
  s = run(s, { type: 'add-character', id: 'a', sheet: sheets.a, controller: 'p1' });
  s = run(s, { type: 'add-character', id: 'b', sheet: sheets.b });
  return run(s, { type: 'start' });
}
const last = (s: EncounterState): EncounterEvent => groupsOf(s).flat().at(-1)!;
const says = (e: EncounterEvent) => describeD100Event(e, (id) => id.toUpperCase());
/** Both turns pass: A's ends, B's ends, A's begins again. */
const nextRound = (s: EncounterState) => run(run(s, { type: 'end-turn' }), { type: 'end-turn' });
const replayed = (s: EncounterState) => groupsOf(s).flat().reduce(evolveEncounter, initialEncounter());

describe('"Equipment Actions (Consumables, Reloading)": Reload', () => {
  it('an attack fires the one shot; the empty Pistol is refused until two Actions of Reload refill it from the one spare load', () => {
    // A's Pistol (Ballistic 40) rolls 30; B evades (Agility 20) with 50; body (50)
    const shot = run(table(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Pistol' }, [30, 50, 50], P1);
    expect(shot.fighters.a!.loaded).toEqual({ Pistol: 0 });
    const empty = nextRound(shot);
    expect(refusal(empty, { type: 'attack', attacker: 'a', defender: 'b' }, [30, 50, 50], P1)).toMatchObject({ code: 'out-of-ammunition', field: 'weapon', section: 'Equipment Actions (Consumables, Reloading)' });
    // the first Action of two
    const begun = run(empty, { type: 'reload', who: 'a' }, [], P1);
    expect(last(begun)).toMatchObject({ type: 'reloading', data: { who: 'a', weapon: 'Pistol', total: 2, left: 1 } });
    expect(says(last(begun))).toBe('A reloads Pistol (an Action): 1 more Action to go');
    expect(begun.fighters.a!.reloading).toEqual({ weapon: 'Pistol', left: 1 });
    // the Action is spent: no attack, no second Reload this Turn
    expect(refusal(begun, { type: 'reload', who: 'a' }, [], P1)).toMatchObject({ code: 'no-action-left' });
    const done = run(nextRound(begun), { type: 'reload', who: 'a' }, [], P1);
    expect(says(last(done))).toBe('A reloads Pistol (an Action): loaded');
    expect([done.fighters.a!.loaded, done.fighters.a!.spareLoads, done.fighters.a!.reloading]).toEqual([{ Pistol: 1 }, { Pistol: 0 }, undefined]);
    // full: nothing to reload; fired again, no ammunition is left
    expect(refusal(nextRound(done), { type: 'reload', who: 'a' }, [], P1)).toMatchObject({ code: 'already-loaded' });
    const again = run(nextRound(done), { type: 'attack', attacker: 'a', defender: 'b' }, [30, 50, 50], P1);
    expect(refusal(nextRound(again), { type: 'reload', who: 'a' }, [], P1)).toMatchObject({ code: 'no-ammunition', message: 'weapon: A has no ammunition left for Pistol' });
    // undo takes the last Action of the Reload back; the events fold again to the same fighters
    const undone = run(done, { type: 'undo', seen: done.seq });
    expect([undone.fighters.a!.loaded, undone.fighters.a!.reloading]).toEqual([{ Pistol: 0 }, { weapon: 'Pistol', left: 1 }]);
    expect(replayed(again).fighters).toEqual(again.fighters);
  });

  it('"Fumble": a roll of 96 or more jams the weapon, losing all its shots, and the log says so', () => {
    const s = run(table(), { type: 'end-turn' });
    // B's Rifle (5 shots) rolls 97: an automatic miss, no evasion die
    const jammed = run(s, { type: 'attack', attacker: 'b', defender: 'a' }, [97]);
    expect(jammed.fighters.b!.loaded).toEqual({ Rifle: 0 });
    expect(says(last(jammed))).toBe('B attacks A: roll 97: Fumble, Rifle jams and loses its ammunition, miss');
    // a shot that misses still fires: 5 to 4
    expect(run(s, { type: 'attack', attacker: 'b', defender: 'a' }, [60, 10]).fighters.b!.loaded).toEqual({ Rifle: 4 });
    expect(replayed(jammed).fighters).toEqual(jammed.fighters);
  });

  it('a hurry test (Ballistics on the Ballistic Score) takes one Action off plus one per 2 DoS; a failed one none', () => {
    const s = run(run(table(), { type: 'end-turn' }), { type: 'attack', attacker: 'b', defender: 'a' }, [97]);
    const turn = nextRound(s);
    // Ballistic 40 rolls 09: 4 DoS (degrees=tens-digit, 4 - 0), so 3 - 1 - 2 = 0, at least 1 Action: loaded at once
    const fast = run(turn, { type: 'reload', who: 'b', hurry: 'ballistics' }, [9]);
    expect(last(fast)).toMatchObject({ type: 'reloading', data: { weapon: 'Rifle', total: 1, left: 0, hurry: { skill: 'ballistics', target: 40, roll: 9, success: true, degrees: 4 } } });
    expect(fast.fighters.b!.loaded).toEqual({ Rifle: 5 });
    expect(says(last(fast))).toBe('B reloads Rifle, hurried with Ballistics: 9 vs 40, 4 DoS (an Action): loaded');
    // a failure (roll 80) keeps the Rifle's 3 Actions
    expect(last(run(turn, { type: 'reload', who: 'b', hurry: 'ballistics' }, [80]))).toMatchObject({ data: { total: 3, left: 2, hurry: { success: false } } });
    // the hurry test is made once, when the Reload begins
    const under = run(run(turn, { type: 'reload', who: 'b' }), { type: 'end-turn' });
    expect(refusal(run(under, { type: 'end-turn' }), { type: 'reload', who: 'b', hurry: 'survival' }, [9])).toMatchObject({ code: 'already-reloading', field: 'hurry' });
    // players who do not know B's Scores are not shown the target its roll was made against
    const shown = redactD100Event(last(fast), P1, fast) as { data: { hurry: { target: number | null; roll: number } } };
    expect([shown.data.hurry.target, shown.data.hurry.roll]).toEqual([null, 9]);
    expect((redactD100Event(last(fast), GM, fast) as EncounterEvent & { data: { hurry: { target: number } } }).data.hurry.target).toBe(40);
  });

  it('only a Ballistic weapon is reloaded, and only one whose sheet gives a clip', () => {
    const bad = checkSheet({ ...SHEETS.a, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5, clip: 3 }, { name: 'Bow', class: 'basic', element: 'missile', damage: 4, reload: 2 }] });
    expect(!bad.ok && bad.problems.map((p) => p.field)).toEqual(['weapons.0.clip', 'weapons.1.clip']);
    const s = table({ ...SHEETS, a: { ...SHEETS.a, weapons: [{ name: 'Sling', class: 'basic', element: 'missile', damage: 2 }] } });
    expect(refusal(s, { type: 'reload', who: 'a' }, [], P1)).toMatchObject({ code: 'not-reloadable' });
    expect(refusal(s, { type: 'reload', who: 'a', weapon: 'Sling' }, [], P1)).toMatchObject({ code: 'not-reloadable', message: "weapon: A's Sling has no clip on the sheet, so the table does not count its ammunition" });
    // its attacks are not counted at all
    expect(run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [30, 50, 50], P1).fighters.a!.loaded).toBeUndefined();
  });
});
