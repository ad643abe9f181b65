import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { givenDice } from '@personae/dice';
import { checkSheet, decideEncounter, encounterDecider, evolveEncounter, groupsOf, initialEncounter, type EncounterCommand, type EncounterEvent, type EncounterState } from '../src';

/**
 * Conditions and traits of the seed (d100-combat-rules.txt): the Burning and Amnesiac rows of the
 * ailments passage after "Fate Points", the Unnatural Toughness trait the Enraged row names, worked by
 * hand from the seed.
 */
const GM: Actor = { role: 'gm', participantId: 'gm' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
/** A: Melee 50, SB 3, a Sword of damage 5 and a Fire spell of damage 4. B, a Shadow: TB 3, Agility 20. */
const SHEETS: Record<string, Record<string, unknown>> = {
  a: { name: 'A', side: 'pc', realisation: 30, scores: base, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }, { name: 'Agi', class: 'magic', element: 'fire', damage: 4 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 20, toughness: 30 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
};

function run(state: EncounterState, command: Record<string, unknown>, dice: number[] = []): EncounterState {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideEncounter(state, parsed.command as EncounterCommand, { actor: GM, dice: givenDice(dice), now: '' }).reduce(evolveEncounter, state);
}
function table(sheets: Record<string, Record<string, unknown>> = SHEETS, options: Record<string, unknown> = {}): EncounterState {
  let s = initialEncounter('seed', options);
  for (const [id, sheet] of Object.entries(sheets)) s = run(s, { type: 'add-character', id, sheet });
  return run(s, { type: 'start' });
}
const last = (s: EncounterState): EncounterEvent => groupsOf(s).at(-1)!.at(-1)!;

describe('Burning (ailments passage after "Fate Points"): Disadvantage on Willpower tests', () => {
  it('a Willpower test of 30 is taken at 20 while Burning; an Agility test is not burdened', () => {
    const s = run(table(), { type: 'inflict-ailment', target: 'a', ailment: 'burning' });
    const will = last(run(s, { type: 'test', who: 'a', score: 'willpower' }, [25]));
    expect(will.type === 'test-rolled' && will.data).toMatchObject({ success: false, modifiers: [{ label: 'Burning', value: -10 }] });
    // the same roll passes without the fire
    const calm = last(run(table(), { type: 'test', who: 'a', score: 'willpower' }, [25]));
    expect(calm.type === 'test-rolled' && calm.data.success).toBe(true);
    const agility = last(run(s, { type: 'test', who: 'a', score: 'agility' }, [25]));
    expect(agility.type === 'test-rolled' && agility.data).toMatchObject({ success: true, modifiers: [] });
  });
});

describe('Amnesiac (ailments passage after "Fate Points"): no Persona Powers', () => {
  const amnesiac = () => run(table(), { type: 'inflict-ailment', target: 'a', ailment: 'amnesiac' });
  it('a magic attack is a Power: the action is wasted, nothing is rolled, the target is untouched', () => {
    const s = run(amnesiac(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, [5, 90, 50]);
    const e = last(s);
    expect(e).toMatchObject({ type: 'power-wasted', data: { who: 'a', power: 'Agi' } });
    expect(s.fighters.b!.tracks).toEqual(amnesiac().fighters.b!.tracks);
    expect(s.fighters.b!.ailments).toEqual([]);
  });
  it('spending Spirit on a Power is refused; a melee attack still lands', () => {
    expect(() => run(amnesiac(), { type: 'use-resource', who: 'a', resource: 'spirit', amount: 1 })).toThrow(/who: A is Amnesiac and may not use Persona Powers/);
    // Sword: Melee 50, roll 45, 1 DoS; B evades at 20 and rolls 90; damage 5 + SB 3 + 1 = 9 against TB 3
    const hit = last(run(amnesiac(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, [45, 90, 50]));
    expect(hit.type === 'attack-resolved' && hit.data.summary).toMatchObject({ hit: true, damage: 9, defense: 3 });
  });
  it('undo takes the wasted action back', () => {
    const attacked = run(amnesiac(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' });
    const s = run(attacked, { type: 'undo', seen: attacked.seq });
    expect(groupsOf(s).flat().some((e) => e.type === 'power-wasted')).toBe(false);
  });
});

describe('Unnatural Toughness (the Enraged row of the ailments passage names the trait)', () => {
  const tough = { ...SHEETS, b: { ...SHEETS.b, unnaturalToughness: 2 } };
  // A's Sword: Melee 50, roll 45 (1 DoS); B evades at 20, rolls 90; location 50 (body): damage 5 + 3 + 1 = 9
  it('adds its rating to the Toughness Bonus in Defense: 9 against 3 + 2 is one wound, not the two of 9 against 3', () => {
    const plain = last(run(table(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, [45, 90, 50]));
    expect(plain.type === 'attack-resolved' && plain.data.summary).toMatchObject({ damage: 9, defense: 3, wounds: ['damage over Defense', 'High Damage'] });
    const s = run(table(tough), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, [45, 90, 50]);
    const e = last(s);
    expect(e.type === 'attack-resolved' && e.data.summary).toMatchObject({ damage: 9, defense: 5, wounds: ['damage over Defense'] });
    expect(s.fighters.b!.tracks.left.light).toBe(2);
  });
  it('under unnatural=multiply-bonus the rating multiplies the Bonus: 3 x 2 = 6', () => {
    const e = last(run(table(tough, { unnatural: 'multiply-bonus' }), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, [45, 90, 50]));
    expect(e.type === 'attack-resolved' && e.data.summary).toMatchObject({ damage: 9, defense: 6 });
  });
  it('attacks on an Enraged character ignore it: Defense is the plain TB 3', () => {
    // Enraged B cannot evade; its ailment gives A an Advantage: 60 against roll 45 is 2 DoS, +1 net Advantage
    const s = run(table(tough), { type: 'inflict-ailment', target: 'b', ailment: 'enraged' });
    const e = last(run(s, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, [45, 50]));
    expect(e.type === 'attack-resolved' && e.data.summary).toMatchObject({ evasionRoll: null, damage: 11, defense: 3 });
  });
  it('Burning\'s attack is an attack: Damage 4 does not beat TB 3 + 2', () => {
    let s = run(table(tough), { type: 'inflict-ailment', target: 'b', ailment: 'burning' });
    s = run(run(s, { type: 'end-turn' }), { type: 'end-turn' });
    expect(s.round).toBe(2);
    expect(s.fighters.b!.tracks.left.light).toBe(3);
    // without the trait, 4 beats TB 3: one Light wound
    let p = run(table(), { type: 'inflict-ailment', target: 'b', ailment: 'burning' });
    p = run(run(p, { type: 'end-turn' }), { type: 'end-turn' });
    expect(p.fighters.b!.tracks.left.light).toBe(2);
  });
  it('the sheet: a whole rating from 1 to 10, shown in the derived Defense; a bad one names field and value', () => {
    const ok = checkSheet(tough.b);
    expect(ok.ok && ok.derived.defense.body).toBe(5);
    const bad = checkSheet({ ...SHEETS.b, unnaturalToughness: 0 });
    expect(!bad.ok && bad.problems[0]).toMatchObject({ field: 'unnaturalToughness', value: 0 });
    expect(!bad.ok && bad.problems[0]!.message).toMatch(/^unnaturalToughness: .*\(found 0\)$/);
  });
});
