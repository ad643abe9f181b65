import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { describeD100Event, evolveEncounter, groupsOf, initialEncounter, redactD100Event, type EncounterEvent, type EncounterState } from '../src';
import { GM, refusal, run } from './drive';

/**
 * Scatter (untitled passage after "Chance Attacks"): when the GM rules that an attack scatters, its
 * own roll says where: the ones digit a keypad direction (north the map's top row), the tens digit
 * the metres (frame U22).
 */
const P1: Actor = { role: 'player', participantId: 'p1' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
const SHEETS = {
  a: { name: 'A', side: 'pc', scores: base, weapons: [{ name: 'Sling', class: 'basic', element: 'missile', damage: 2 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 20 } },
};
/** A at (0, 0) shoots at B at (10, 0), rolling `roll` (Ballistic 40), B evading with 50, a location of 50. */
function shot(roll: number, placed = true): EncounterState {
  let s = initialEncounter('seed');
  s = run(s, { type: 'add-character', id: 'a', sheet: SHEETS.a, controller: 'p1' });
  s = run(s, { type: 'add-character', id: 'b', sheet: SHEETS.b });
  if (placed) for (const [id, x] of [['a', 0], ['b', 10]] as const) s = run(s, { type: 'place', target: id, x, y: 0 });
  s = run(s, { type: 'start' });
  return run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [roll, 50, 50], P1);
}
const last = (s: EncounterState): EncounterEvent => groupsOf(s).flat().at(-1)!;
const says = (e: EncounterEvent) => describeD100Event(e, (id) => id.toUpperCase());

describe('Scatter: the GM rules that the attack just made scatters', () => {
  it('47: 4 m north-west of the square aimed at; the event keeps the roll and the landing square', () => {
    const s = run(shot(47), { type: 'scatter' });
    expect(last(s)).toEqual({ type: 'scattered', data: { group: expect.any(Number), attacker: 'a', defender: 'b', roll: 47, direction: 'north-west', metres: 4, to: { x: 6, y: -4 } } });
    expect(says(last(s))).toBe("A's attack on B scatters 4 m north-west (roll 47), coming down at (6, -4)");
    // every viewer who sees both is told the same; undo takes it back; the events fold again to the same state
    expect(redactD100Event(last(s), P1, s)).toEqual(last(s));
    expect(groupsOf(run(s, { type: 'undo', seen: s.seq })).flat().some((e) => e.type === 'scattered')).toBe(false);
    expect(groupsOf(s).flat().reduce(evolveEncounter, initialEncounter()).fighters).toEqual(s.fighters);
  });

  it('0 moves it towards the attacker, 5 straight up; off the map only the direction and metres are told', () => {
    expect(last(run(shot(30), { type: 'scatter' }))).toMatchObject({ data: { direction: 'towards the attacker', metres: 3, to: { x: 7, y: 0 } } });
    expect(says(last(run(shot(30), { type: 'scatter' })))).toBe("A's attack on B scatters 3 m towards A (roll 30), coming down at (7, 0)");
    expect(last(run(shot(25), { type: 'scatter' }))).toMatchObject({ data: { direction: 'up', metres: 2, to: { x: 10, y: 0 } } });
    const off = last(run(shot(69, false), { type: 'scatter' }));
    expect(off.data).not.toHaveProperty('to');
    expect(says(off)).toBe("A's attack on B scatters 6 m north-east (roll 69)");
  });

  it('only the GM rules it, and only right after an attack', () => {
    expect(refusal(shot(47), { type: 'scatter' }, [], P1)).toMatchObject({ code: 'gm-only' });
    expect(refusal(run(shot(47), { type: 'end-turn' }), { type: 'scatter' })).toMatchObject({ code: 'no-attack', section: 'Scatter (untitled passage after "Chance Attacks")' });
    expect(refusal(run(shot(47), { type: 'scatter' }), { type: 'scatter' })).toMatchObject({ code: 'no-attack' });
  });
});
