import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { describeD100Event, groupsOf, initialEncounter, viewEncounter, type EncounterEvent, type EncounterState } from '../src';
import { heldIn } from '../src/equipment';
import { GM, refusal, run } from './drive';

/**
 * Confused (d100-combat-rules.txt, the ailments passage after "Fate Points"): at the start of its turn
 * the sufferer tests Intelligence, and a failure decides its Action by the Degrees of Failure: 2-3 it
 * drops everything in one hand (the left at odd DoF, the right at even), 4+ it attacks the nearest
 * character, 5+ itself. The table carries them out: the items leave the hand, and the attack is held to
 * the nearest character, the GM choosing among several when the map cannot tell them apart, or to itself.
 */
const P1: Actor = { role: 'player', participantId: 'p1' };
const base = { melee: 50, ballistic: 40, magic: 50, strength: 30, toughness: 40, agility: 50, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
/** Initiative: A 5, B 4, C 3, D 2 (Agility Bonus). A and D are the party, B and C Shadows; B holds Claws (right) and a Tail (left). */
const SHEETS: Record<string, Record<string, unknown>> = {
  a: { name: 'A', side: 'pc', scores: base, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, melee: 40, agility: 40, toughness: 30 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }, { name: 'Bufu', class: 'magic', element: 'ice', damage: 4 }, { name: 'Tail', class: 'melee', element: 'melee', damage: 2 }] },
  c: { name: 'C', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 30, toughness: 30 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
  d: { name: 'D', side: 'pc', scores: { ...base, agility: 20, perception: 10 }, weapons: [{ name: 'Staff', class: 'melee', element: 'melee', damage: 2, hands: 2 }] },
};

/** What a table starts from besides the map: options, what a sheet has besides SHEETS, and what is played before B is Confused. */
interface Setup {
  readonly options?: Record<string, unknown>;
  readonly sheets?: Record<string, Record<string, unknown>>;
  readonly before?: (s: EncounterState) => EncounterState;
}

/** The four, those in `places` on the map, then (`setup.before`) what is played before B is Confused and handed to p1; A's turn. */
function table(places: Record<string, [number, number]> = {}, setup: Setup = {}): EncounterState {
  let s = initialEncounter();
  if (setup.options) s = run(s, { type: 'set-options', options: setup.options });
  for (const [id, sheet] of Object.entries(SHEETS)) s = run(s, { type: 'add-character', id, sheet: { ...sheet, ...setup.sheets?.[id] } });
  s = run(s, { type: 'start' });
  for (const [id, [x, y]] of Object.entries(places)) s = run(s, { type: 'place', target: id, x, y, elevation: 0 });
  s = run(setup.before ? setup.before(s) : s, { type: 'inflict-ailment', target: 'b', ailment: 'confused' });
  return run(s, { type: 'set-controller', id: 'b', controller: 'p1' });
}
/** A ends its turn; B's starts with its Intelligence test (30), rolled `roll`. */
const bTurn = (s: EncounterState, roll: number) => run(s, { type: 'end-turn' }, [roll]);
const started = (s: EncounterState) => groupsOf(s).at(-1)!.find((e) => e.type === 'turn-started') as Extract<EncounterEvent, { type: 'turn-started' }>;
const line = (s: EncounterState, e: EncounterEvent) => describeD100Event(e, (id) => s.fighters[id]!.name);

