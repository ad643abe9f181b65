import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { attackSpec, commandSchema, describeD100Event, evolveEncounter, groupsOf, initialEncounter, redactD100Event, viewEncounter, type EncounterState } from '../src';
import { GM, refusal, run } from './drive';

/**
 * The actions of "Analysing Targets, Disrupting Targets and Tricks" (d100-combat-rules.txt) that the
 * encounter resolves, each with a situation worked by hand from the seed.
 */
const P1: Actor = { role: 'player', participantId: 'p1' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
/** A (played by p1) acts first: Agility Bonus 3 against B's 2. B is weak to Fire and absorbs Elec. */
const SHEETS = {
  a: { name: 'A', side: 'pc', arcanaLevel: 4, scores: base, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }, { name: 'Agi', class: 'magic', element: 'fire', damage: 4 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', arcana: 'Magician', personality: 'Timid', scores: { ...base, agility: 20, toughness: 30 }, affinities: { fire: 'weak', elec: 'absorb' }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
};

function table(sheets: Record<string, Record<string, unknown>> = SHEETS, options: Record<string, unknown> = {}): EncounterState {
  let s = initialEncounter('seed', options);
  s = run(s, { type: 'add-character', id: 'a', sheet: sheets.a, controller: 'p1' });
  for (const [id, sheet] of Object.entries(sheets)) if (id !== 'a') s = run(s, { type: 'add-character', id, sheet });
  return run(s, { type: 'start' });
}
const seen = (s: EncounterState, viewer: Actor, id: string) => viewEncounter(s, viewer).characters.find((c) => c.id === id)!;

describe('"Analysing Targets, Disrupting Targets and Tricks": Analyse Target', () => {
  it("hides an enemy's affinities, Arcana and Personality from the players until it is analysed", () => {
    const s = table();
    const before = seen(s, P1, 'b');
    expect(before.sheet!.affinities).toEqual({});
    expect(before.fighter.affinities).toEqual({});
    expect(before.sheet!.arcana).toBeUndefined();
    expect(before.sheet!.personality).toBeUndefined();
    expect(before.affinitiesKnown).toEqual([]);
    // nothing in the player's log carries them either
    const log = viewEncounter(s, P1).log;
    expect(JSON.stringify(log)).not.toMatch(/absorb|Magician|Timid/);
    // the GM sees them, and the party sees its own
    expect(seen(s, GM, 'b').sheet!.affinities).toEqual({ fire: 'weak', elec: 'absorb' });
    expect(seen(s, P1, 'a').affinitiesKnown).toBe('all');

    const after = run(s, { type: 'analyse', who: 'a', target: 'b' }, [], P1);
    const shown = seen(after, P1, 'b');
    expect(shown.sheet!.affinities).toEqual({ fire: 'weak', elec: 'absorb' });
    expect(shown.fighter.affinities).toEqual({ fire: 'weak', elec: 'absorb' });
    expect(shown.sheet!.arcana).toBe('Magician');
    expect(shown.analysed).toBe('basic');
    const added = groupsOf(after).flat().find((e) => e.type === 'character-added' && e.data.id === 'b')!;
    expect(JSON.stringify(redactD100Event(added, P1, after))).toContain('absorb');
    // undone, they are hidden again
    expect(seen(run(after, { type: 'undo', seen: after.seq }), P1, 'b').sheet!.affinities).toEqual({});
  });

  it('needs Arcana Level 4, and 7 for an Advanced Analyse Target; only an enemy in the fight', () => {
    const s = table();
    expect(refusal(s, { type: 'analyse', who: 'a', target: 'b', advanced: true }, [], P1)).toEqual({ code: 'arcana-level', field: 'who', message: "who: A's Arcana Level is 4; Advanced Analyse Target needs 7", section: 'Analysing Targets, Disrupting Targets and Tricks' });
    const low = table({ ...SHEETS, a: { ...SHEETS.a, arcanaLevel: 3 } });
    expect(refusal(low, { type: 'analyse', who: 'a', target: 'b' }, [], P1)).toMatchObject({ code: 'arcana-level', message: "who: A's Arcana Level is 3; Analyse Target needs 4" });
    const withAlly = table({ ...SHEETS, c: { name: 'C', side: 'pc', scores: { ...base, agility: 10, perception: 10 } } });
    expect(refusal(withAlly, { type: 'analyse', who: 'a', target: 'c' }, [], P1)).toMatchObject({ code: 'not-an-enemy', field: 'target' });
    // not on another character's turn
    expect(refusal(s, { type: 'analyse', who: 'b', target: 'a' })).toMatchObject({ code: 'not-your-turn' });
    const adv = run(table({ ...SHEETS, a: { ...SHEETS.a, arcanaLevel: 7 } }), { type: 'analyse', who: 'a', target: 'b', advanced: true }, [], P1);
    expect(seen(adv, P1, 'b').analysed).toBe('advanced');
  });

  it("Advanced Analyse Target also reveals the enemy's Wounds, Scores and Traits; a basic one does not (option detailsReveal)", () => {
    const tough = { ...SHEETS, b: { ...SHEETS.b, unnaturalToughness: 2 } };
    const s = table({ ...tough, a: { ...SHEETS.a, arcanaLevel: 7 } });
    const hidden = seen(s, P1, 'b');
    expect([hidden.wounds, hidden.woundMax, hidden.detailsKnown, hidden.sheet!.scores, hidden.sheet!.unnaturalToughness, hidden.fighter.scores, hidden.fighter.tracks]).toEqual([null, null, false, undefined, undefined, undefined, undefined]);
    // the log's character-added is sent the same way, and is told without wounds
    const added = groupsOf(s).flat().find((e) => e.type === 'character-added' && e.data.id === 'b')!;
    expect(JSON.stringify(redactD100Event(added, P1, s))).not.toMatch(/"scores"|unnaturalToughness/);
    const basic = seen(run(s, { type: 'analyse', who: 'a', target: 'b' }, [], P1), P1, 'b');
    expect([basic.analysed, basic.wounds, basic.sheet!.scores]).toEqual(['basic', null, undefined]);
    const advanced = run(s, { type: 'analyse', who: 'a', target: 'b', advanced: true }, [], P1);
    // B: Toughness 30, TB 3: Light 3, Heavy 1, Deadly 1
    expect(seen(advanced, P1, 'b')).toMatchObject({ analysed: 'advanced', detailsKnown: true, wounds: { light: 3, heavy: 1, deadly: 1 }, sheet: { scores: { toughness: 30 }, unnaturalToughness: 2 }, fighter: { unnaturalToughness: 2 } });
    expect(seen(run(advanced, { type: 'undo', seen: advanced.seq }), P1, 'b').wounds).toBe(null);
    // the GM always, and everyone under detailsReveal=open
    expect(seen(s, GM, 'b').wounds).toEqual({ light: 3, heavy: 1, deadly: 1 });
    expect(seen(table(tough, { detailsReveal: 'open' }), P1, 'b').sheet!.unnaturalToughness).toBe(2);
  });

  it("until an Advanced Analyse Target, a player is sent no target number of the enemy's rolls, from which its Scores follow (option detailsReveal)", () => {
    // B: Melee 67, Agility 23 (its evasion: better than untrained Endurance, Toughness 30 - 20 = 10), Toughness Bonus 3
    const sheets = { a: { ...SHEETS.a, arcanaLevel: 7 }, b: { ...SHEETS.b, scores: { ...SHEETS.b.scores, melee: 67, agility: 23 } } };
    const HIDDEN = [67, 23];
    /** The paths in a value where a number equal to one of `ns` stands. */
    const paths = (x: unknown, ns: number[], at = ''): string[] =>
      typeof x === 'number' ? (ns.includes(x) ? [at] : []) : x && typeof x === 'object' ? Object.entries(x).flatMap(([k, v]) => paths(v, ns, `${at}.${k}`)) : [];
    const lastFor = (s: EncounterState, viewer: Actor) => redactD100Event(groupsOf(s).flat().at(-1)!, viewer, s)!;
    // A's Sword (Melee 50) rolls 30; B evades at 23, rolls 50: a hit to the body (50).
    const struck = run(table(sheets), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, [30, 50, 50], P1);
    const evaded = lastFor(struck, P1);
    expect(evaded).toMatchObject({ type: 'attack-resolved', data: { spec: { attackTarget: 50, evasionTarget: null }, summary: { hit: true, roll: 30, evasionRoll: 50, defense: null } } });
    expect(lastFor(struck, GM)).toMatchObject({ data: { spec: { evasionTarget: 23 }, summary: { defense: 3 } } });
    // B's Claws at Melee 67 roll 20 (5 DoS); A evades at Agility 30 with 25: a hit (50)
    const attacked = run(run(struck, { type: 'end-turn' }), { type: 'attack', attacker: 'b', defender: 'a' }, [20, 25, 50]);
    const attack = lastFor(attacked, P1);
    expect(attack).toMatchObject({ data: { spec: { attackTarget: null, evasionTarget: 30 }, summary: { hit: true, roll: 20, evasionRoll: 25 } } });
    expect(lastFor(attacked, GM)).toMatchObject({ data: { spec: { attackTarget: 67 } } });
    // nowhere in what the player is shown, nor in the log's words
    const view = viewEncounter(attacked, P1);
    expect(paths(view, HIDDEN)).toEqual([]);
    expect(view.log.map((e) => describeD100Event(e, (id) => id)).join('\n')).not.toMatch(/\b(67|23)\b/);
    expect(describeD100Event(evaded, (id) => id)).toContain('a defense not known');
    expect(paths(viewEncounter(attacked, GM).log, HIDDEN).length).toBeGreaterThan(0);

    // A's next turn: the Advanced Analyse reveals them; B's next attack carries its target again (roll 90 misses)
    const analysed = run(run(attacked, { type: 'end-turn' }), { type: 'analyse', who: 'a', target: 'b', advanced: true }, [], P1);
    const again = run(run(analysed, { type: 'end-turn' }), { type: 'attack', attacker: 'b', defender: 'a' }, [90, 25]);
    expect(lastFor(again, P1)).toMatchObject({ data: { spec: { attackTarget: 67 }, summary: { hit: false } } });
    // the attack before it was sent without them at the time (the state right after it)
    expect(attack.data).toMatchObject({ spec: { attackTarget: null } });
    // under detailsReveal=open they were never withheld
    const open = run(table(sheets, { detailsReveal: 'open' }), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, [30, 50, 50], P1);
    expect(lastFor(open, P1)).toMatchObject({ data: { spec: { evasionTarget: 23 } } });
  });

  it('a landed hit reveals the affinity to its element alone (option affinityReveal)', () => {
    // A's Agi: magic 40, roll 30 (1 DoS); B evades with Agility 20, rolls 50: fails. A hit, at the body (location roll 50).
    const hit = (options: Record<string, unknown>) => run(table(SHEETS, options), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, [30, 50, 50], P1);
    const struck = hit({});
    expect(groupsOf(struck).flat().at(-1)).toMatchObject({ type: 'attack-resolved', data: { summary: { hit: true } } });
    expect(seen(struck, P1, 'b').sheet!.affinities).toEqual({ fire: 'weak' });
    expect(seen(struck, P1, 'b').affinitiesKnown).toEqual(['fire']);
    expect(seen(hit({ affinityReveal: 'analyse' }), P1, 'b').sheet!.affinities).toEqual({});
    expect(seen(table(SHEETS, { affinityReveal: 'open' }), P1, 'b').sheet!.affinities).toEqual({ fire: 'weak', elec: 'absorb' });
    // a miss reveals nothing: roll 60 fails against 40
    const missed = run(table(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, [60, 50], P1);
    expect(seen(missed, P1, 'b').sheet!.affinities).toEqual({});
  });
});

describe('"Analysing Targets, Disrupting Targets and Tricks": a Push into a solid object', () => {
  // A (Melee 50) rolls 15: 4 DoS (tens digits 5 - 1). B opposes with its best of Agility 20 and
  // untrained Endurance (Toughness 30 - 20 = 10) and rolls 90: a failure. B is pushed 4 m.
  const placed = () => {
    const s = run(table(), { type: 'place', target: 'a', x: 0, y: 0 });
    return run(s, { type: 'place', target: 'b', x: 1, y: 0 });
  };
  const b = (s: EncounterState) => s.fighters.b!;

  it('stops at the object and takes the metres left as Stress and as damage against Defense', () => {
    // 1 m to the wall: it moves 1 m and is 3 m short. Damage 3 against Defense 3 (TB 3, no Armour): no wound; 3 Stress.
    const s = run(placed(), { type: 'trick', attacker: 'a', defender: 'b', kind: 'push', obstacle: 1 }, [15, 90, 50]);
    expect(b(s).conditions.position).toEqual({ x: 2, y: 0, elevation: 0 });
    expect(b(s).stress).toBe(3);
    expect(b(s).tracks.left).toEqual(b(placed()).tracks.left);
    const e = groupsOf(s).flat().at(-1)!;
    expect(e).toMatchObject({ type: 'trick-resolved', data: { metres: 4, impact: { obstacle: 1, left: 3, location: 'body', damage: 3, defense: 3, wounds: [] } } });
  });

  it('against a wall it touches, the whole push: damage 4 beats Defense 3, a Light wound and its Stress', () => {
    const s = run(placed(), { type: 'trick', attacker: 'a', defender: 'b', kind: 'push', obstacle: 0 }, [15, 90, 50]);
    expect(b(s).conditions.position).toEqual({ x: 1, y: 0, elevation: 0 });
    expect(b(s).tracks.left.light).toBe(b(placed()).tracks.left.light - 1);
    expect(b(s).stress).toBe(4 + 1);
    // undone, nothing of it stays; the same dice give the same result
    expect(run(s, { type: 'undo', seen: s.seq }).fighters.b).toEqual(b(placed()));
    expect(run(placed(), { type: 'trick', attacker: 'a', defender: 'b', kind: 'push', obstacle: 0 }, [15, 90, 50]).fighters).toEqual(s.fighters);
  });

  it('an object further than the push is never met; a Knockdown has none', () => {
    const s = run(placed(), { type: 'trick', attacker: 'a', defender: 'b', kind: 'push', obstacle: 4 }, [15, 90]);
    expect(b(s).conditions.position).toEqual({ x: 5, y: 0, elevation: 0 });
    expect(b(s).stress).toBe(0);
    expect(refusal(placed(), { type: 'trick', attacker: 'a', defender: 'b', kind: 'knockdown', obstacle: 1 }, [15, 90])).toMatchObject({ code: 'obstacle-not-push', field: 'obstacle' });
  });
});

describe('"Analysing Targets, Disrupting Targets and Tricks": Distract', () => {
  // A has no Deception or Anticipate: it tests the better of Fellowship 30 and Perception 20; B has no
  // Scrutiny and opposes with Perception 20. A rolls 15 (2 DoS), B 50 (a failure): A wins.
  const distracted = () => run(table(), { type: 'distract', who: 'a', target: 'b' }, [15, 50], P1);
  // B's turn: Claws (Melee 50) roll 20, 3 DoS; A evades with Agility 30, rolls 25, 1 DoS: a hit to the
  // body (50). Damage 3 + SB 3 + 3 - 1 = 8 against Defense 4: one Light wound.
  const attacked = () => run(run(distracted(), { type: 'end-turn' }), { type: 'attack', attacker: 'b', defender: 'a' }, [20, 25, 50]);

  it('a won Distract lets the actor force the target to reroll one test and keep the worse', () => {
    const s = attacked();
    expect(s.fighters.a!.tracks.left.light).toBe(3);
    // the new roll 80 is worse than 20: it stands, the attack misses, and A loses no wound
    const forced = run(s, { type: 'force-reroll', who: 'a', test: 'attack' }, [80], P1);
    expect(groupsOf(forced).flat().at(-1)).toMatchObject({ type: 'test-rerolled', data: { who: 'b', forcedBy: 'a', oldRoll: 20, newRoll: 80, kept: 80, replacement: { data: { summary: { hit: false } } } } });
    expect(forced.fighters.a!.tracks.left.light).toBe(4);
    expect(forced.fighters.a!.fate).toEqual(s.fighters.a!.fate);
    // one reroll only
    expect(refusal(forced, { type: 'force-reroll', who: 'a', test: 'attack' }, [80], P1)).toMatchObject({ code: 'not-distracting', field: 'who' });
    // a better new roll (5) does not replace the worse first one (20): the hit stands (a new location die, 50)
    const kept = run(s, { type: 'force-reroll', who: 'a', test: 'attack' }, [5, 50], P1);
    expect(groupsOf(kept).flat().at(-1)).toMatchObject({ data: { kept: 20 } });
    expect(kept.fighters.a!.tracks.left.light).toBe(3);
  });

  it('a lost Distract gives nothing; a won one ends at the start of the actor\'s next turn', () => {
    const lost = run(table(), { type: 'distract', who: 'a', target: 'b' }, [60, 10], P1);
    expect(lost.fighters.a!.conditions.distracting ?? null).toBeNull();
    const next = run(run(distracted(), { type: 'end-turn' }), { type: 'end-turn' });
    expect(next.current).toBe('a');
    expect(next.fighters.a!.conditions.distracting).toBeNull();
    expect(refusal(run(table(), { type: 'distract', who: 'a', target: 'b' }, [15, 50], P1), { type: 'distract', who: 'b', target: 'a' })).toMatchObject({ code: 'not-your-turn' });
  });
});

describe('"Analysing Targets, Disrupting Targets and Tricks": Scary Face', () => {
  const SHEETS3 = { ...SHEETS, c: { name: 'C', side: 'pc', scores: { ...base, agility: 10, perception: 10 } } };
  // A: the better of Strength 30 and Fellowship 30 against B's Willpower 30; A rolls 15 (2 DoS), B 70: A wins.
  const scared = () => {
    let s = run(table(SHEETS3), { type: 'scary-face', who: 'a', target: 'b' }, [15, 70], P1);
    for (const [id, x] of [['a', 0], ['b', 5], ['c', 1]] as const) s = run(s, { type: 'place', target: id, x, y: 0 });
    return run(s, { type: 'end-turn' });
  };
  const spec = (s: EncounterState, attacker: string, defender: string) => attackSpec(s, commandSchema.parse({ type: 'attack', attacker, defender }) as Parameters<typeof attackSpec>[1]);

  it('the target takes a Disadvantage on tests against the actor and allies adjacent to it, its evasions included', () => {
    const s = scared();
    expect(s.fighters.b!.conditions.scaredBy).toEqual(['a']);
    expect(spec(s, 'b', 'a').disadvantages).toContainEqual({ label: 'Scary Face', count: 1 });
    expect(spec(s, 'b', 'c').disadvantages).toContainEqual({ label: 'Scary Face', count: 1 });
    expect(spec(s, 'a', 'b').evasionDisadvantages).toEqual([{ label: 'Scary Face', count: 1 }]);
    // C 2 m from A is not adjacent to it
    const apart = run(s, { type: 'place', target: 'c', x: -2, y: 0 });
    expect(spec(apart, 'b', 'c').disadvantages).not.toContainEqual({ label: 'Scary Face', count: 1 });
    // B's Claws at Melee 50 - 10: a roll of 45 misses; without the face the same dice hit
    const attack = { type: 'attack', attacker: 'b', defender: 'a' };
    expect(groupsOf(run(s, attack, [45, 90, 50])).flat().at(-1)).toMatchObject({ data: { summary: { hit: false } } });
    const calm = run(run(table(SHEETS3), { type: 'scary-face', who: 'a', target: 'b' }, [60, 10], P1), { type: 'end-turn' });
    expect(groupsOf(run(calm, attack, [45, 90, 50])).flat().at(-1)).toMatchObject({ data: { summary: { hit: true } } });
  });

  it("ends at the start of the actor's next turn", () => {
    const s = run(run(scared(), { type: 'end-turn' }), { type: 'end-turn' });
    expect(s.current).toBe('a');
    expect(s.fighters.b!.conditions.scaredBy).toEqual([]);
    expect(spec(s, 'b', 'a').disadvantages).not.toContainEqual({ label: 'Scary Face', count: 1 });
  });
});

describe('"Equipment Actions (Consumables, Reloading)": Equip Item and Use Consumable', () => {
  const KIT = {
    ...SHEETS.a,
    weapons: [...SHEETS.a.weapons, { name: 'Rifle', class: 'basic', element: 'missile', damage: 6, hands: 2 }, { name: 'Knife', class: 'melee', element: 'melee', damage: 2 }],
    stowed: ['Rifle', 'Knife'],
    wounds: { light: 1, heavy: 2, deadly: 1 },
    stress: 10,
    consumables: [{ name: 'Medicine', count: 1, effect: { light: 2, stress: 5 } }],
  };
  const kit = () => table({ ...SHEETS, a: KIT, c: { name: 'C', side: 'pc', stress: 8, scores: { ...base, agility: 10, perception: 10 } } });
  const attack = (weapon: string) => ({ type: 'attack', attacker: 'a', defender: 'b', weapon });

  it('a put-away weapon is drawn first: a two-handed one costs the Action, a one-handed one is free', () => {
    const s = kit();
    expect(refusal(s, attack('Rifle'), [], P1)).toMatchObject({ code: 'weapon-stowed', field: 'weapon', section: 'Equipment Actions (Consumables, Reloading)' });
    const drawn = run(s, { type: 'equip', who: 'a', item: 'Rifle', stow: 'Sword' }, [], P1);
    expect(groupsOf(drawn).flat().at(-1)).toMatchObject({ type: 'equipped', data: { item: 'Rifle', stow: 'Sword', cost: 'action' } });
    expect(drawn.fighters.a!.stowed).toEqual(['Knife', 'Sword']);
    expect(refusal(drawn, attack('Sword'), [], P1)).toMatchObject({ code: 'weapon-stowed' });
    expect(refusal(drawn, attack('Rifle'), [], P1)).not.toMatchObject({ code: 'weapon-stowed' });
    expect(groupsOf(run(s, { type: 'equip', who: 'a', item: 'Knife' }, [], P1)).flat().at(-1)).toMatchObject({ data: { cost: 'free' } });
    expect(refusal(s, { type: 'equip', who: 'a', item: 'Sword' }, [], P1)).toMatchObject({ code: 'already-equipped', field: 'item' });
    expect(refusal(s, { type: 'equip', who: 'a', item: 'Rifle', stow: 'Knife' }, [], P1)).toMatchObject({ code: 'not-equipped', field: 'stow' });
    expect(run(drawn, { type: 'undo', seen: drawn.seq }).fighters.a!.stowed).toBeUndefined();
  });

  it("a consumable's effect comes from the sheet: Medicine restores 2 Light wounds and relieves 5 Stress, once", () => {
    const used = run(kit(), { type: 'use-consumable', who: 'a', item: 'Medicine' }, [], P1);
    expect(used.fighters.a!.tracks.left).toEqual({ light: 3, heavy: 2, deadly: 1 });
    expect(used.fighters.a!.stress).toBe(5);
    expect(used.fighters.a!.consumables).toEqual({ Medicine: 0 });
    expect(refusal(used, { type: 'use-consumable', who: 'a', item: 'Medicine' }, [], P1)).toMatchObject({ code: 'none-left', field: 'item' });
    expect(refusal(kit(), { type: 'use-consumable', who: 'a', item: 'Elixir' }, [], P1)).toMatchObject({ code: 'unknown-consumable' });
  });

  it('on an ally within 5 metres, never an enemy', () => {
    const at = (x: number) => run(run(kit(), { type: 'place', target: 'a', x: 0, y: 0 }), { type: 'place', target: 'c', x, y: 0 });
    expect(refusal(at(6), { type: 'use-consumable', who: 'a', item: 'Medicine', target: 'c' }, [], P1)).toMatchObject({ code: 'out-of-reach', message: 'target: C is 6 m away; a consumable reaches 5 m' });
    const healed = run(at(5), { type: 'use-consumable', who: 'a', item: 'Medicine', target: 'c' }, [], P1);
    expect(healed.fighters.c!.stress).toBe(3);
    expect(healed.fighters.a!.stress).toBe(10);
    expect(healed.fighters.a!.consumables).toEqual({ Medicine: 0 });
    expect(refusal(kit(), { type: 'use-consumable', who: 'a', item: 'Medicine', target: 'b' }, [], P1)).toMatchObject({ code: 'not-an-ally' });
  });

  it('the 5 metres count a flyer\'s band as height (the flight passage): C flying Low over the next square is 20 m away', () => {
    let s = table({ ...SHEETS, a: KIT, c: { name: 'C', side: 'pc', flight: true, stress: 8, scores: { ...base, agility: 10, perception: 10 } } });
    s = run(run(s, { type: 'place', target: 'a', x: 0, y: 0 }), { type: 'place', target: 'c', x: 1, y: 0, altitude: 'low' });
    expect(refusal(s, { type: 'use-consumable', who: 'a', item: 'Medicine', target: 'c' }, [], P1)).toMatchObject({ code: 'out-of-reach', message: 'target: C is 20 m away; a consumable reaches 5 m' });
    expect(s.fighters.c!.stress).toBe(8);
  });
});

describe('"Special Movement Actions": Going Stealthy', () => {
  // A: Agility 30, AB 3: a Basic Move of 6 m, 3 m Hindered. No Stealth skill: it tests Agility 30.
  const apart = (options: Record<string, unknown> = {}) => {
    let s = table(SHEETS, options);
    for (const [id, x] of [['a', 0], ['b', 10]] as const) s = run(s, { type: 'place', target: id, x, y: 0 });
    return s;
  };
  const hidden = (options: Record<string, unknown> = {}) => run(apart(options), { type: 'go-stealthy', who: 'a' }, [], P1);
  const move = (x: number, extra: Record<string, unknown> = {}) => ({ type: 'move', who: 'a', x, y: 0, ...extra });

  it('moving in stealth is Hindered and makes the stealth test; a pass keeps it unseen', () => {
    const s = hidden();
    expect(s.fighters.a!.conditions.stealthy).toBe(true);
    expect(refusal(s, move(4), [25], P1)).toMatchObject({ code: 'too-far', message: "x: 4 m is further than A's Basic Move of 3 m" });
    const moved = run(s, move(3), [25], P1);
    expect(groupsOf(moved).flat().at(-1)).toMatchObject({ type: 'moved', data: { allowance: 3, stealth: { roll: 25, success: true, fullSpeed: false } } });
    expect(moved.fighters.a!.conditions.stealthy).toBe(true);
  });

  it('"Fate Points": an Advantage bought beforehand goes to the stealth test and is spent: at full speed 25 passes against 30 - 20 + 20', () => {
    // A with Realisation 30: three Fate Points
    let s = table({ ...SHEETS, a: { ...SHEETS.a, realisation: 30 } });
    for (const [id, x] of [['a', 0], ['b', 10]] as const) s = run(s, { type: 'place', target: id, x, y: 0 });
    s = run(run(s, { type: 'go-stealthy', who: 'a' }, [], P1), { type: 'spend-fate', who: 'a', spend: 'advantage' }, [], P1);
    const moved = run(s, move(6, { stealthFullSpeed: true }), [25], P1);
    expect(groupsOf(moved).flat().at(-1)).toMatchObject({ data: { stealth: { target: 30, roll: 25, success: true, fate: 2 } } });
    expect(moved.fighters.a!.pendingAdvantages).toBe(0);
    expect(moved.fighters.a!.conditions.stealthy).toBe(true);
  });

  it('at full speed the whole Move, with two Disadvantages on the test: 25 fails against 30 - 20', () => {
    const moved = run(hidden(), move(6, { stealthFullSpeed: true }), [25], P1);
    expect(groupsOf(moved).flat().at(-1)).toMatchObject({ data: { allowance: 6, stealth: { roll: 25, success: false, fullSpeed: true } } });
    expect(moved.fighters.a!.conditions.stealthy).toBe(false);
    expect(refusal(apart(), move(6, { stealthFullSpeed: true }), [], P1)).toMatchObject({ code: 'not-stealthy', field: 'stealthFullSpeed' });
  });

  it('an attack from stealth is Ambushing and gives it away (option stealthAttack); never beside an enemy; the GM may end it', () => {
    const spec = (s: EncounterState) => attackSpec(s, commandSchema.parse({ type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }) as Parameters<typeof attackSpec>[1]);
    expect(spec(hidden()).advantages).toContainEqual({ label: 'Ambushing (from stealth)', count: 1 });
    expect(spec(apart()).advantages).not.toContainEqual({ label: 'Ambushing (from stealth)', count: 1 });
    // A's next turn: going stealthy took this one's Action ("Structured Time")
    const nextTurn = (s: EncounterState) => run(run(s, { type: 'end-turn' }), { type: 'end-turn' });
    const attacked = run(nextTurn(hidden()), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, [60, 50], P1);
    expect(attacked.fighters.a!.conditions.stealthy).toBe(false);
    const ruled = hidden({ stealthAttack: 'gm' });
    expect(spec(ruled).advantages).not.toContainEqual({ label: 'Ambushing (from stealth)', count: 1 });
    expect(run(nextTurn(ruled), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, [60, 50], P1).fighters.a!.conditions.stealthy).toBe(true);
    const beside = run(apart(), { type: 'place', target: 'b', x: 1, y: 1 });
    expect(refusal(beside, { type: 'go-stealthy', who: 'a' }, [], P1)).toMatchObject({ code: 'in-sight', message: 'who: A stands beside B, who sees it', section: 'Special Movement Actions' });
    expect(run(hidden(), { type: 'set-condition', target: 'a', condition: 'stealthy', value: false }).fighters.a!.conditions.stealthy).toBe(false);
  });
});
