import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { seededDice } from '@personae/dice';
import type { Actor } from '@personae/core';
import { givenDice } from '@personae/dice';
import { parseD100Scenario, runD100Scenario, breathHeld, checkSheet, crashMetres, decideEncounter, encounterDecider, evolveEncounter, groupsOf, initialEncounter, moveAllowance, reloadActions, resolveTest, resourceMaxima, scatter, suffocationStress, viewEncounter, type EncounterCommand, type EncounterEvent, type EncounterState } from '../src';

/**
 * Positions and engagement (d100-combat-rules.txt, untitled movement passage, "Movement and Combat",
 * "Hindered Movement") and Spirit and Exertion ("Fate Points", Restore Exertion or Spirit).
 */
const GM: Actor = { role: 'gm', participantId: 'gm' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
/** A: AB 3, a Basic Move of 6 m, a Run of 12; Realisation 30 (Fate Points 3). B, a Shadow: AB 2. */
const SHEETS = {
  a: { name: 'A', side: 'pc', realisation: 30, scores: base, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 20, toughness: 30 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
};

function run(state: EncounterState, command: Record<string, unknown>, dice: number[] = []): EncounterState {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideEncounter(state, parsed.command as EncounterCommand, { actor: GM, dice: givenDice(dice), now: '' }).reduce(evolveEncounter, state);
}
function table(): EncounterState {
  let s = initialEncounter();
  for (const [id, sheet] of Object.entries(SHEETS)) s = run(s, { type: 'add-character', id, sheet });
  s = run(s, { type: 'start' });
  s = run(s, { type: 'place', target: 'a', x: 0, y: 0 });
  return run(s, { type: 'place', target: 'b', x: 1, y: 1 });
}
const last = (s: EncounterState): EncounterEvent => groupsOf(s).at(-1)!.at(-1)!;

describe('positions and engagement ("Movement and Combat")', () => {
  it('adjacent enemies are Engaged in Melee, diagonals included', () => {
    const v = viewEncounter(table(), GM);
    expect(v.characters.find((c) => c.id === 'a')!.engagedWith).toEqual(['b']);
    expect(v.characters.find((c) => c.id === 'b')!.engagedWith).toEqual(['a']);
  });
  it('a Basic Move goes 2 x AB metres, a Run 4 x AB; Hindered halves it, two sources leave 1 m', () => {
    const s = table();
    const a = s.fighters.a!;
    expect([moveAllowance(a, false, 0), moveAllowance(a, true, 0), moveAllowance(a, false, 1), moveAllowance(a, true, 2)]).toEqual([6, 12, 3, 1]);
    expect(() => run(s, { type: 'move', who: 'a', x: 0, y: 7 })).toThrow(/x: 7 m is further than A's Basic Move of 6 m/);
    const prone = run(s, { type: 'set-condition', target: 'a', condition: 'prone', value: true });
    expect(() => run(prone, { type: 'move', who: 'a', x: 0, y: -4 })).toThrow(/Basic Move of 3 m/);
  });
  it('leaving an enemy without disengaging is a Flee: it may make a Chance Attack with Advantage', () => {
    let s = run(table(), { type: 'move', who: 'a', x: -3, y: 0 });
    const e = last(s);
    expect(e.type === 'moved' && e.data).toMatchObject({ metres: 3, allowance: 6, left: ['b'], engaged: [] });
    expect(s.fighters.a!.openings).toEqual([{ by: 'b', trigger: 'flee' }]);
    expect(() => run(s, { type: 'move', who: 'a', x: -4, y: 0 })).toThrow(/has already spent its Move this Turn on Basic Move/);
    // B's Chance Attack: Melee 50 + 10 (Flee); roll 55 succeeds
    s = run(s, { type: 'attack', attacker: 'b', defender: 'a', chance: true, trigger: 'flee' }, [55, 90, 50]);
    const hit = last(s);
    expect(hit.type === 'attack-resolved' && hit.data.summary.hit).toBe(true);
  });
  it('after a Disengage by the Action the same move opens nothing', () => {
    let s = run(table(), { type: 'disengage', who: 'a', from: ['b'], method: 'action' });
    s = run(s, { type: 'move', who: 'a', x: -3, y: 0 });
    expect(s.fighters.a!.openings).toEqual([]);
  });
  it('a Run makes the runner a Running Target until its next turn', () => {
    let s = run(table(), { type: 'move', who: 'a', x: 5, y: 5, run: true });
    expect(s.fighters.a!.conditions.running).toBe(true);
    s = run(run(s, { type: 'end-turn' }), { type: 'end-turn' });
    expect(s.current).toBe('a');
    expect(s.fighters.a!.conditions.running).toBe(false);
  });
});

describe('Spirit and Exertion ("Fate Points", Restore Exertion or Spirit)', () => {
  it('the pools come from the Evoker Rank: Spirit = Magic Bonus x rank, Exertion = rank x the best physical Bonus', () => {
    expect(resourceMaxima(base, 2)).toEqual({ spirit: 8, exertion: 10 });
    const r = checkSheet({ ...SHEETS.a, evokerRank: 2, spirit: 9 });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems[0]!.message).toBe('spirit: 9 is more than the pool of 8 (Magic Bonus 4 × Evoker Rank 2)');
    const ok = checkSheet({ ...SHEETS.a, evokerRank: 2 });
    expect(ok.ok && [ok.derived.spiritMax, ok.derived.exertionMax]).toEqual([8, 10]);
  });
  it('spending is refused past what is left; a Fate Point restores the Realisation Bonus, up to the pool', () => {
    let s = table(); // A: Evoker Rank 1: Spirit 4, Exertion 5
    expect(() => run(s, { type: 'use-resource', who: 'a', resource: 'spirit', amount: 5 })).toThrow(/amount: 5 is more than A's spirit left \(4 of 4\)/);
    s = run(s, { type: 'use-resource', who: 'a', resource: 'exertion', amount: 4, label: 'Power' });
    expect(s.fighters.a!.resources.exertion).toEqual({ current: 1, max: 5 });
    s = run(s, { type: 'spend-fate', who: 'a', spend: 'restore-resource', resource: 'exertion' });
    expect(s.fighters.a!.resources.exertion.current).toBe(4);
    expect(s.fighters.a!.fate.current).toBe(2);
    expect(() => run(s, { type: 'spend-fate', who: 'a', spend: 'restore-resource' })).toThrow(/resource: name the pool/);
    expect(viewEncounter(s, GM).characters.find((c) => c.id === 'a')!.exertion).toEqual({ current: 4, max: 5 });
  });
});

describe('turn effects of the seed run by the table', () => {
  function fresh(start: Record<string, unknown> = {}): EncounterState {
    let s = initialEncounter();
    for (const [id, sheet] of Object.entries(SHEETS)) s = run(s, { type: 'add-character', id, sheet });
    return run(s, { type: 'start', ...start });
  }
  it('"Combat Structure", Step Two: the Surprised lose their first turn and oppose nothing in the surprise round', () => {
    let s = fresh({ surprised: ['a'] });
    expect(s.current).toBe('b');
    // B (Melee 50) attacks A: no evasion die; roll 45, then the location
    s = run(s, { type: 'attack', attacker: 'b', defender: 'a' }, [45, 50]);
    const e = last(s);
    expect(e.type === 'attack-resolved' && e.data.summary).toMatchObject({ hit: true, evasionRoll: null });
    s = run(s, { type: 'end-turn' });
    expect([s.round, s.current, s.fighters.a!.conditions.surprised]).toEqual([2, 'a', false]);
    expect(() => fresh({ surprised: ['a', 'b'] })).toThrow(/someone must not be Surprised/);
  });
  it('Despaired (ailments passage): 5 Stress at the start of each of its turns', () => {
    const s = run(run(fresh(), { type: 'inflict-ailment', target: 'b', ailment: 'despaired' }), { type: 'end-turn' });
    expect([s.current, s.fighters.b!.stress]).toEqual(['b', 5]);
  });
  it('Frozen (ailments passage): the better of Strength and Toughness (40) at the end of its turn breaks free', () => {
    const frozen = run(fresh(), { type: 'inflict-ailment', target: 'a', ailment: 'frozen' });
    expect(run(frozen, { type: 'end-turn' }, [20]).fighters.a!.ailments).toEqual([]);
    expect(run(frozen, { type: 'end-turn' }, [90]).fighters.a!.ailments.map((x) => x.name)).toEqual(['frozen']);
  });
  it('"Unprotected from Miasma": an Evoker without a Persona tests Willpower each round; failing costs the growth rate in Stress', () => {
    let s = run(fresh(), { type: 'set-miasma', rate: 3 });
    s = run(run(s, { type: 'end-turn' }), { type: 'end-turn' }, [50]); // B, a Shadow, makes no test; A's Willpower 30 fails on 50
    const started = groupsOf(s).at(-1)!.find((x) => x.type === 'turn-started')!;
    expect(started.type === 'turn-started' && started.data.miasma).toEqual({ target: 30, roll: 50, success: false, stress: 3 });
    expect(s.fighters.a!.stress).toBe(3);
  });
});

describe('falls, flight, scatter, reload and suffocation', () => {
  it('Falling ("Obstacles and unusual movement"): 1 damage a metre against TB alone; a wound knocks prone', () => {
    // A: TB 4, no Armour matters; 7 m at the body (location 50): 7 > 4, one wound
    const s = run(table(), { type: 'fall', who: 'a', metres: 7 }, [50]);
    expect(s.fighters.a!.tracks.left.light).toBe(3);
    expect(s.fighters.a!.conditions.prone).toBe(true);
    // an intentional fall tests Agility 30: roll 5 is 3 DoS, so 4 damage, not over TB 4
    const soft = run(table(), { type: 'fall', who: 'a', metres: 7, intentional: true }, [5, 50]);
    const e = last(soft);
    expect(e.type === 'fell' && e.data).toMatchObject({ damage: 4, defense: 4, wounds: [] });
    expect(soft.fighters.a!.conditions.prone).toBe(false);
  });
  it('flight (untitled passage after "Difficult Terrain"): a crash from High is a 50 m fall, from Low 20 m', () => {
    expect([crashMetres('high'), crashMetres('low')]).toEqual([50, 20]);
  });
  it('Scatter (untitled passage after "Chance Attacks"): ones digit on a keypad, tens digit in metres', () => {
    expect(scatter(47)).toEqual({ direction: 'north-west', metres: 4 });
    expect(scatter(5)).toEqual({ direction: 'up', metres: 0 });
    expect(scatter(100)).toEqual({ direction: 'towards the attacker', metres: 0 });
  });
  it('Reload ("Equipment Actions"): a passed hurry test takes one Action off and one per 2 DoS, never below 1', () => {
    const pass = (dos: number) => ({ success: true, degreesOfSuccess: dos });
    expect([reloadActions(3), reloadActions(3, pass(0)), reloadActions(4, pass(2)), reloadActions(2, pass(5)), reloadActions(3, { success: false, degreesOfSuccess: 0 })]).toEqual([3, 2, 2, 1, 3]);
  });
  it('suffocation ("Special Conditions"): breath for TB minutes or rounds; a failed test costs 1 Stress plus 1 per DoF', () => {
    expect(breathHeld(table().fighters.a!)).toBe(4);
    expect(suffocationStress(resolveTest(40, 62))).toBe(3); // 2 DoF
    expect(suffocationStress(resolveTest(40, 12))).toBe(0);
  });
});

describe('examples/d100/scenarios/positions-and-protect.yaml', () => {
  const dir = join(import.meta.dirname, '../../../examples/d100/scenarios');
  const play = (seed: number) => runD100Scenario(parseD100Scenario(readFileSync(join(dir, 'positions-and-protect.yaml'), 'utf8'), 'positions-and-protect.yaml'), (p) => parseYaml(readFileSync(join(dir, p), 'utf8')), seededDice(seed));
  it('High Ground, Protect, Spirit and a Flee, as its comments work them out; any seed gives the same events', () => {
    const r = play(5);
    expect(r.error).toBe(null);
    expect(r.state.fighters.brute).toMatchObject({ tracks: { left: { light: 0, heavy: 0, deadly: 1 } }, stress: 8, injuries: [{ location: 'body', name: 'puncture' }] });
    expect(r.state.fighters.yukari).toMatchObject({ stress: 2, persona: { wounds: 1 }, resources: { spirit: { current: 2, max: 4 } } });
    expect(r.state.fighters.makoto!.tracks.left.light).toBe(4);
    expect(play(99).events).toEqual(r.events);
  });
});

describe('control effects of the ailments (ailments passage after "Fate Points")', () => {
  function fresh(): EncounterState {
    let s = initialEncounter();
    for (const [id, sheet] of Object.entries(SHEETS)) s = run(s, { type: 'add-character', id, sheet });
    return run(s, { type: 'start' });
  }
  const summary = (s: EncounterState) => {
    const e = last(s);
    if (e.type !== 'attack-resolved') throw new Error(e.type);
    return e.data;
  };
  it('Brainwashed: no opposing an attack by the controller', () => {
    let s = run(fresh(), { type: 'inflict-ailment', target: 'a', ailment: 'brainwashed', source: 'b' });
    s = run(run(s, { type: 'end-turn' }), { type: 'attack', attacker: 'b', defender: 'a' }, [45, 50]);
    expect(summary(s).summary).toMatchObject({ hit: true, evasionRoll: null });
  });
  it('Enraged: melee attacks only', () => {
    const s = run(fresh(), { type: 'inflict-ailment', target: 'a', ailment: 'enraged' });
    expect(() => run(s, { type: 'attack', attacker: 'a', defender: 'b', kind: 'magic', element: 'fire', damage: 3 }, [45, 90, 50])).toThrow(/Enraged and may only attack in melee/);
  });
  it('Shocked: a melee attacker tests Agility (30) after the attack, and is Shocked on a failure', () => {
    const s = run(fresh(), { type: 'inflict-ailment', target: 'b', ailment: 'shocked' });
    const failed = run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [45, 90, 50, 80]);
    expect(summary(failed).shockTest).toEqual({ target: 30, roll: 80, success: false });
    expect(failed.fighters.a!.ailments.map((x) => x.name)).toEqual(['shocked']);
    expect(run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [45, 90, 50, 10]).fighters.a!.ailments).toEqual([]);
  });
  it('putting out Burning: Agility with two Disadvantages (30 - 20); overcoming Despair: Willpower - 10; Panic: a full Move and Action', () => {
    const burning = run(fresh(), { type: 'inflict-ailment', target: 'a', ailment: 'burning' });
    expect(run(burning, { type: 'end-ailment', who: 'a', ailment: 'burning' }, [5]).fighters.a!.ailments).toEqual([]);
    expect(run(burning, { type: 'end-ailment', who: 'a', ailment: 'burning' }, [15]).fighters.a!.ailments.map((x) => x.name)).toEqual(['burning']);
    const despaired = run(fresh(), { type: 'inflict-ailment', target: 'a', ailment: 'despaired' });
    const e = last(run(despaired, { type: 'end-ailment', who: 'a', ailment: 'despaired' }, [15]));
    expect(e.type === 'ailment-fought' && e.data).toMatchObject({ test: { target: 20, roll: 15, success: true }, ended: true });
    const panicked = run(run(fresh(), { type: 'inflict-ailment', target: 'a', ailment: 'panicked', source: 'b' }), { type: 'end-ailment', who: 'a', ailment: 'panicked' });
    expect([panicked.fighters.a!.ailments, panicked.fighters.a!.conditions.moved]).toEqual([[], true]);
    expect(() => run(fresh(), { type: 'end-ailment', who: 'a', ailment: 'burning' }, [5])).toThrow(/A does not suffer Burning/);
  });
});

describe('Tricks ("Analysing Targets, Disrupting Targets and Tricks"): Push and Knockdown', () => {
  // A (Melee 50) at (0, 0), B at (1, 1). B opposes with the better of Agility 20 and Endurance untrained (Toughness 30 - 20 = 10).
  it('Knockdown: a won melee test knocks the target prone, no damage', () => {
    const s = run(table(), { type: 'trick', attacker: 'a', defender: 'b', kind: 'knockdown' }, [25, 90]);
    expect(s.fighters.b!.conditions.prone).toBe(true);
    expect(s.fighters.b!.tracks.left.light).toBe(3);
  });
  it('Push: one metre away per DoS (roll 25 against 50: 3 DoS); a lost one moves nobody', () => {
    const s = run(table(), { type: 'trick', attacker: 'a', defender: 'b', kind: 'push' }, [25, 90]);
    expect(s.fighters.b!.conditions.position).toEqual({ x: 4, y: 4, elevation: 0 });
    const lost = run(table(), { type: 'trick', attacker: 'a', defender: 'b', kind: 'push' }, [80, 10]);
    expect(lost.fighters.b!.conditions.position).toEqual({ x: 1, y: 1, elevation: 0 });
    const e = last(lost);
    expect(e.type === 'trick-resolved' && e.data).toMatchObject({ won: false, evasion: 20, evasionRoll: 10 });
  });
});

describe('Injuries that cost Stress as the character acts ("Wounds and Injury")', () => {
  const hurt = (injuries: { location: string; name: string; level: number }[]) => {
    const s = table();
    return { ...s, fighters: { ...s.fighters, a: { ...s.fighters.a!, injuries } } } as EncounterState;
  };
  it('Broken Toes: 1 Stress a Move', () => {
    expect(run(hurt([{ location: 'left-leg', name: 'broken-toes', level: 1 }]), { type: 'move', who: 'a', x: -1, y: 0 }).fighters.a!.stress).toBe(1);
  });
  it('Broken Fingers: 5 Stress each time that hand attacks; Cracked: a failed test costs its DoF', () => {
    // Broken Fingers on the right arm (the weapon hand): Melee 50 - 10 (its Disadvantage) = 40, roll 30 hits; the use costs 5
    const fingers = run(hurt([{ location: 'right-arm', name: 'broken-fingers', level: 1 }]), { type: 'attack', attacker: 'a', defender: 'b' }, [30, 90, 50]);
    expect(fingers.fighters.a!.stress).toBe(5);
    // Cracked: Strength 30 - 10 (its Disadvantage on Strength tests) = 20, roll 65: 4 DoF
    const cracked = run(hurt([{ location: 'body', name: 'cracked', level: 2 }]), { type: 'test', who: 'a', score: 'strength' }, [65]);
    expect(cracked.fighters.a!.stress).toBe(4);
  });
});