describe('Confused, 2-3 DoF: it drops everything in one hand', () => {
  it('which hand holds what: a two-handed weapon both, one-handed ones right then left in the sheet\'s order, a spell neither', () => {
    const s = table();
    expect(heldIn(s.sheets.b!, s.fighters.b!, 'right')).toEqual(['Claws']);
    expect(heldIn(s.sheets.b!, s.fighters.b!, 'left')).toEqual(['Tail']);
    expect(heldIn(s.sheets.d!, s.fighters.d!, 'left')).toEqual(['Staff']);
  });

  it('roll 55, 2 DoF (even): the right hand\'s Claws fall; the drop is its Action; attacking with them is refused until drawn again', () => {
    const s = bTurn(table(), 55);
    expect(started(s).data.confused).toMatchObject({ success: false, degrees: 2, acts: ['drop'], hand: 'right', dropped: ['Claws'] });
    expect(s.fighters.b!.stowed).toEqual(['Claws']);
    expect(viewEncounter(s, GM).characters.find((c) => c.id === 'b')!.turn).toMatchObject({ action: false, actionSpentOn: 'dropping what its right hand holds (Confused)', move: true });
    expect(line(s, started(s))).toContain('Confused: Intelligence 55 vs 30, 2 DoF: drops what one hand holds (right): Claws');
    expect(refusal(s, { type: 'attack', attacker: 'b', defender: 'a', weapon: 'Claws' }, [10, 90, 50], P1)).toMatchObject({ code: 'weapon-stowed' });
    // picking them up is an Equip Item, free for a one-handed weapon
    expect(run(s, { type: 'equip', who: 'b', item: 'Claws' }, [], P1).fighters.b!.stowed).toEqual([]);
  });

  it('roll 65, 3 DoF (odd): the left hand\'s Tail falls, the Claws stay', () => {
    const s = bTurn(table(), 65);
    expect(started(s).data.confused).toMatchObject({ degrees: 3, hand: 'left', dropped: ['Tail'] });
    expect(s.fighters.b!.stowed).toEqual(['Tail']);
  });

  it('an empty hand drops nothing, and the Action goes on the drop all the same', () => {
    let s = table();
    s = { ...s, fighters: { ...s.fighters, b: { ...s.fighters.b!, stowed: ['Claws', 'Tail'] } } };
    s = bTurn(s, 55);
    expect(started(s).data.confused).toMatchObject({ hand: 'right', dropped: [] });
    expect(line(s, started(s))).toContain('drops what one hand holds (right): nothing in it');
    expect(refusal(s, { type: 'defend' }, [], P1)).toMatchObject({ code: 'no-action-left' });
  });
});

