import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { givenDice, seededDice } from '@personae/dice';
import { decideEncounter, encounterDecider, evolveEncounter, groupsOf, initialEncounter, parseD100Scenario, runD100Scenario, type EncounterCommand, type EncounterEvent, type EncounterState } from '../src';

const GM: Actor = { role: 'gm', participantId: 'gm' };
const base = { melee: 50, ballistic: 40, magic: 30, strength: 30, toughness: 40, agility: 50, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
/** A: initiative 5 (AB 5), Fate Points 3 (Realisation 30); B: initiative 4; C: initiative 3. TB 3 for B and C (Light 3). */
const sheets = {
  a: { name: 'A', side: 'pc', realisation: 30, scores: base, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }, { name: 'Pistol', class: 'pistol', element: 'missile', damage: 4 }, { name: 'Rifle', class: 'basic', element: 'missile', damage: 5 }, { name: 'SMG', class: 'basic', element: 'missile', damage: 4, burst: 2 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, melee: 40, agility: 40, toughness: 30 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
  c: { name: 'C', kind: 'shadow', side: 'shadows', scores: { ...base, melee: 40, agility: 30, toughness: 30 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
};

function run(state: EncounterState, command: Record<string, unknown>, dice: number[] = []): EncounterState {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideEncounter(state, parsed.command as EncounterCommand, { actor: GM, dice: givenDice(dice), now: '' }).reduce(evolveEncounter, state);
}

function table(options: Record<string, unknown> = {}): EncounterState {
  let s = run(initialEncounter(), { type: 'set-options', options });
  for (const [id, sheet] of Object.entries(sheets)) s = run(s, { type: 'add-character', id, sheet });
  return run(s, { type: 'start' });
}

const lastEvent = (s: EncounterState): EncounterEvent => groupsOf(s).at(-1)!.at(-1)!;
const withFighter = (s: EncounterState, id: string, over: Record<string, unknown>): EncounterState => ({ ...s, fighters: { ...s.fighters, [id]: { ...s.fighters[id]!, ...over } } });

describe('"Chance Attacks": who, when and with what', () => {
  it('out of turn; after one, none until the start of its next Turn (chanceAttackLimit=one-per-own-turn)', () => {
    let s = run(table(), { type: 'end-turn' });
    expect(s.current).toBe('b');
    s = run(s, { type: 'attack', attacker: 'a', defender: 'b', chance: true }, [50, 90, 50]);
    expect(s.fighters.a!.chance).toEqual({ sinceTurn: true, targetsThisRound: ['b'] });
    expect(() => run(s, { type: 'attack', attacker: 'a', defender: 'c', chance: true }, [50, 90, 50])).toThrow(/since the start of its last Turn/);
  });
  it('one-per-enemy-per-round: another enemy may be Chance-Attacked, the same one not again this Round', () => {
    let s = run(table({ chanceAttackLimit: 'one-per-enemy-per-round' }), { type: 'end-turn' });
    s = run(s, { type: 'attack', attacker: 'a', defender: 'b', chance: true }, [50, 90, 50]);
    s = run(s, { type: 'attack', attacker: 'a', defender: 'c', chance: true }, [50, 90, 50]);
    expect(() => run(s, { type: 'attack', attacker: 'a', defender: 'b', chance: true }, [50, 90, 50])).toThrow(/already made a Chance Attack on B this Round/);
  });
  it('nobody with an ailment makes one; no Ballistic weapon but a pistol', () => {
    const s = run(table(), { type: 'end-turn' });
    const ailing = run(s, { type: 'inflict-ailment', target: 'a', ailment: 'burning' });
    expect(() => run(ailing, { type: 'attack', attacker: 'a', defender: 'b', chance: true }, [50, 90, 50])).toThrow(/suffers an ailment/);
    expect(() => run(s, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Rifle', chance: true }, [50, 90, 50])).toThrow(/other than a pistol \(Rifle is basic\)/);
    expect(run(s, { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Pistol', chance: true }, [50, 90, 50]).fighters.a!.chance.sinceTurn).toBe(true);
  });
  it('a Flee trigger needs a Flee; a refused Chance Attack changes nothing', () => {
    const s = run(table(), { type: 'end-turn' });
    const before = JSON.stringify(s);
    expect(() => run(s, { type: 'attack', attacker: 'a', defender: 'b', chance: true, trigger: 'flee' }, [50, 90, 50])).toThrow(/no Flee to answer/);
    expect(JSON.stringify(s)).toBe(before);
  });
});

describe('"Movement and Combat": Disengage and Flee', () => {
  it('each-enemy: Agility 50 rolls 30 (2 DoS); B rolls 10 (3 DoS) and wins, C fails: a Flee from B alone, whose Chance Attack gains Advantage', () => {
    let s = run(table(), { type: 'disengage', who: 'a', from: ['b', 'c'] }, [30, 10, 70]);
    const e = lastEvent(s);
    expect(e.type === 'disengaged' && e.data).toMatchObject({ fled: ['b'], results: [{ enemy: 'b', won: false }, { enemy: 'c', won: true }] });
    expect(s.fighters.a!.openings).toEqual([{ by: 'b', trigger: 'flee' }]);
    expect(() => run(s, { type: 'attack', attacker: 'c', defender: 'a', chance: true, trigger: 'flee' }, [20, 90, 50])).toThrow(/gave C no Flee/);
    s = run(s, { type: 'attack', attacker: 'b', defender: 'a', chance: true, trigger: 'flee' }, [20, 90, 50]);
    const attack = lastEvent(s);
    expect(attack.type === 'attack-resolved' && attack.data.spec.advantages).toContainEqual({ label: 'Flee', count: 1 });
    expect(s.fighters.a!.openings).toEqual([]);
  });
  it('best-enemy: one test against the best Melee (B); losing it is a Flee from both', () => {
    const s = run(table({ disengageOpposition: 'best-enemy' }), { type: 'disengage', who: 'a', from: ['b', 'c'] }, [30, 10]);
    const e = lastEvent(s);
    expect(e.type === 'disengaged' && e.data.fled).toEqual(['b', 'c']);
  });
  it('spending the Action disengages without a test; a forced Flee opens every enemy left', () => {
    const s = run(table(), { type: 'disengage', who: 'a', from: ['b'], method: 'action' });
    expect(s.fighters.a!.openings).toEqual([]);
    const f = run(table(), { type: 'flee', who: 'a', from: ['b', 'c'], reason: 'Panicked' });
    expect(f.fighters.a!.openings.map((o) => o.by)).toEqual(['b', 'c']);
  });
});

describe('"Standard Attack and other Attack Actions": Grapple, and "Grappled and Immobilised"', () => {
  it('Melee 50 rolls 20 against B\'s evasion (Agility 40) rolling 60: B is grappled, cannot attack until it wins an escape test', () => {
    let s = run(table(), { type: 'grapple', attacker: 'a', defender: 'b' }, [20, 60]);
    expect(s.fighters.b!.conditions.grappledBy).toBe('a');
    s = run(s, { type: 'end-turn' });
    expect(() => run(s, { type: 'attack', attacker: 'b', defender: 'a' }, [20, 90, 50])).toThrow(/grappled by A: to attack it must first win an escape test/);
    expect(() => run(s, { type: 'attack', attacker: 'b', defender: 'a', chance: true }, [20, 90, 50])).toThrow(/grappled and can make no Chance Attacks/);
    // escape: B's best of Melee 40 / Agility 40 / Toughness 30 rolls 15 (3 DoS) against A's Melee 50 rolling 45 (0 DoS): B wins
    s = run(s, { type: 'escape-grapple', who: 'b', declared: 'attack' }, [15, 45]);
    expect(s.fighters.b!.conditions.grappledBy).toBe(null);
    expect(groupsOf(run(s, { type: 'attack', attacker: 'b', defender: 'a' }, [20, 90, 50])).length).toBe(groupsOf(s).length + 1);
  });
  it('a lost escape wastes the action and the grapple holds; attacks on the grappled gain Advantage', () => {
    let s = run(table(), { type: 'grapple', attacker: 'a', defender: 'b' }, [20, 60]);
    const e = run(run(s, { type: 'end-turn' }), { type: 'escape-grapple', who: 'b', declared: 'move' }, [80, 20]);
    expect(e.fighters.b!.conditions.grappledBy).toBe('a');
    // A's next turn: its Action went on the Grapple ("Structured Time")
    do s = run(s, { type: 'end-turn' });
    while (s.current !== 'a');
    s = run(s, { type: 'attack', attacker: 'a', defender: 'b' }, [50, 90, 50]);
    const attack = lastEvent(s);
    expect(attack.type === 'attack-resolved' && attack.data.summary.hit).toBe(true);
  });
  it('a failed Grapple opens a Chance Attack for its target; grappleEscape=condition-text calls no test for an evasion', () => {
    const s = run(table(), { type: 'grapple', attacker: 'a', defender: 'b' }, [80, 20]);
    expect(s.fighters.b!.conditions.grappledBy).toBe(null);
    expect(s.fighters.a!.openings).toEqual([{ by: 'b', trigger: 'failed-grapple' }]);
    expect(run(s, { type: 'attack', attacker: 'b', defender: 'a', chance: true, trigger: 'failed-grapple' }, [20, 90, 50]).fighters.b!.chance.sinceTurn).toBe(true);
    const t = run(table({ grappleEscape: 'condition-text' }), { type: 'grapple', attacker: 'a', defender: 'b' }, [20, 60]);
    expect(() => run(t, { type: 'escape-grapple', who: 'b', declared: 'evasion' }, [15, 45])).toThrow(/grappleEscape=condition-text/);
  });
});

describe('"Standard Attack and other Attack Actions": Burst Attack', () => {
  it('SMG (Burst 2): Ballistic 40 - 10 = 30 rolls 12 (2 DoS), B fails its evasion: C is hit too, and B takes an extra wound', () => {
    const s = run(table(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'SMG', burst: [{ extraTarget: 'c' }, { extraWound: 'b' }] }, [12, 90, 50, 50]);
    const e = lastEvent(s);
    // damage 4 + 2 DoS = 6 against TB 3 (body, no armour): 1 wound, + 1 bought; C the same 6 against 3: 1 wound
    expect(e.type === 'attack-resolved' && e.data.summary).toMatchObject({ damage: 6, defense: 3, wounds: ['damage over Defense', 'Burst Attack'], burst: { extra: [{ id: 'c', location: 'body', damage: 6, defense: 3, wounds: ['damage over Defense'] }] } });
    expect(s.fighters.b!.tracks.left.light).toBe(1);
    expect(s.fighters.c!.tracks.left.light).toBe(2);
    // replayed from its JSON events, the same state
    const again = JSON.parse(JSON.stringify(groupsOf(s).flat())).reduce(evolveEncounter, initialEncounter());
    expect(again.fighters).toEqual(s.fighters);
  });
  it('1 DoS (a roll of 22) buys only the first purchase; a weapon without Burst is refused', () => {
    const s = run(table(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'SMG', burst: [{ extraTarget: 'c' }, { extraWound: 'b' }] }, [22, 90, 50, 50]);
    const e = lastEvent(s);
    expect(e.type === 'attack-resolved' && e.data.summary.burst!.purchases).toEqual([{ extraTarget: 'c' }]);
    expect(() => run(table(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Rifle', burst: [{ extraTarget: 'c' }] }, [22, 90, 50])).toThrow(/no Burst quality/);
  });
  it('deciding a burst works its hit out once: B is landed on no more often than by the same attack without the burst', () => {
    // B's wound tracks are read each time a hit is landed on it; count the reads while the command is decided
    const landings = (command: Record<string, unknown>) => {
      const s = table();
      let reads = 0;
      const b = new Proxy(s.fighters.b!, { get: (t, k, r) => ((reads += k === 'tracks' ? 1 : 0), Reflect.get(t, k, r)) });
      const parsed = encounterDecider.parseCommand(command);
      if (!parsed.ok) throw new Error(parsed.error.message);
      decideEncounter({ ...s, fighters: { ...s.fighters, b } }, parsed.command as EncounterCommand, { actor: GM, dice: givenDice([12, 90, 50, 50]), now: '' });
      return reads;
    };
    const plain = landings({ type: 'attack', attacker: 'a', defender: 'b', weapon: 'SMG' });
    expect(plain).toBeGreaterThan(0);
    expect(landings({ type: 'attack', attacker: 'a', defender: 'b', weapon: 'SMG', burst: [{ extraTarget: 'c' }] })).toBe(plain);
  });
});

describe('"Fate Points": each spend\'s effect', () => {
  it('Advantage: two Advantages on the next test (Agility 50 + 20 = 70: a roll of 65 succeeds), then spent', () => {
    let s = run(table(), { type: 'spend-fate', who: 'a', spend: 'advantage' });
    expect(s.fighters.a!.fate.current).toBe(2);
    s = run(s, { type: 'test', who: 'a', score: 'agility' }, [65]);
    const e = lastEvent(s);
    expect(e.type === 'test-rolled' && e.data).toMatchObject({ target: 50, success: true });
    expect(s.fighters.a!.pendingAdvantages).toBe(0);
    expect(lastEvent(run(s, { type: 'test', who: 'a', score: 'agility' }, [65]))).toMatchObject({ data: { success: false } });
  });
  it('Reroll: an attack roll of 80 misses; rerolled to 20 it hits (the second stands); undo brings the miss back', () => {
    let s = run(table(), { type: 'attack', attacker: 'a', defender: 'b' }, [80, 90]);
    expect(lastEvent(s)).toMatchObject({ data: { summary: { hit: false } } });
    s = run(s, { type: 'spend-fate', who: 'a', spend: 'reroll' }, [20, 50]);
    expect(lastEvent(s)).toMatchObject({ type: 'test-rerolled', data: { oldRoll: 80, newRoll: 20, kept: 20, replacement: { data: { summary: { hit: true } } } } });
    expect(s.fighters.a!.fate.current).toBe(2);
    expect(s.fighters.b!.tracks.left.light).toBeLessThan(3);
    const back = run(s, { type: 'undo', seen: s.seq });
    expect(back.fighters.b!.tracks.left.light).toBe(3);
    expect(back.fighters.a!.fate.current).toBe(3);
  });
  it('rerollKeeps: a 20 rerolled to 80 misses when the second stands, still hits when the better stands', () => {
    const hit = (options: Record<string, unknown>) => {
      const s = run(run(table(options), { type: 'attack', attacker: 'a', defender: 'b' }, [20, 90, 50]), { type: 'spend-fate', who: 'a', spend: 'reroll' }, [80, 50]);
      const e = lastEvent(s);
      return e.type === 'test-rerolled' && e.data.replacement.type === 'attack-resolved' && e.data.replacement.data.summary.hit;
    };
    expect(hit({})).toBe(false);
    expect(hit({ rerollKeeps: 'better' })).toBe(true);
  });
  it('Block Heavy Wound is declared ahead (fate-block), not spent on its own; a Reroll needs a test just made', () => {
    expect(() => run(table(), { type: 'spend-fate', who: 'a', spend: 'block-heavy' })).toThrow(/declare it ahead with the fate-block command \(who: a/);
    expect(() => run(table(), { type: 'spend-fate', who: 'a', spend: 'reroll' }, [20])).toThrow(/the last command made none/);
  });
});

describe('"Wounds and Injury": Injuries burden later tests', () => {
  const hurt = (injuries: unknown[], options: Record<string, unknown> = {}) => withFighter(table(options), 'a', { injuries });
  it('Hand Agony on the right arm: an attack with that hand takes a Disadvantage (Melee 50 - 10: a roll of 45 fails)', () => {
    const s = run(hurt([{ location: 'right-arm', name: 'hand-agony', level: 0 }]), { type: 'attack', attacker: 'a', defender: 'b' }, [45, 90]);
    expect(lastEvent(s)).toMatchObject({ data: { summary: { hit: false } } });
    const left = run(hurt([{ location: 'right-arm', name: 'hand-agony', level: 0 }]), { type: 'attack', attacker: 'a', defender: 'b', hand: 'left' }, [45, 90, 50]);
    expect(lastEvent(left)).toMatchObject({ data: { summary: { hit: true } } });
  });
  it('Foot Pain: Agility tests take a Disadvantage; Broken Foot gives three under injuryDisadvantage=one-per-row', () => {
    const foot = (level: number, options: Record<string, unknown> = {}) => lastEvent(run(hurt([{ location: 'left-leg', name: 'x', level }], options), { type: 'test', who: 'a', score: 'agility' }, [45]));
    expect(foot(0)).toMatchObject({ data: { success: false, modifiers: [{ label: 'Foot Pain (left-leg)', value: -10 }] } });
    expect(foot(2, { injuryDisadvantage: 'one-per-row' })).toMatchObject({ data: { modifiers: [{ label: 'Broken Foot (left-leg)', value: -30 }] } });
    expect(lastEvent(run(hurt([{ location: 'left-leg', name: 'x', level: 0 }]), { type: 'test', who: 'a', score: 'perception' }, [25]))).toMatchObject({ data: { modifiers: [] } });
  });
  it('Ignore Injury: a Fate Point lifts it for the Round; the next Round it counts again', () => {
    let s = run(hurt([{ location: 'left-leg', name: 'foot-pain', level: 0 }]), { type: 'spend-fate', who: 'a', spend: 'ignore-injury', location: 'left-leg' });
    expect(lastEvent(run(s, { type: 'test', who: 'a', score: 'agility' }, [45]))).toMatchObject({ data: { success: true } });
    s = run(run(run(s, { type: 'end-turn' }), { type: 'end-turn' }), { type: 'end-turn' });
    expect(s.round).toBe(2);
    expect(lastEvent(run(s, { type: 'test', who: 'a', score: 'agility' }, [45]))).toMatchObject({ data: { success: false } });
    expect(() => run(table(), { type: 'spend-fate', who: 'a', spend: 'ignore-injury', location: 'head' })).toThrow(/no Injury at head/);
  });
  it('Broken Arm: that arm no longer attacks', () => {
    expect(() => run(hurt([{ location: 'right-arm', name: 'broken-arm', level: 3 }]), { type: 'attack', attacker: 'a', defender: 'b' }, [45, 90])).toThrow(/right arm is broken/);
  });
});

describe('scenarios replayed (examples/d100/scenarios)', () => {
  const dir = join(import.meta.dirname, '../../../examples/d100/scenarios');
  const play = (file: string, seed = 1) => {
    const scenario = parseD100Scenario(readFileSync(join(dir, file), 'utf8'), file);
    return runD100Scenario(scenario, (p) => parseYaml(readFileSync(join(dir, file, '..', p), 'utf8')), seededDice(seed));
  };
  it('grapple-and-flee.yaml: the Brute ends out of the fight with a Puncture; any seed gives the same events', () => {
    const r = play('grapple-and-flee.yaml');
    expect(r.error).toBe(null);
    expect(r.state.fighters.brute).toMatchObject({ out: true, tracks: { left: { light: 0, heavy: 0, deadly: 0 } }, injuries: [{ location: 'body', name: 'puncture' }] });
    expect(r.state.fighters.makoto!.fate.current).toBe(2);
    expect(play('grapple-and-flee.yaml', 42).events).toEqual(r.events);
    const folded = JSON.parse(JSON.stringify(r.events)).reduce(evolveEncounter, initialEncounter());
    expect(folded.fighters).toEqual(r.state.fighters);
  });
  it('every scenario under invalid/ is refused at a named action', () => {
    for (const f of readdirSync(join(dir, 'invalid'))) {
      const r = play(`invalid/${f}`);
      expect(r.error, f).not.toBe(null);
    }
  });
});
