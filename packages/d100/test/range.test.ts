import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { evolveEncounter, groupsOf, initialEncounter, type EncounterEvent, type EncounterState } from '../src';
import { refusal, run } from './drive';

/**
 * The range entries of the Advantage table ("How Attacks Work", inventory U24) once both characters
 * are on the map: a Ballistic attack beyond its weapon's range is refused (Step One), Range (Close)
 * within half of it, Range (Point Blank) within 3 m unless engaged in melee, Shooting at Prone
 * against a Prone target not at Point Blank.
 */
const P1: Actor = { role: 'player', participantId: 'p1' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
const SHEETS = {
  a: { name: 'A', side: 'pc', scores: base, weapons: [{ name: 'Rifle', class: 'basic', element: 'missile', damage: 6, range: 20, hands: 2 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 20 } },
};
/** A at (0, 0), B `x` metres east (off the map when null), Prone if said. */
function at(x: number | null, prone = false): EncounterState {
  let s = initialEncounter('seed');
  s = run(s, { type: 'add-character', id: 'a', sheet: SHEETS.a, controller: 'p1' });
  s = run(s, { type: 'add-character', id: 'b', sheet: SHEETS.b });
  if (x !== null) s = run(run(s, { type: 'place', target: 'a', x: 0, y: 0 }), { type: 'place', target: 'b', x, y: 0 });
  if (prone) s = run(s, { type: 'set-condition', target: 'b', condition: 'prone', value: true });
  return run(s, { type: 'start' });
}
const shoot = (s: EncounterState, situations?: string[]) => run(s, { type: 'attack', attacker: 'a', defender: 'b', ...(situations ? { situations } : {}) }, [30, 50, 50], P1);
const entries = (s: EncounterState) => {
  const e = groupsOf(s).flat().at(-1) as Extract<EncounterEvent, { type: 'attack-resolved' }>;
  return [...(e.data.spec.advantages ?? []).map((a) => `+${a.label}`), ...(e.data.spec.disadvantages ?? []).map((d) => `-${d.label}`)];
};

describe('range on the map (U24)', () => {
  it('the Rifle (20 m): refused at 25 m; Close at 10 m, none at 11 m; Point Blank and Close at 3 m; Close only when engaged beside it', () => {
    expect(refusal(at(25), { type: 'attack', attacker: 'a', defender: 'b' }, [30, 50, 50], P1)).toMatchObject({ code: 'out-of-range', field: 'defender', message: "defender: B is 25 m away, beyond the 20 m of A's weapon", section: 'How Attacks Work' });
    expect(entries(shoot(at(10)))).toEqual(['+Range (Close)']);
    expect(entries(shoot(at(11)))).toEqual([]);
    expect(entries(shoot(at(3)))).toEqual(['+Range (Point Blank)', '+Range (Close)']);
    expect(entries(shoot(at(1)))).toEqual(['+Range (Close)']);
    // the events fold again to the same fighters
    const s = shoot(at(3));
    expect(groupsOf(s).flat().reduce(evolveEncounter, initialEncounter()).fighters).toEqual(s.fighters);
  });

  it('a Prone target: Shooting at Prone unless at Point Blank', () => {
    expect(entries(shoot(at(11, true)))).toEqual(['-Shooting at Prone']);
    expect(entries(shoot(at(2, true)))).toEqual(['+Range (Point Blank)', '+Range (Close)']);
  });

  it('a declared entry the map contradicts is refused; off the map the declaration stands', () => {
    expect(refusal(at(11), { type: 'attack', attacker: 'a', defender: 'b', situations: ['close-range'] }, [30, 50, 50], P1)).toMatchObject({ code: 'situation-off-map', field: 'situations.0', message: 'situations.0: Range (Close) does not hold: B is 11 m from A and not Prone' });
    expect(refusal(at(2, true), { type: 'attack', attacker: 'a', defender: 'b', situations: ['shooting-at-prone'] }, [30, 50, 50], P1)).toMatchObject({ code: 'situation-off-map' });
    // declared and true: counted once
    expect(entries(shoot(at(10), ['close-range']))).toEqual(['+Range (Close)']);
    expect(entries(shoot(at(null), ['close-range', 'point-blank']))).toEqual(['+Range (Close)', '+Range (Point Blank)']);
  });
});

describe('Size (Larger) and Size (Smaller) (U23)', () => {
  it('attacks on a character 2 categories larger gain 2 Advantages; on one a category smaller, a Disadvantage', () => {
    const sized = (size: number) => {
      let s = initialEncounter('seed');
      s = run(s, { type: 'add-character', id: 'a', sheet: SHEETS.a, controller: 'p1' });
      s = run(s, { type: 'add-character', id: 'b', sheet: { ...SHEETS.b, size } });
      return run(s, { type: 'start' });
    };
    const e = (size: number) => (groupsOf(shoot(sized(size))).flat().at(-1) as Extract<EncounterEvent, { type: 'attack-resolved' }>).data.spec;
    expect(e(2).advantages).toEqual([{ label: 'Size (Larger)', count: 2 }]);
    expect(e(-1).disadvantages).toEqual([{ label: 'Size (Smaller)', count: 1 }]);
    expect([e(0).advantages, e(0).disadvantages]).toEqual([[], []]);
  });
});