describe('Confused, 4 DoF: it attacks the nearest character', () => {
  it('on the map, its ally C 2 m away is nearer than A 3 m away: its Action is an attack on C, which is not refused as an ally', () => {
    const s = bTurn(table({ a: [0, 0], b: [3, 0], c: [5, 0], d: [9, 9] }), 75);
    expect(started(s).data.confused).toMatchObject({ degrees: 4, acts: ['attack-nearest'] });
    expect(s.confusedAttack).toEqual({ who: 'b', candidates: ['c'] });
    for (const viewer of [GM, P1]) expect(viewEncounter(s, viewer).confusedAttack).toEqual({ who: 'b', candidates: ['c'] });
    expect(refusal(s, { type: 'attack', attacker: 'b', defender: 'a' }, [10, 90, 50], P1)).toMatchObject({ code: 'confused-nearest', field: 'defender', message: 'defender: B is Confused and must attack the nearest character, C', section: 'Ailments (untitled passage after "Fate Points")' });
    expect(refusal(s, { type: 'defend' }, [], P1)).toMatchObject({ code: 'confused-nearest', field: 'type' });
    expect(refusal(s, { type: 'end-turn' }, [], P1)).toMatchObject({ code: 'confused-nearest', field: 'type' });
    // a Move stays its own
    expect(refusal(s, { type: 'move', who: 'b', x: 3, y: 1 }, [], P1)).toBe('accepted');
    const hit = run(s, { type: 'attack', attacker: 'b', defender: 'c' }, [10, 90, 50], P1);
    expect(groupsOf(hit).at(-1)!.at(-1)).toMatchObject({ type: 'attack-resolved', data: { attacker: 'b', defender: 'c', summary: { hit: true } } });
    expect(hit.confusedAttack ?? null).toBeNull();
    expect(refusal(hit, { type: 'end-turn' }, [], P1)).toBe('accepted');
  });

  it('two at the same distance: a pending decision for the GM, who names one (or attacks one of them itself)', () => {
    const s = bTurn(table({ a: [0, 0], b: [2, 0], c: [2, 2], d: [9, 9] }), 75);
    expect(s.confusedAttack).toEqual({ who: 'b', candidates: ['a', 'c'] });
    expect(refusal(s, { type: 'attack', attacker: 'b', defender: 'a' }, [10, 90, 50], P1)).toMatchObject({ code: 'nearest-undecided', message: 'defender: B is Confused and attacks the nearest character; the GM first names which of A and C (confused-target)' });
    expect(refusal(s, { type: 'confused-target', who: 'b', target: 'c' }, [], P1)).toMatchObject({ code: 'gm-only' });
    expect(refusal(s, { type: 'confused-target', who: 'b', target: 'd' })).toMatchObject({ code: 'not-nearest', field: 'target' });
    expect(refusal(s, { type: 'confused-target', who: 'a', target: 'c' })).toMatchObject({ code: 'no-confused-attack', field: 'who' });
    const named = run(s, { type: 'confused-target', who: 'b', target: 'c' });
    expect(named.confusedAttack).toEqual({ who: 'b', candidates: ['c'] });
    expect(line(named, groupsOf(named).at(-1)![0]!)).toBe('the GM names C as the nearest character, whom B attacks (Confused)');
    expect(refusal(named, { type: 'attack', attacker: 'b', defender: 'a' }, [10, 90, 50], P1)).toMatchObject({ code: 'confused-nearest' });
    expect(refusal(named, { type: 'attack', attacker: 'b', defender: 'c' }, [10, 90, 50], P1)).toBe('accepted');
    // the GM making the attack on one of the candidates names it by doing so
    expect(refusal(s, { type: 'attack', attacker: 'b', defender: 'a' }, [10, 90, 50])).toBe('accepted');
  });

  it('altitude bands count (the flight passage): C flying Low above the next square is 20 m up, farther than A 3 m away on the ground', () => {
    const low = (who: string, x: number) => (s: EncounterState) => run(s, { type: 'place', target: who, x, y: 0, elevation: 0, altitude: 'low' });
    const flyers = { b: { flight: true }, c: { flight: true } };
    expect(bTurn(table({ a: [0, 0], b: [3, 0], d: [9, 9] }, { sheets: flyers, before: low('c', 4) }), 75).confusedAttack).toEqual({ who: 'b', candidates: ['a'] });
    // with B at Low too, C beside it is the nearest again; A on the ground below is 20 m off
    const both = (s: EncounterState) => low('c', 4)(low('b', 3)(s));
    expect(bTurn(table({ a: [3, 0], d: [9, 9] }, { sheets: flyers, before: both }), 75).confusedAttack).toEqual({ who: 'b', candidates: ['c'] });
    // a flyer far off on the ground is still nearer than one High straight above
    const high = (s: EncounterState) => run(s, { type: 'place', target: 'c', x: 3, y: 0, elevation: 0, altitude: 'high' });
    expect(bTurn(table({ a: [40, 40], b: [3, 0], d: [60, 0] }, { sheets: flyers, before: high }), 75).confusedAttack).toEqual({ who: 'b', candidates: ['a'] });
  });

  it('positions not modelled: every other character in the fight is a candidate; one off the map stays one beside the nearest placed', () => {
    expect(bTurn(table(), 75).confusedAttack).toEqual({ who: 'b', candidates: ['a', 'c', 'd'] });
    expect(bTurn(table({ a: [0, 0], b: [1, 0], d: [5, 5] }), 75).confusedAttack).toEqual({ who: 'b', candidates: ['a', 'c'] });
  });

  it('a passed test, or another band, binds no attack; the next turn frees it', () => {
    expect(bTurn(table(), 10).confusedAttack ?? null).toBeNull();
    const s = bTurn(table(), 75);
    expect(run(s, { type: 'end-turn' }).confusedAttack ?? null).toBeNull();
  });
});

