import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Actor } from '@personae/core';
import { givenDice, seededDice } from '@personae/dice';
import { ALTITUDES, altitudeOf, bandsCrossed, defenseToughnessBonus, describeD100Event, parseD100Scenario, runD100Scenario, checkSheet, decideEncounter, encounterDecider, evolveEncounter, groupsOf, initialEncounter, makeFighter, resolveAllOutAttack, resolveOptions, viewEncounter, type EncounterCommand, type EncounterEvent, type EncounterState } from '../src';

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

describe('Puncture ("Wounds and Injury"): Blood Loss returns with Stress after first aid', () => {
  // B (TB 3) has one Heavy wound and no Light left; A's hit of damage 1 + SB 3 + 1 DoS = 5 against 3
  // lands one wound, a Heavy one to the body with 0 Heavy left: Puncture
  function punctured(): EncounterState {
    const s = table({ ...SHEETS, b: { ...SHEETS.b, wounds: { light: 0, heavy: 1, deadly: 1 } } });
    return run(s, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword', damage: 1 }, [45, 90, 50]);
  }
  it('the Puncture starts Blood Loss', () => {
    const b = punctured().fighters.b!;
    expect(b.injuries).toEqual([{ location: 'body', name: 'puncture', level: 3 }]);
    expect(b.conditions.bloodLoss).toBe(true);
  });
  it('stopped by first aid, it returns when B takes Stress (Cracked: a failed test costs its DoF)', () => {
    const stopped = run(punctured(), { type: 'set-condition', target: 'b', condition: 'bloodLoss', value: false });
    // Toughness 30 - 10 (the body Injury) = 20; roll 95 fails by 7 DoF: 7 Stress
    const s = run(stopped, { type: 'test', who: 'b', score: 'toughness' }, [95]);
    expect(s.fighters.b!.stress).toBe(stopped.fighters.b!.stress + 7);
    expect(s.fighters.b!.conditions.bloodLoss).toBe(true);
    // roll 25 fails with 0 DoF: no Stress, the bleeding stays stopped
    expect(run(stopped, { type: 'test', who: 'b', score: 'toughness' }, [25]).fighters.b!.conditions.bloodLoss).toBe(false);
  });
  it('first aid ("Blood Loss"): A, with no Medical skill, tests Intelligence 30 - 20; 5 stops the bleeding, 50 does not; then Stress starts it again', () => {
    // A's next turn (its Action went on the attack); B's start-of-turn Blood Loss test, 10, passes
    const aid = run(run(punctured(), { type: 'end-turn' }, [10]), { type: 'end-turn' });
    const stopped = run(aid, { type: 'staunch', who: 'a', target: 'b' }, [5]);
    expect(last(stopped)).toMatchObject({ type: 'staunched', data: { test: { target: 10, roll: 5, success: true } } });
    expect(stopped.fighters.b!.conditions.bloodLoss).toBe(false);
    expect(run(aid, { type: 'staunch', who: 'a', target: 'b' }, [50]).fighters.b!.conditions.bloodLoss).toBe(true);
    expect(run(stopped, { type: 'test', who: 'b', score: 'toughness' }, [95]).fighters.b!.conditions.bloodLoss).toBe(true);
    expect(() => run(stopped, { type: 'staunch', who: 'a', target: 'b' }, [5])).toThrow(/target: B is not bleeding/);
    // a Medical skill (Intelligence 30, trained +10) is used instead
    const medic = table({ ...SHEETS, a: { ...SHEETS.a, skills: [{ name: 'Medical', score: 'intelligence', training: 'trained' }] }, b: { ...SHEETS.b, wounds: { light: 0, heavy: 1, deadly: 1 } } });
    const hurt = run(medic, { type: 'set-condition', target: 'b', condition: 'bloodLoss', value: true });
    expect(last(run(hurt, { type: 'staunch', who: 'a', target: 'b' }, [35]))).toMatchObject({ data: { test: { target: 40, success: true } } });
  });
  it('without a Puncture, Stress does not start Blood Loss', () => {
    const s = run(table(), { type: 'inflict-ailment', target: 'a', ailment: 'despaired' });
    const later = run(run(s, { type: 'end-turn' }), { type: 'end-turn' });
    expect(later.fighters.a!.stress).toBe(5);
    expect(later.fighters.a!.conditions.bloodLoss).toBe(false);
  });
});

describe('"Fatigue and Exhaustion": an Exhausted character that takes Stress tests Toughness or falls unconscious', () => {
  // A: Toughness 40, Stress 60 = Exhausted. B's Claws: Melee 50, roll 45 (1 DoS); A evades at 30 - 20
  // (Fatigued, Exhausted) and rolls 90; body: damage 3 + SB 3 + 1 = 7 against TB 4: one Light wound, 1 Stress
  function hitWhile(stress: number, dice: number[], options: Record<string, unknown> = {}): EncounterState {
    const s = run(table({ ...SHEETS, a: { ...SHEETS.a, stress } }, options), { type: 'end-turn' });
    expect(s.current).toBe('b');
    return run(s, { type: 'attack', attacker: 'b', defender: 'a' }, dice);
  }
  it('Toughness 40 - 20 = 20: roll 80 fails, and A is unconscious for 61 minutes (732 rounds), Helpless', () => {
    const s = hitWhile(60, [45, 90, 50, 80]);
    const e = last(s);
    expect(e).toMatchObject({ type: 'exhaustion-tested', data: { who: 'a', target: 20, roll: 80, success: false, minutes: 61 } });
    expect(s.fighters.a!.conditions).toMatchObject({ helpless: true, unconscious: 732 });
    // it takes no turns: after B's, the round ends and B goes again
    const next = run(s, { type: 'end-turn' });
    expect(next.current).toBe('b');
    expect(next.round).toBe(2);
    expect(next.fighters.a!.conditions.unconscious).toBe(731);
    // the GM ending Helplessness wakes it
    const woken = run(next, { type: 'set-condition', target: 'a', condition: 'helpless', value: false });
    expect(woken.fighters.a!.conditions.unconscious).toBe(0);
  });
  it('roll 15 passes: A stays conscious; undo takes the test back with the hit', () => {
    const s = hitWhile(60, [45, 90, 50, 15]);
    expect(last(s)).toMatchObject({ type: 'exhaustion-tested', data: { success: true, minutes: 0 } });
    expect(s.fighters.a!.conditions.unconscious ?? 0).toBe(0);
    const undone = run(s, { type: 'undo', seen: s.seq });
    expect(undone.fighters.a!.stress).toBe(60);
    expect(groupsOf(undone).flat().some((x) => x.type === 'exhaustion-tested')).toBe(false);
  });
  it('the Stress that makes A Exhausted (59 to 60) calls for the test only under exhaustionTest=on-reaching', () => {
    expect(last(hitWhile(59, [45, 90, 50])).type).toBe('attack-resolved');
    // Fatigued only when B rolls: A evades at 20; on reaching Exhausted the test is at 20 too
    expect(last(hitWhile(59, [45, 90, 50, 80], { exhaustionTest: 'on-reaching' }))).toMatchObject({ type: 'exhaustion-tested', data: { target: 20, success: false, minutes: 60 } });
  });
  it('a Fate Point Advantage A holds goes to this test ("Fate Points", Advantage): Toughness 20 + 20, roll 35 passes, and the Advantage is spent', () => {
    const bought = run(table({ ...SHEETS, a: { ...SHEETS.a, stress: 60 } }), { type: 'spend-fate', who: 'a', spend: 'advantage' });
    expect(bought.fighters.a!.pendingAdvantages).toBe(2);
    // a fall makes no test of A's before the exhaustion test: 10 m, location 50, then the Toughness roll 35
    const s = run(bought, { type: 'fall', who: 'a', metres: 10 }, [50, 35]);
    expect(last(s)).toMatchObject({ type: 'exhaustion-tested', data: { who: 'a', target: 40, roll: 35, success: true, minutes: 0, fate: 2 } });
    expect(s.fighters.a!.pendingAdvantages).toBe(0);
    expect(s.fighters.a!.conditions.unconscious ?? 0).toBe(0);
    expect(describeD100Event(last(s), (id) => s.fighters[id]!.name)).toBe("A is Exhausted and takes Stress: Toughness 35 vs 40 with the Fate Point's 2 Advantage(s), stays conscious");
    // without it the same roll fails against 20
    expect(last(run(table({ ...SHEETS, a: { ...SHEETS.a, stress: 60 } }), { type: 'fall', who: 'a', metres: 10 }, [50, 35]))).toMatchObject({ data: { target: 20, success: false } });
  });
  it('falling unconscious in its own turn, it is refused any action there', () => {
    // A falls 10 m in its turn: damage 10 against TB 4 (location 50), two Light wounds, 2 Stress; Toughness roll 80 fails
    const s = run(table({ ...SHEETS, a: { ...SHEETS.a, stress: 60 } }), { type: 'fall', who: 'a', metres: 10 }, [50, 80]);
    expect(s.current).toBe('a');
    expect(last(s)).toMatchObject({ type: 'exhaustion-tested', data: { minutes: 62 } });
    expect(() => run(s, { type: 'move', who: 'a', x: 1, y: 1 })).toThrow(/who: A is unconscious/);
  });
});

describe('"Difficult Terrain": Hindered, or full speed with a test', () => {
  // A: Agility 30 (AB 3, a Basic Move of 6 m), no skills, so the test is Agility
  function inTerrain(terrain: Record<string, unknown>): EncounterState {
    let s = run(table(), { type: 'place', target: 'a', x: 0, y: 0 });
    s = run(s, { type: 'place', target: 'b', x: 20, y: 20 });
    return run(s, { type: 'set-terrain', target: 'a', ...terrain });
  }
  it('Hindered, the Basic Move is 3 m; at full speed 6 m, after Agility 30 - 2 x 10 (the number, counted once)', () => {
    const s = inTerrain({ dtn: 2 });
    expect(() => run(s, { type: 'move', who: 'a', x: 4, y: 0 })).toThrow(/x: 4 m is further than A's Basic Move of 3 m/);
    const passed = run(s, { type: 'move', who: 'a', x: 6, y: 0, fullSpeed: true }, [5]);
    const e = last(passed);
    expect(e.type === 'moved' && e.data).toMatchObject({ metres: 6, allowance: 6, terrainTest: { target: 10, roll: 5, success: true, prone: false, damage: null } });
    expect(passed.fighters.a!.conditions.prone).toBe(false);
  });
  it('Uneven/Slippery: failing the test (roll 50 against 10, 4 DoF) throws A prone where it ends; Agility tests there carry the number', () => {
    const s = run(inTerrain({ dtn: 2 }), { type: 'move', who: 'a', x: 6, y: 0, fullSpeed: true }, [50]);
    expect(s.fighters.a!.conditions).toMatchObject({ prone: true, position: { x: 6, y: 0 } });
    const agility = last(run(inTerrain({ dtn: 2, kind: 'uneven' }), { type: 'test', who: 'a', score: 'agility' }, [5]));
    expect(agility.type === 'test-rolled' && agility.data.modifiers).toEqual([{ label: 'Difficult Terrain', value: -20 }]);
  });
  it('Damaging (number 1, damage 3): roll 50 against 20 fails by 3, so 3 + 3 = 6 against TB 4 at the body: one Light wound', () => {
    const s = run(inTerrain({ dtn: 1, kind: 'damaging', damage: 3 }), { type: 'move', who: 'a', x: 6, y: 0, fullSpeed: true }, [50, 50]);
    const e = last(s);
    expect(e.type === 'moved' && e.data.terrainTest).toMatchObject({ success: false, degrees: 3, prone: false, damage: 6, locationRoll: 50 });
    expect(s.fighters.a!.tracks.left.light).toBe(3);
    expect(s.fighters.a!.stress).toBe(1);
    expect(s.fighters.a!.conditions.prone).toBe(false);
    // Damaging ground puts no number on other Agility tests
    const agility = last(run(inTerrain({ dtn: 1, kind: 'damaging', damage: 3 }), { type: 'test', who: 'a', score: 'agility' }, [5]));
    expect(agility.type === 'test-rolled' && agility.data.modifiers).toEqual([]);
    expect(run(s, { type: 'undo', seen: s.seq }).fighters.a!.tracks.left.light).toBe(4);
  });
  it('bad terrain is refused naming field, value and rule', () => {
    const s = inTerrain({ dtn: 0 });
    expect(() => run(s, { type: 'set-terrain', target: 'a', dtn: 2, kind: 'open' })).toThrow(/dtn: open ground has no Difficult Terrain Number \(got 2\)/);
    expect(() => run(s, { type: 'set-terrain', target: 'a', dtn: 1, damage: 4 })).toThrow(/damage: only Damaging terrain deals damage \(got 4 for uneven\)/);
    expect(() => run(s, { type: 'move', who: 'a', x: 1, y: 0, fullSpeed: true }, [5])).toThrow(/fullSpeed: A is not in Difficult Terrain/);
  });
});

describe('flight (the untitled passage after "Difficult Terrain"): altitude bands Ground, Low and High', () => {
  // A can fly and carries a pistol too; B walks. A acts first (AB 3 against 2).
  const flyers = {
    a: { ...SHEETS.a, flight: true, weapons: [...(SHEETS.a!.weapons as object[]), { name: 'Pistol', class: 'pistol', element: 'missile', damage: 4 }, { name: 'Long Rifle', class: 'basic', element: 'missile', damage: 6, longRange: true }] },
    b: SHEETS.b!,
  };
  function aloft(altitude: 'low' | 'high'): EncounterState {
    let s = run(table(flyers), { type: 'place', target: 'a', x: 0, y: 0, altitude });
    return run(s, { type: 'place', target: 'b', x: 1, y: 1 });
  }
  it('only a flyer is placed in the air; side by side at different bands they are not Engaged', () => {
    expect(() => run(table(flyers), { type: 'place', target: 'b', x: 0, y: 0, altitude: 'low' })).toThrow(/altitude: B cannot fly \(no flight on its sheet\), so it stays at Ground/);
    const v = viewEncounter(aloft('low'), GM);
    expect(v.characters.find((c) => c.id === 'a')!.conditions.altitude).toBe('low');
    expect(v.characters.find((c) => c.id === 'a')!.engagedWith).toEqual([]);
  });
  it('Ground and Low do not meet in melee; shooting between them is allowed', () => {
    const s = aloft('low');
    expect(() => run(s, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' })).toThrow(/defender: A, flying Low, cannot reach B, at Ground, in melee/);
    const shot = last(run(s, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Pistol' }, [95, 95]));
    expect(shot.type).toBe('attack-resolved');
    const bTurn = run(s, { type: 'end-turn' });
    expect(() => run(bTurn, { type: 'attack', attacker: 'b', defender: 'a' })).toThrow(/defender: B, at Ground, cannot reach A, flying Low, in melee/);
  });
  it('High and lower bands cannot attack each other but with a long-ranged Ballistic weapon', () => {
    const s = aloft('high');
    expect(() => run(s, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Pistol' })).toThrow(/defender: A, flying High, cannot attack B, at Ground, without a long-ranged Ballistic weapon/);
    expect(last(run(s, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Long Rifle' }, [95, 95])).type).toBe('attack-resolved');
    const bTurn = run(s, { type: 'end-turn' });
    expect(() => run(bTurn, { type: 'attack', attacker: 'b', defender: 'a' })).toThrow(/cannot attack A, flying High/);
  });
  it('a Basic Move changes the band by one, still covering its full distance; not two bands, not on a Run, not without flight', () => {
    const s = aloft('low');
    const up = run(s, { type: 'move', who: 'a', x: 6, y: 0, altitude: 'high' });
    expect(up.fighters.a!.conditions).toMatchObject({ altitude: 'high', position: { x: 6, y: 0 } });
    expect(() => run(aloft('high'), { type: 'move', who: 'a', x: 0, y: 1, altitude: 'ground' })).toThrow(/altitude: a Move changes the band by one; high to ground is 2/);
    expect(() => run(s, { type: 'move', who: 'a', x: 0, y: 1, altitude: 'high', run: true })).toThrow(/altitude: the band changes as part of a Basic Move, not a Run/);
    const bTurn = run(s, { type: 'end-turn' });
    expect(() => run(bTurn, { type: 'move', who: 'b', x: 1, y: 2, altitude: 'low' })).toThrow(/altitude: B cannot fly/);
  });
  it('falling from High: Low at the end of round 1, at the end of round 2 a crash as from 50 m', () => {
    let s = run(aloft('high'), { type: 'set-condition', target: 'a', condition: 'falling', value: true });
    expect(() => run(s, { type: 'move', who: 'a', x: 0, y: 1, altitude: 'low' })).toThrow(/altitude: A is falling/);
    s = run(run(s, { type: 'end-turn' }), { type: 'end-turn' });
    expect(s.fighters.a!.conditions).toMatchObject({ altitude: 'low', falling: 'high' });
    // the crash's location d100 (50: body), then the Blood Loss test its Cracked rib brings at A's turn (10: passes)
    s = run(run(s, { type: 'end-turn' }), { type: 'end-turn' }, [50, 10]);
    const ended = groupsOf(s).at(-1)!.find((e) => e.type === 'round-ended');
    expect(ended?.type === 'round-ended' && ended.data.crashes).toEqual([{ who: 'a', locationRoll: 50 }]);
    // damage 50 against TB 4: the base wound and High Damage, Savage by Very High Damage: 2 Light and 1 Heavy
    const a = s.fighters.a!;
    expect(a.conditions).toMatchObject({ altitude: 'ground', falling: undefined, prone: true });
    expect(a.tracks.left).toMatchObject({ light: 2, heavy: 1 });
    expect(run(s, { type: 'undo', seen: s.seq }).fighters.a!.conditions.altitude).toBe('low');
    expect(() => run(table(flyers), { type: 'set-condition', target: 'a', condition: 'falling', value: true })).toThrow(/target: A is at Ground and has nowhere to fall from/);
  });
  it("a hidden flyer's crash is not told to the players; the round's end is", () => {
    const P1: Actor = { role: 'player', participantId: 'p1' };
    const withHidden = { ...flyers, c: { ...SHEETS.b, name: 'C', flight: true, hidden: true, scores: { ...base, agility: 10, perception: 10 } } };
    let s = run(table(withHidden), { type: 'place', target: 'c', x: 5, y: 5, altitude: 'low' });
    s = run(s, { type: 'set-condition', target: 'c', condition: 'falling', value: true });
    while (s.round === 1) s = run(s, { type: 'end-turn' }, [50]);
    const ended = (viewer: Actor) => viewEncounter(s, viewer).log.find((e) => e.type === 'round-ended');
    expect(ended(GM)).toMatchObject({ data: { crashes: [{ who: 'c', locationRoll: 50 }] } });
    expect(ended(P1)).toMatchObject({ data: { round: 1 } });
    expect(JSON.stringify(viewEncounter(s, P1))).not.toContain('"c"');
  });
  it('the sheet: only a Ballistic weapon can be long-ranged', () => {
    const r = checkSheet({ ...SHEETS.a, weapons: [{ name: 'Spear', class: 'melee', element: 'melee', damage: 5, longRange: true }] });
    expect(!r.ok && r.problems[0]).toMatchObject({ field: 'weapons.0.longRange', value: true });
  });
});

describe('options the inventory proposed for terms the seed leaves open', () => {
  it('U37 fallUsesWoundRules: a 10 m fall on TB 4 (location 50) deals the base wound and High Damage, or one wound only', () => {
    const rules = run(table(), { type: 'fall', who: 'a', metres: 10 }, [50]);
    expect(rules.fighters.a!.tracks.left.light).toBe(2);
    const one = run(table(SHEETS, { fallUsesWoundRules: 'one-wound' }), { type: 'fall', who: 'a', metres: 10 }, [50]);
    expect(one.fighters.a!.tracks.left.light).toBe(3);
  });
  it('U32 aoaSavage: two at 50 + 10 rolling 25 (4 DoS) lay 2 + 4 = 6 wounds; Savage adds one a severity above the last (Heavy): Deadly', () => {
    const fighterOf = (id: string, side: string) => makeFighter({ id, side, scores: base });
    const enemy = { ...fighterOf('e', 'shadows'), ailments: [{ name: 'staggered' as const, turns: null, elapsed: 0, since: 0 }] };
    const parts = [fighterOf('p', 'pc'), fighterOf('q', 'pc')].map((f) => ({ fighter: f, target: 50, roll: 25 }));
    const plain = resolveAllOutAttack(parts, [enemy], resolveOptions());
    expect(plain.woundsEach).toBe(6);
    expect(plain.enemies[0]!.tracks.left).toEqual({ light: 0, heavy: 0, deadly: 1 });
    expect(plain.killed).toEqual([]);
    const savage = resolveAllOutAttack(parts, [enemy], resolveOptions('seed', { aoaSavage: 'four-wounds-savage' }));
    expect(savage.enemies[0]!.tracks.left.deadly).toBe(0);
    expect(savage.killed).toEqual(['e']);
  });
});

describe('Bruised Rib ("Wounds and Injury"): a wound taken for any reason brings one more', () => {
  const ribbed = (s: EncounterState, id: string): EncounterState => ({ ...s, fighters: { ...s.fighters, [id]: { ...s.fighters[id]!, injuries: [{ location: 'body', name: 'bruised-rib', level: 1 }] } } });
  it('Burning: Damage 4 beats TB 3, one wound and the rib\'s, so B (3 Light) keeps 1', () => {
    let s = ribbed(run(table(), { type: 'inflict-ailment', target: 'b', ailment: 'burning' }), 'b');
    s = run(run(s, { type: 'end-turn' }), { type: 'end-turn' });
    expect(s.round).toBe(2);
    expect(s.fighters.b!.tracks.left.light).toBe(1);
  });
  it('a 10 m fall under fallUsesWoundRules=one-wound: the one wound and the rib\'s, so A (4 Light) keeps 2', () => {
    const s = run(ribbed(table(SHEETS, { fallUsesWoundRules: 'one-wound' }), 'a'), { type: 'fall', who: 'a', metres: 10 }, [50]);
    expect(s.fighters.a!.tracks.left.light).toBe(2);
  });
  it('All Out Attack: the 6 wounds each take TB 4\'s Light and Heavy tracks; the rib\'s seventh is the Deadly one', () => {
    const fighterOf = (id: string, side: string) => makeFighter({ id, side, scores: base });
    const enemy = { ...fighterOf('e', 'shadows'), ailments: [{ name: 'staggered' as const, turns: null, elapsed: 0, since: 0 }], injuries: [{ location: 'body' as const, name: 'bruised-rib', level: 1 }] };
    const parts = [fighterOf('p', 'pc'), fighterOf('q', 'pc')].map((f) => ({ fighter: f, target: 50, roll: 25 }));
    const r = resolveAllOutAttack(parts, [enemy], resolveOptions());
    expect(r.woundsEach).toBe(6);
    expect(r.enemies[0]!.tracks.left).toEqual({ light: 0, heavy: 0, deadly: 0 });
    expect(r.killed).toEqual(['e']);
  });
  // "Fate Points", Ignore Injury: a body Injury ignored this Round adds no wound, whatever the wound's source
  it('Burning, All Out Attack: a Fate Point ignoring the body Injury this Round leaves out the rib\'s wound', () => {
    let s = ribbed(run(table(), { type: 'inflict-ailment', target: 'b', ailment: 'burning' }), 'b');
    s = { ...s, fighters: { ...s.fighters, b: { ...s.fighters.b!, injuriesIgnored: ['body'] } } };
    s = run(run(s, { type: 'end-turn' }), { type: 'end-turn' });
    expect(s.round).toBe(2);
    expect(s.fighters.b!.tracks.left.light).toBe(2);
    const fighterOf = (id: string, side: string) => makeFighter({ id, side, scores: base });
    const enemy = { ...fighterOf('e', 'shadows'), ailments: [{ name: 'staggered' as const, turns: null, elapsed: 0, since: 0 }], injuries: [{ location: 'body' as const, name: 'bruised-rib', level: 1 }], injuriesIgnored: ['body' as const] };
    const parts = [fighterOf('p', 'pc'), fighterOf('q', 'pc')].map((f) => ({ fighter: f, target: 50, roll: 25 }));
    const r = resolveAllOutAttack(parts, [enemy], resolveOptions());
    expect(r.enemies[0]!.tracks.left).toEqual({ light: 0, heavy: 0, deadly: 1 });
    expect(r.killed).toEqual([]);
  });
});

describe('Burning\'s Heavy wound and its Injury (option burningInjury; "Wounds and Injury")', () => {
  // B: TB 3, no Light wound left: the burn's one wound is its last Heavy one, the body row for 0 left
  const burnLastHeavy = (options: Record<string, unknown> = {}): EncounterState => {
    const s = run(table(SHEETS, options), { type: 'inflict-ailment', target: 'b', ailment: 'burning' });
    const b = s.fighters.b!;
    const dry = { ...s, fighters: { ...s.fighters, b: { ...b, tracks: { ...b.tracks, left: { ...b.tracks.left, light: 0 } } } } };
    return run(run(dry, { type: 'end-turn' }), { type: 'end-turn' });
  };
  it('body (default): the Heavy wound gives Puncture, with its Blood Loss', () => {
    const b = burnLastHeavy().fighters.b!;
    expect(b.tracks.left.heavy).toBe(0);
    expect(b.injuries).toEqual([{ location: 'body', name: 'puncture', level: 3 }]);
    expect(b.conditions.bloodLoss).toBe(true);
  });
  it('none: the Heavy wound is lost with its Stress but no Injury', () => {
    const b = burnLastHeavy({ burningInjury: 'none' }).fighters.b!;
    expect(b.tracks.left.heavy).toBe(0);
    expect(b.injuries).toEqual([]);
    expect(b.conditions.bloodLoss).toBeFalsy();
  });
});

describe('All Out Attack\'s Heavy wounds and their Injuries (option aoaInjury; "All Out Attack", "Wounds and Injury")', () => {
  // B: TB 6 (Light 6, Heavy 3), weak to Fire. A's Agi (Magic 40, roll 30: 1 DoS; B rolls 90; location
  // 50) deals 4 + 1 = 5 against Defense 0: the base wound, High Damage and Weakness, so B keeps 3 Light
  // and is Staggered, and A has a One More. The All Out Attack: A at Magic 40 + 10 rolls 20 (3 DoS), C at
  // Ballistic 40 + 10 rolls 60 (fails): 2 + 3 = 5 wounds, the last 3 Light, then Heavy 3 -> 2 (Bruised
  // Rib's row) and Heavy 2 -> 1 (Cracked's row).
  const sheets = {
    a: SHEETS.a!,
    b: { ...SHEETS.b, scores: { ...base, agility: 20, toughness: 60 }, affinities: { fire: 'weak' } },
    c: { name: 'C', side: 'pc', scores: { ...base, agility: 10, perception: 10 }, weapons: [{ name: 'Bow', class: 'basic', element: 'missile', damage: 4 }] },
  };
  const aoa = (options: Record<string, unknown> = {}): EncounterState => {
    const s = run(table(sheets, options), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, [30, 90, 50]);
    expect([s.oneMore?.holder, s.fighters.b!.tracks.left.light]).toEqual(['a', 3]);
    return run(s, { type: 'all-out-attack', participants: [{ id: 'a', score: 'magic' }, { id: 'c', score: 'ballistic' }] }, [20, 60]);
  };
  it('body (default): the two Heavy wounds are body wounds; Cracked (1 left) replaces Bruised Rib and brings its Blood Loss', () => {
    const s = aoa();
    expect(last(s)).toMatchObject({ type: 'all-out-attack', data: { woundsEach: 5, killed: [] } });
    const b = s.fighters.b!;
    expect(b.tracks.left).toEqual({ light: 0, heavy: 1, deadly: 1 });
    expect(b.injuries).toEqual([{ location: 'body', name: 'cracked', level: 2 }]);
    expect(b.conditions.bloodLoss).toBe(true);
    expect(groupsOf(s).flat().reduce(evolveEncounter, initialEncounter()).fighters).toEqual(s.fighters);
  });
  it('none: the same wounds and Stress, no Injury', () => {
    const b = aoa({ aoaInjury: 'none' }).fighters.b!;
    expect(b.tracks.left).toEqual({ light: 0, heavy: 1, deadly: 1 });
    expect(b.stress).toBe(aoa().fighters.b!.stress);
    expect(b.injuries).toEqual([]);
    expect(b.conditions.bloodLoss).toBeFalsy();
  });
  it('injuryTiming=per-wound: the Bruised Rib the fourth wound gives adds a sixth wound, the last Heavy one (Puncture)', () => {
    const s = aoa({ injuryTiming: 'per-wound' });
    const b = s.fighters.b!;
    expect(b.tracks.left).toEqual({ light: 0, heavy: 0, deadly: 1 });
    expect(b.injuries).toEqual([{ location: 'body', name: 'puncture', level: 3 }]);
    expect(groupsOf(s).flat().reduce(evolveEncounter, initialEncounter('seed', { injuryTiming: 'per-wound' })).fighters).toEqual(s.fighters);
    // with no Injury there is no rib to add a wound
    expect(aoa({ injuryTiming: 'per-wound', aoaInjury: 'none' }).fighters.b!.tracks.left).toEqual({ light: 0, heavy: 1, deadly: 1 });
  });
  it('injuryTiming=per-wound: a rib given by the attack\'s last wound adds nothing', () => {
    // 5 wounds on TB 4 (Light 4, Heavy 2): the fifth, the last, is the Heavy wound that gives Cracked
    const fighterOf = (id: string, side: string) => makeFighter({ id, side, scores: base });
    const enemy = { ...fighterOf('e', 'shadows'), ailments: [{ name: 'staggered' as const, turns: null, elapsed: 0, since: 0 }] };
    const parts = [fighterOf('p', 'pc'), fighterOf('q', 'pc')].map((f) => ({ fighter: f, target: 50, roll: 35 }));
    const r = resolveAllOutAttack(parts, [enemy], resolveOptions('seed', { injuryTiming: 'per-wound' }));
    expect(r.woundsEach).toBe(5);
    expect(r.enemies[0]!.tracks.left).toEqual({ light: 0, heavy: 1, deadly: 1 });
    expect(r.enemies[0]!.injuries).toEqual([{ location: 'body', name: 'cracked', level: 2 }]);
  });
});

describe('All Out Attack on an Evoker and on a sleeper ("Wounds and Personas"; Drowsed and Frozen "until it takes damage")', () => {
  // two at 50 + 10 rolling 25 (4 DoS): 2 + 4 = 6 wounds on each enemy; TB 4 (Light 4, Heavy 2)
  const fighterOf = (id: string, side: string, extra: Record<string, unknown> = {}) => makeFighter({ id, side, scores: base, ...extra });
  const parts = [fighterOf('p', 'pc'), fighterOf('q', 'pc')].map((f) => ({ fighter: f, target: 50, roll: 25 }));
  const staggered = { name: 'staggered' as const, turns: null, elapsed: 0, since: 0 };
  it('the Persona (4 wounds) takes the wounds first: it breaks (4 Stress + 10) and the rest of the attack is spent on it', () => {
    const evoker = { ...fighterOf('e', 'shadows', { persona: { name: 'Orpheus', wounds: 4 } }), ailments: [staggered] };
    const r = resolveAllOutAttack(parts, [evoker], resolveOptions());
    expect(r.enemies[0]!.persona).toMatchObject({ wounds: 0 });
    expect(r.enemies[0]!.tracks.left).toEqual({ light: 4, heavy: 2, deadly: 1 });
    expect(r.enemies[0]!.stress).toBe(14);
    // personaOverflow=carry: the 2 wounds left go on to the Light track
    const carried = resolveAllOutAttack(parts, [evoker], resolveOptions('seed', { personaOverflow: 'carry' }));
    expect(carried.enemies[0]!.tracks.left).toEqual({ light: 2, heavy: 2, deadly: 1 });
  });
  it('a Drowsed or Frozen enemy that loses wounds wakes or thaws; a Mental ailment (Confused) stays', () => {
    const sleeper = { ...fighterOf('e', 'shadows'), ailments: [staggered, { name: 'drowsed' as const, turns: null, elapsed: 0, since: 0 }] };
    const frozen = { ...fighterOf('f', 'shadows'), ailments: [staggered, { name: 'frozen' as const, turns: null, elapsed: 0, since: 0 }, { name: 'confused' as const, turns: 2, elapsed: 0, since: 0 }] };
    const r = resolveAllOutAttack(parts, [sleeper, frozen], resolveOptions());
    expect(r.enemies.map((e) => e.ailments.map((a) => a.name))).toEqual([[], ['confused']]);
  });
});

describe('examples/d100: flight-and-terrain.yaml and the sheets it uses', () => {
  const root = join(import.meta.dirname, '../../../examples/d100');
  const play = (seed: number) => runD100Scenario(parseD100Scenario(readFileSync(join(root, 'scenarios/flight-and-terrain.yaml'), 'utf8'), 'flight-and-terrain.yaml'), (p) => parseYaml(readFileSync(join(root, 'scenarios', p), 'utf8')), seededDice(seed));
  it('the shot at Low, the crash from 20 m against TB 3 + 1, the full-speed crossing, as its comments work them out; any seed replays the same events', () => {
    const r = play(7);
    expect(r.error).toBe(null);
    expect(r.state.fighters.harpy).toMatchObject({ tracks: { left: { light: 0, heavy: 0, deadly: 1 } }, stress: 8, injuries: [{ location: 'body', name: 'puncture' }], conditions: { altitude: 'ground', prone: true, bloodLoss: true } });
    expect(r.state.fighters.hero!.conditions).toMatchObject({ position: { x: 6, y: 0 }, prone: false });
    expect(play(1234).events).toEqual(r.events);
  });
  it('shadow-harpy.yaml is legal; invalid/long-range-melee.yaml is refused naming the field', () => {
    expect(checkSheet(parseYaml(readFileSync(join(root, 'shadow-harpy.yaml'), 'utf8'))).ok).toBe(true);
    const bad = checkSheet(parseYaml(readFileSync(join(root, 'invalid/long-range-melee.yaml'), 'utf8')));
    expect(!bad.ok && bad.problems.map((p) => p.field)).toEqual(['weapons.0.longRange']);
  });
});

describe('invariants (property)', () => {
  it('flight: a band is always one of the three, a walker stays at Ground, a Move crosses one band at most, a fall never climbs; folding again gives the same state', () => {
    const flyers = { a: { ...SHEETS.a, flight: true }, b: SHEETS.b! };
    const band = fc.constantFrom('ground', 'low', 'high');
    const step = fc.oneof(
      fc.record({ type: fc.constant('move'), who: fc.constantFrom('a', 'b'), x: fc.integer({ min: -2, max: 2 }), y: fc.integer({ min: 3, max: 5 }), altitude: band }),
      fc.record({ type: fc.constant('set-condition'), target: fc.constantFrom('a', 'b'), condition: fc.constant('falling'), value: fc.boolean() }),
      fc.record({ type: fc.constant('end-turn') }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        let s = run(run(table(flyers), { type: 'place', target: 'a', x: 0, y: 0, altitude: 'high' }), { type: 'place', target: 'b', x: 9, y: 9 });
        for (const c of steps) {
          const before = s;
          try {
            s = run(s, c, Array(4).fill(50));
          } catch (e) {
            if (!(e instanceof Error) || !('code' in e)) throw e;
            continue;
          }
          const a0 = before.fighters.a!;
          const a1 = s.fighters.a!;
          expect(ALTITUDES).toContain(altitudeOf(a1));
          expect(altitudeOf(s.fighters.b!)).toBe('ground');
          if (c.type === 'move') expect(bandsCrossed(altitudeOf(a0), altitudeOf(a1))).toBeLessThanOrEqual(1);
          if (a0.conditions.falling) expect(ALTITUDES.indexOf(altitudeOf(a1))).toBeLessThanOrEqual(ALTITUDES.indexOf(altitudeOf(a0)));
        }
        const again = groupsOf(s).flat().reduce(evolveEncounter, initialEncounter());
        expect(again.fighters).toEqual(s.fighters);
      }),
      { numRuns: 60 },
    );
  });
  it('Unnatural Toughness adds its rating to the Defense Bonus (or multiplies it), never lowers it, and an Enraged character meets attacks with the plain one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 10 }), fc.constantFrom('add-to-bonus', 'multiply-bonus' as const), fc.boolean(), (t, rating, unnatural, enraged) => {
        const f = makeFighter({ id: 'x', scores: { ...base, toughness: t }, unnaturalToughness: rating });
        const g = enraged ? { ...f, ailments: [{ name: 'enraged' as const, turns: 2, elapsed: 0, since: 0 }] } : f;
        const plain = Math.floor(t / 10);
        const tb = defenseToughnessBonus(g, { unnatural });
        expect(tb).toBeGreaterThanOrEqual(plain);
        expect(tb).toBe(enraged || rating === 0 ? plain : unnatural === 'add-to-bonus' ? plain + rating : plain * rating);
      }),
    );
  });
});