describe('Confused, 5+ DoF: it attacks itself', () => {
  it('its Action is an attack on itself, which it does not oppose; an attack on anyone else is refused', () => {
    // Intelligence 30, rolled 85: 5 DoF; under the default confusedBands only the 5+ band holds
    const s = bTurn(table({ a: [0, 0], b: [1, 0], c: [2, 0], d: [9, 9] }), 85);
    expect(started(s).data.confused).toMatchObject({ degrees: 5, acts: ['attack-self'] });
    expect(s.confusedAttack).toEqual({ who: 'b', candidates: ['b'] });
    expect(refusal(s, { type: 'attack', attacker: 'b', defender: 'a' }, [10, 90, 50], P1)).toMatchObject({ code: 'confused-self', field: 'defender', message: 'defender: B is Confused and must attack itself', section: 'Ailments (untitled passage after "Fate Points")' });
    expect(refusal(s, { type: 'end-turn' }, [], P1)).toMatchObject({ code: 'confused-nearest', message: 'type: B is Confused and owes its attack on itself this Turn; only the GM may end the Turn without it' });
    const before = s.fighters.b!.tracks.left;
    const hit = run(s, { type: 'attack', attacker: 'b', defender: 'b', weapon: 'Claws' }, [10, 50], P1);
    const e = groupsOf(hit).at(-1)!.at(-1)!;
    expect(e).toMatchObject({ type: 'attack-resolved', data: { attacker: 'b', defender: 'b', spec: { evasionTarget: null }, summary: { hit: true, evasionRoll: null } } });
    expect(hit.fighters.b!.tracks.left).not.toEqual(before);
    expect(hit.confusedAttack ?? null).toBeNull();
    expect(refusal(hit, { type: 'end-turn' }, [], P1)).toBe('accepted');
  });

  it('no one attacks itself otherwise: at 4 DoF it is not the nearest, and unconfused it is an ally', () => {
    expect(refusal(bTurn(table(), 75), { type: 'attack', attacker: 'b', defender: 'b' }, [10, 50])).toMatchObject({ code: 'confused-nearest' });
    expect(refusal(table(), { type: 'attack', attacker: 'a', defender: 'a' }, [10, 50])).toMatchObject({ code: 'same-side' });
  });
});

/**
 * The attack a Confused character makes on itself at 5+ DoF (d100-combat-rules.txt, the ailments
 * passage after "Fate Points"; option confusedBands, C8): no ally takes it for it, its own Repel turns
 * it back on itself, and a hit on its own weakness earns no One More.
 */
describe('Confused, 5+ DoF: the attack on itself', () => {
  const row = { a: [0, 0], b: [1, 0], c: [3, 0], d: [9, 9] } as Record<string, [number, number]>;
  /** Round 1 goes by with C protecting B: round 2, A's turn, C still protecting. */
  const protectedByC = (s: EncounterState) => {
    let t = run(run(s, { type: 'end-turn' }), { type: 'end-turn' });
    expect(t.current).toBe('c');
    t = run(t, { type: 'protect', ally: 'b' });
    return run(run(t, { type: 'end-turn' }), { type: 'end-turn' });
  };
  const last = (s: EncounterState) => groupsOf(s).at(-1)!.at(-1)! as Extract<EncounterEvent, { type: 'attack-resolved' }>;

  it('an ally protecting it does not take the hit: it lands on the Confused character, and the Protect stays', () => {
    const before = table(row, { before: protectedByC });
    expect(before.round).toBe(2);
    expect(before.fighters.c!.conditions.protecting).toBe('b');
    // the same Protect takes A's hit on B (section "Defending and Protecting")
    expect(last(run(before, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, [10, 90, 50])).data.protector).toBe('c');
    const s = bTurn(before, 85);
    expect(s.confusedAttack).toEqual({ who: 'b', candidates: ['b'] });
    const hit = run(s, { type: 'attack', attacker: 'b', defender: 'b', weapon: 'Claws' }, [10, 50], P1);
    const e = last(hit);
    expect(e.data).toMatchObject({ attacker: 'b', defender: 'b', summary: { hit: true } });
    expect(e.data.protector).toBeUndefined();
    expect(e.data.summary.protectedBy).toBeUndefined();
    expect(hit.fighters.b!.tracks.left).not.toEqual(s.fighters.b!.tracks.left);
    expect(hit.fighters.c!.tracks.left).toEqual(s.fighters.c!.tracks.left);
    expect(hit.fighters.c!.conditions.protecting).toBe('b');
  });

  it('an element it repels turns back on itself, and its own Repel Blocks it: no wound', () => {
    const s = bTurn(table(row, { sheets: { b: { affinities: { ice: 'repel' } } } }), 85);
    const back = run(s, { type: 'attack', attacker: 'b', defender: 'b', weapon: 'Bufu' }, [10, 50, 50], P1);
    expect(last(back).data).toMatchObject({ attacker: 'b', defender: 'b', spec: { element: 'ice', evasionTarget: null }, summary: { hit: true, repelled: true } });
    expect(back.fighters.b!.tracks.left).toEqual(s.fighters.b!.tracks.left);
    expect(back.fighters.b!.out).toBe(false);
    expect(back.confusedAttack ?? null).toBeNull();
  });

  it('a hit on its own weakness Staggers it but earns it no One More, where the same hit from A earns A one', () => {
    const weak = table(row, { sheets: { b: { affinities: { melee: 'weak' } } } });
    // rolls of 25: hits, not Critical Hits, that leave B in the fight
    const fromA = run(weak, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, [25, 90, 50]);
    expect(fromA.fighters.b!.out).toBe(false);
    expect(fromA.fighters.b!.ailments.map((a) => a.name)).toContain('staggered');
    expect(fromA.oneMore?.holder).toBe('a');
    const s = bTurn(weak, 85);
    const hit = run(s, { type: 'attack', attacker: 'b', defender: 'b', weapon: 'Claws' }, [25, 50], P1);
    expect(last(hit).data.summary).toMatchObject({ hit: true, critical: false });
    expect(hit.fighters.b!.out).toBe(false);
    expect(hit.fighters.b!.ailments.map((a) => a.name)).toContain('staggered');
    expect(hit.oneMore).toBeNull();
  });

  it('under confusedBands=both it attacks the nearest, then itself with the same Action, as under the default', () => {
    const s = bTurn(table(row, { options: { confusedBands: 'both' } }), 85);
    expect(started(s).data.confused).toMatchObject({ degrees: 5, acts: ['attack-nearest', 'attack-self'] });
    expect(s.confusedAttack).toEqual({ who: 'b', candidates: ['a'], thenItself: true });
    expect(viewEncounter(s, P1).confusedAttack).toEqual({ who: 'b', candidates: ['a'], thenItself: true });
    expect(refusal(s, { type: 'attack', attacker: 'b', defender: 'b', weapon: 'Claws' }, [10, 50], P1)).toMatchObject({ code: 'confused-nearest' });
    const first = run(s, { type: 'attack', attacker: 'b', defender: 'a', weapon: 'Claws' }, [10, 90, 50], P1);
    expect(last(first).data).toMatchObject({ attacker: 'b', defender: 'a', summary: { hit: true } });
    // the attack on itself is owed now: nothing else, and the Turn does not end without it
    expect(first.confusedAttack).toEqual({ who: 'b', candidates: ['b'], paid: true });
    expect(refusal(first, { type: 'attack', attacker: 'b', defender: 'a', weapon: 'Claws' }, [10, 90, 50], P1)).toMatchObject({ code: 'confused-self' });
    expect(refusal(first, { type: 'end-turn' }, [], P1)).toMatchObject({ code: 'confused-nearest', message: 'type: B is Confused and owes its attack on itself this Turn; only the GM may end the Turn without it' });
    expect(refusal(first, { type: 'defend' }, [], P1)).toMatchObject({ code: 'confused-nearest', message: 'type: B is Confused and its Action this Turn is an attack on itself: no Defend' });
    const self = run(first, { type: 'attack', attacker: 'b', defender: 'b', weapon: 'Claws' }, [10, 50], P1);
    expect(last(self).data).toMatchObject({ attacker: 'b', defender: 'b', spec: { evasionTarget: null }, summary: { hit: true, evasionRoll: null } });
    expect(self.fighters.b!.tracks.left).not.toEqual(first.fighters.b!.tracks.left);
    expect(self.confusedAttack ?? null).toBeNull();
    // one Action for both: the Move is still free, and the Turn ends
    expect(viewEncounter(self, GM).characters.find((c) => c.id === 'b')!.turn).toMatchObject({ action: false, actionSpentOn: 'Standard Attack', move: true });
    expect(refusal(self, { type: 'end-turn' }, [], P1)).toBe('accepted');
  });

  it('under confusedBands=both, a GM ending the Turn before either attack leaves none owed', () => {
    const s = bTurn(table(row, { options: { confusedBands: 'both' } }), 85);
    expect(run(s, { type: 'end-turn' }).confusedAttack ?? null).toBeNull();
  });
});
