import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { seededDice } from '@personae/dice';
import { describeD100Event, evolveEncounter, groupsOf, initialEncounter, viewEncounter, type EncounterEvent, type EncounterState } from '../src';
import { decide, GM, refusal, run } from './drive';

/**
 * "Structured Time" (d100-combat-rules.txt): each Turn a character has one Move and one Action; "One
 * More" gives one more of either; "Baton Pass" hands it on and "All Out Attack" spends it. "Blood
 * Loss": a bleeder may use its Action to stem the bleeding, with three Advantages on the test.
 */
const P1: Actor = { role: 'player', participantId: 'p1' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
/** A (played by p1, Agility Bonus 3) acts before B (2) and C (1). B is weak to Fire. */
const SHEETS: Record<string, Record<string, unknown>> = {
  a: {
    name: 'A',
    side: 'pc',
    arcanaLevel: 4,
    scores: base,
    realisation: 30,
    socialLinks: { C: 4 },
    weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }, { name: 'Agi', class: 'magic', element: 'fire', damage: 4 }, { name: 'Knife', class: 'melee', element: 'melee', damage: 2 }, { name: 'Rifle', class: 'basic', element: 'missile', damage: 6, hands: 2 }],
    stowed: ['Knife', 'Rifle'],
  },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 20, toughness: 60 }, affinities: { fire: 'weak' }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
  c: { name: 'C', side: 'pc', scores: { ...base, agility: 10, perception: 10 }, weapons: [{ name: 'Bow', class: 'basic', element: 'missile', damage: 4 }] },
};

function table(sheets: Record<string, Record<string, unknown>> = SHEETS): EncounterState {
  let s = initialEncounter();
  s = run(s, { type: 'add-character', id: 'a', sheet: sheets.a, controller: 'p1' });
  for (const [id, sheet] of Object.entries(sheets)) if (id !== 'a') s = run(s, { type: 'add-character', id, sheet });
  return run(s, { type: 'start' });
}
const turnOf = (s: EncounterState, id: string, viewer: Actor = P1) => viewEncounter(s, viewer).characters.find((c) => c.id === id)!.turn;
/** Ends turns until `who`'s starts (no character here needs a die at the start or end of a turn). */
function until(s: EncounterState, who: string, dice: number[] = []): EncounterState {
  do s = run(s, { type: 'end-turn' }, s.current === 'c' || s.current === 'b' ? dice : []);
  while (s.current !== who);
  return s;
}
/** A's Sword on B: Melee 50 rolls 45; B's Agility 20 evasion rolls 90; the body (50). */
const SWORD = { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' };
/** A's Agi on B's weakness: Magic 40 rolls 30; B rolls 90; B is Staggered and A gains a One More. */
const AGI = { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' };

describe('"Structured Time": one Move and one Action each Turn', () => {
  it('a second Action is refused, naming the rule and what took the first; the next Turn brings a fresh one', () => {
    const s = run(table(), SWORD, [45, 90, 50], P1);
    expect(turnOf(s, 'a')).toEqual({ action: false, move: true, actionSpentOn: 'Standard Attack', moveSpentOn: null, oneMore: false });
    expect(refusal(s, { type: 'defend' }, [], P1)).toEqual({
      code: 'no-action-left',
      field: 'type',
      message: 'type: A has already spent its Action this Turn on Standard Attack and holds no One More: no Action is left for Defend (one Move and one Action per Turn)',
      section: 'Structured Time',
    });
    expect(refusal(s, { type: 'analyse', who: 'a', target: 'b' }, [], P1)).toMatchObject({ code: 'no-action-left', message: expect.stringContaining('no Action is left for Analyse Target') });
    // the refusal changed nothing; the Move is still there
    expect(run(run(s, { type: 'place', target: 'a', x: 0, y: 0 }), { type: 'move', who: 'a', x: 3, y: 0 }, [], P1).fighters.a!.turn).toEqual({ action: 'Standard Attack', move: 'Basic Move' });
    const next = until(s, 'a');
    expect(turnOf(next, 'a')).toEqual({ action: true, move: true, actionSpentOn: null, moveSpentOn: null, oneMore: false });
    expect(refusal(next, { type: 'defend' }, [], P1)).toBe('accepted');
  });

  it('one Move: a second is refused; the Action comes before or after it', () => {
    let s = run(table(), { type: 'place', target: 'a', x: 0, y: 0 });
    s = run(s, { type: 'move', who: 'a', x: 2, y: 0 }, [], P1);
    expect(refusal(s, { type: 'move', who: 'a', x: 4, y: 0 }, [], P1)).toMatchObject({ code: 'no-move-left', message: 'type: A has already spent its Move this Turn on Basic Move and holds no One More: no Move is left for Basic Move (one Move and one Action per Turn)' });
    expect(run(s, { type: 'defend' }, [], P1).fighters.a!.turn).toEqual({ action: 'Defend', move: 'Basic Move' });
  });

  it('every action command spends the Action', () => {
    const placed = (s: EncounterState) => run(run(s, { type: 'place', target: 'a', x: 0, y: 0 }), { type: 'place', target: 'b', x: 1, y: 0 });
    const cases: [Record<string, unknown>, number[], string][] = [
      [SWORD, [45, 90, 50], 'Standard Attack'],
      [{ type: 'defend' }, [], 'Defend'],
      [{ type: 'protect', ally: 'c' }, [], 'Protect'],
      [{ type: 'analyse', who: 'a', target: 'b' }, [], 'Analyse Target'],
      [{ type: 'distract', who: 'a', target: 'b' }, [15, 50], 'Distract'],
      [{ type: 'scary-face', who: 'a', target: 'b' }, [15, 70], 'Scary Face'],
      [{ type: 'grapple', attacker: 'a', defender: 'b' }, [20, 90], 'Grapple'],
      [{ type: 'trick', attacker: 'a', defender: 'b', kind: 'knockdown' }, [20, 90], 'Knockdown'],
      [{ type: 'trick', attacker: 'a', defender: 'b', kind: 'push' }, [20, 90], 'Push'],
      [{ type: 'equip', who: 'a', item: 'Rifle' }, [], 'Equip Item (Rifle)'],
      [{ type: 'disengage', who: 'a', from: ['b'], method: 'action' }, [], 'Disengage'],
    ];
    for (const [command, dice, label] of cases) {
      const s = run(placed(table()), command, dice, P1);
      expect([command.type, s.fighters.a!.turn?.action]).toEqual([command.type, label]);
      expect(refusal(s, { type: 'defend' }, [], P1)).toMatchObject({ code: 'no-action-left', message: expect.stringContaining(`on ${label} `) });
    }
    // Going Stealthy (inventory U21) and first aid, away from the enemy
    const apart = run(table(), { type: 'set-condition', target: 'c', condition: 'bloodLoss', value: true });
    expect(run(apart, { type: 'go-stealthy', who: 'a' }, [], P1).fighters.a!.turn?.action).toBe('Going Stealthy');
    expect(run(apart, { type: 'staunch', who: 'a', target: 'c' }, [90], P1).fighters.a!.turn?.action).toBe('first aid (Medical)');
  });

  it('free: a one-handed Equip, Fate Point spends, a Chance Attack and the tests the GM calls for', () => {
    let s = run(table(), { type: 'equip', who: 'a', item: 'Knife' }, [], P1);
    s = run(s, { type: 'spend-fate', who: 'a', spend: 'advantage' }, [], P1);
    s = run(s, { type: 'test', who: 'a', score: 'agility' }, [50], P1);
    expect(s.fighters.a!.turn).toEqual({ action: null, move: null });
    expect(refusal(s, { type: 'equip', who: 'a', item: 'Rifle' }, [], P1)).toBe('accepted');
    // B's Chance Attack on A (a Fumble, 97) spends nothing of B's (it is not even B's turn)
    const chance = run(s, { type: 'attack', attacker: 'b', defender: 'a', chance: true }, [97]);
    expect(chance.fighters.b!.turn).toBeUndefined();
  });

  it('a Charge is a Basic Move and the attack; after a Run there is no Move left for it', () => {
    const placed = run(run(table(), { type: 'place', target: 'a', x: 0, y: 0 }), { type: 'place', target: 'b', x: 4, y: 0 });
    const walked = run(placed, { type: 'move', who: 'a', x: 3, y: 0 }, [], P1);
    const charged = run(walked, { ...SWORD, action: 'charge' }, [45, 90, 50], P1);
    expect(charged.fighters.a!.turn).toEqual({ action: 'Charge', move: 'Charge' });
    const ran = run(placed, { type: 'move', who: 'a', x: 3, y: 0, run: true }, [], P1);
    expect(refusal(ran, { ...SWORD, action: 'charge' }, [45, 90, 50], P1)).toMatchObject({ code: 'no-move-left', message: expect.stringContaining('spent its Move this Turn on Run') });
    // without a Move before it, the Charge takes the Move itself
    expect(run(placed, { ...SWORD, action: 'charge' }, [45, 90, 50], P1).fighters.a!.turn).toEqual({ action: 'Charge', move: 'Charge' });
  });

  it('a Focused Attack takes the Move it forgoes; an All-Weapon Attack is one Action for one attack per hand', () => {
    const focused = run(run(table(), { type: 'place', target: 'a', x: 0, y: 0 }), { ...SWORD, action: 'focused' }, [45, 90, 50], P1);
    expect(refusal(focused, { type: 'move', who: 'a', x: 1, y: 0 }, [], P1)).toMatchObject({ code: 'no-move-left', message: expect.stringContaining('on Focused Attack (no Move this Turn)') });
    let s = run(table(), { ...SWORD, action: 'all-weapon', hand: 'right' }, [45, 90, 50], P1);
    // the left hand's Agi rolls 97: a Fumble, no evasion roll
    s = run(s, { ...SWORD, weapon: 'Agi', action: 'all-weapon', hand: 'left' }, [97], P1);
    expect(s.fighters.a!.turn).toEqual({ action: 'All-Weapon Attack', move: null, hands: ['right', 'left'] });
    expect(refusal(s, { ...SWORD, action: 'all-weapon', hand: 'right' }, [45, 90, 50], P1)).toMatchObject({ code: 'hand-used', section: 'Standard Attack and other Attack Actions' });
    expect(refusal(s, SWORD, [45, 90, 50], P1)).toMatchObject({ code: 'no-action-left' });
  });

  it('putting out a fire takes the Action, then the Move (its "Move or Action"); overcoming Panic takes both', () => {
    let s = run(table(), { type: 'inflict-ailment', target: 'a', ailment: 'burning' });
    // Agility 30 - 20 (two Disadvantages) - 10 (Burning: an ailment is no Disadvantage on Agility): 90 fails
    s = run(s, { type: 'end-ailment', who: 'a', ailment: 'burning' }, [90], P1);
    expect(s.fighters.a!.turn).toEqual({ action: 'putting out the fire', move: null });
    s = run(s, { type: 'end-ailment', who: 'a', ailment: 'burning' }, [90], P1);
    expect(s.fighters.a!.turn).toEqual({ action: 'putting out the fire', move: 'putting out the fire' });
    expect(refusal(s, { type: 'end-ailment', who: 'a', ailment: 'burning' }, [90], P1)).toMatchObject({ code: 'no-move-left', message: expect.stringContaining('spent its Move this Turn on putting out the fire') });
    const panicked = run(run(table(), { type: 'inflict-ailment', target: 'a', ailment: 'panicked', source: 'b' }), { type: 'end-ailment', who: 'a', ailment: 'panicked' }, [], P1);
    expect(panicked.fighters.a!.turn).toEqual({ action: 'overcoming Panic', move: 'overcoming Panic' });
  });

  it('a lost escape from a grapple wastes what it was declared for; the declared Move or Action must be there', () => {
    let s = run(until(table(), 'b'), { type: 'grapple', attacker: 'b', defender: 'a' }, [20, 90]);
    s = until(s, 'a');
    // A's Melee 50 rolls 80 against B's Melee 50 rolling 20: lost, the Move is wasted
    s = run(s, { type: 'escape-grapple', who: 'a', declared: 'move' }, [80, 20], P1);
    expect(s.fighters.a!.turn).toEqual({ action: null, move: 'a failed escape from a grapple (declared move)' });
    expect(refusal(s, { type: 'escape-grapple', who: 'a', declared: 'move' }, [10, 90], P1)).toMatchObject({ code: 'no-move-left' });
    // a won escape spends nothing: the Action is still there to act with
    const free = run(s, { type: 'escape-grapple', who: 'a', declared: 'action' }, [10, 90], P1);
    expect(free.fighters.a!.conditions.grappledBy).toBe(null);
    expect(free.fighters.a!.turn!.action).toBe(null);
  });

  it('undo gives the Action back; replay folds to the same state', () => {
    const s = run(table(), SWORD, [45, 90, 50], P1);
    const undone = run(s, { type: 'undo', seen: s.seq });
    expect(undone.fighters.a!.turn).toEqual({ action: null, move: null });
    expect(refusal(undone, { type: 'defend' }, [], P1)).toBe('accepted');
    const replayed = groupsOf(s).flat().reduce(evolveEncounter, initialEncounter());
    expect(replayed.fighters).toEqual(s.fighters);
  });
});

describe('"One More", "Baton Pass" and "All Out Attack": the extra Move or Action', () => {
  it('a Stagger earns one more Move or Action: spent on a second Action, a third is refused', () => {
    const s = run(table(), AGI, [30, 90, 50], P1);
    expect(s.oneMore?.holder).toBe('a');
    expect(turnOf(s, 'a')).toMatchObject({ action: false, actionSpentOn: 'Standard Attack', oneMore: true });
    const again = run(s, { type: 'defend' }, [], P1);
    expect(again.oneMore).toBe(null);
    expect(refusal(again, { type: 'analyse', who: 'a', target: 'b' }, [], P1)).toMatchObject({ code: 'no-action-left' });
    // the own Move is spent before the One More, which stays for an Action
    const moved = run(run(s, { type: 'place', target: 'a', x: 0, y: 0 }), { type: 'move', who: 'a', x: 2, y: 0 }, [], P1);
    expect(moved.oneMore?.holder).toBe('a');
    const second = run(moved, { type: 'move', who: 'a', x: 4, y: 0 }, [], P1);
    expect(second.oneMore).toBe(null);
    expect(refusal(second, { type: 'defend' }, [], P1)).toMatchObject({ code: 'no-action-left' });
  });

  it('the Baton Pass receiver acts once with it, out of turn; its own Turn is untouched', () => {
    const passed = run(run(table(), AGI, [30, 90, 50], P1), { type: 'baton-pass', to: 'c' }, [], P1);
    expect(turnOf(passed, 'c')).toEqual({ action: false, move: false, actionSpentOn: null, moveSpentOn: null, oneMore: true });
    // C's Bow: Ballistic 40 (+2 Advantages, Social Link 4) rolls 95: a Fumble, the One More is spent
    const shot = run(passed, { type: 'attack', attacker: 'c', defender: 'b' }, [95]);
    expect(shot.oneMore).toBe(null);
    expect(shot.fighters.c!.turn ?? { action: null, move: null }).toEqual({ action: null, move: null });
    expect(refusal(shot, { type: 'attack', attacker: 'c', defender: 'b' }, [95])).toMatchObject({ code: 'not-your-turn' });
  });

  it('an All Out Attack spends the One More, and nobody\'s own Action', () => {
    const s = run(run(table(), AGI, [30, 90, 50], P1), { type: 'all-out-attack', participants: [{ id: 'a', score: 'melee' }, { id: 'c', score: 'ballistic' }] }, [30, 60], P1);
    expect(s.oneMore).toBe(null);
    expect(s.fighters.a!.turn).toEqual({ action: 'Standard Attack', move: null });
    expect(s.fighters.c!.turn).toBeUndefined();
  });
});

describe('"Blood Loss": stemming one\'s own bleeding', () => {
  const bleeding = (sheet: Record<string, unknown> = {}) => run(table({ ...SHEETS, a: { ...SHEETS.a, ...sheet } }), { type: 'set-condition', target: 'a', condition: 'bloodLoss', value: true });

  it('declared, the next start-of-turn test has three Advantages and takes that Turn\'s Action', () => {
    // Toughness 40 + 30: the roll 65 passes; without stemming it fails and costs a Light wound
    const declared = run(bleeding(), { type: 'stem-bleeding', who: 'a' }, [], P1);
    expect(declared.fighters.a!.conditions.stemming).toBe(true);
    const stemmed = until(declared, 'a', [65]);
    const started = groupsOf(stemmed).at(-1)!.find((e) => e.type === 'turn-started' && e.data.id === 'a')!;
    // no Endurance skill: Endurance (Injury) is untrained, 40 - 20, so the better test is Toughness 40
    expect(started.type === 'turn-started' && started.data.bloodLoss).toEqual({ test: 'toughness', chosen: 'better', base: 40, otherBase: 20, target: 70, roll: 65, success: true, degrees: 1, stemmed: true, modifiers: [{ label: 'stemming the bleeding', value: 30 }] });
    expect(stemmed.fighters.a!.tracks.left.light).toBe(4);
    expect(stemmed.fighters.a!.conditions.stemming).toBe(false);
    expect(refusal(stemmed, SWORD, [45, 90, 50], P1)).toMatchObject({ code: 'no-action-left', message: expect.stringContaining('on stemming the bleeding') });
    expect(stemmed.fighters.a!.turn).toEqual({ action: 'stemming the bleeding', move: null });

    const free = until(bleeding(), 'a', [65]);
    expect(free.fighters.a!.tracks.left.light).toBe(3);
    expect(free.fighters.a!.turn).toEqual({ action: null, move: null });
    // undone, the declaration is gone
    expect(run(declared, { type: 'undo', seen: declared.seq }).fighters.a!.conditions.stemming).toBeFalsy();
  });

  it('only a bleeder declares it, for its own character; it can be taken back', () => {
    expect(refusal(table(), { type: 'stem-bleeding', who: 'a' }, [], P1)).toMatchObject({ code: 'not-bleeding', section: 'Blood Loss' });
    expect(refusal(run(table(), { type: 'set-condition', target: 'b', condition: 'bloodLoss', value: true }), { type: 'stem-bleeding', who: 'b' }, [], P1)).toMatchObject({ code: 'not-your-character' });
    const declared = run(bleeding(), { type: 'stem-bleeding', who: 'a' }, [], P1);
    expect(run(declared, { type: 'stem-bleeding', who: 'a', stem: false }, [], P1).fighters.a!.conditions.stemming).toBe(false);
  });

  it('the test carries every Disadvantage of its tests: Fatigue and ailments as well as Injuries', () => {
    // Stress 45 above Toughness 40: Fatigued; Dizzy: a Disadvantage on all tests. 40 - 10 - 10 = 20: 25 fails
    const s = run(bleeding({ stress: 45 }), { type: 'inflict-ailment', target: 'a', ailment: 'dizzy', turns: 3 });
    const next = until(s, 'a', [25]);
    const started = groupsOf(next).at(-1)!.find((e) => e.type === 'turn-started' && e.data.id === 'a')!;
    expect(started.type === 'turn-started' && started.data.bloodLoss).toMatchObject({ target: 20, roll: 25, success: false });
    expect(started.type === 'turn-started' && started.data.bloodLoss!.modifiers.map((m) => m.value)).toEqual([-10, -10]);
    expect(next.fighters.a!.tracks.left.light).toBe(3);
  });

  it('a turn start recorded before the test counted them folds as it was made: Injuries only', () => {
    const s = until(bleeding({ stress: 45 }), 'a', [25]);
    const events = groupsOf(s).flat().map((e) => (e.type === 'turn-started' && e.data.bloodLoss ? { ...e, data: { ...e.data, bloodLoss: undefined } } : e)) as EncounterEvent[];
    // without the record the old reading holds: 25 against Toughness 40 passes
    expect(events.reduce(evolveEncounter, initialEncounter()).fighters.a!.tracks.left.light).toBe(4);
  });
});

describe('"Blood Loss": a Toughness or Endurance (Injury) test, the bleeder\'s choice', () => {
  /** A with Endurance (Injury), trained: Toughness 40 + 10 = 50, against its plain Toughness of 40. */
  const hardy = { ...SHEETS.a, skills: [{ name: 'Endurance', focus: 'Injury', score: 'toughness', training: 'trained' }] };
  const bleeding = (a: Record<string, unknown> = hardy) => run(table({ ...SHEETS, a }), { type: 'set-condition', target: 'a', condition: 'bloodLoss', value: true });
  const startOf = (s: EncounterState) => {
    const e = groupsOf(s).at(-1)!.find((x) => x.type === 'turn-started' && x.data.id === 'a')!;
    if (e.type !== 'turn-started') throw new Error('no turn start');
    return e;
  };

  it('undeclared, the better target is tested: Endurance (Injury) 50, so 45 passes where Toughness 40 would fail', () => {
    const s = until(bleeding(), 'a', [45]);
    expect(startOf(s).data.bloodLoss).toEqual({ test: 'endurance', chosen: 'better', base: 50, otherBase: 40, target: 50, roll: 45, success: true, degrees: 1, stemmed: false, modifiers: [] });
    expect(s.fighters.a!.tracks.left.light).toBe(4);
  });

  it("declared by the bleeder's player, that test is made: Toughness 40, so the same 45 fails and costs a Light wound", () => {
    const declared = run(bleeding(), { type: 'bleeding-test', who: 'a', test: 'toughness' }, [], P1);
    expect(declared.fighters.a!.conditions.bleedingTest).toBe('toughness');
    const s = until(declared, 'a', [45]);
    expect(startOf(s).data.bloodLoss).toMatchObject({ test: 'toughness', chosen: 'declared', base: 40, otherBase: 50, target: 40, roll: 45, success: false, degrees: 0 });
    expect(s.fighters.a!.tracks.left.light).toBe(3);
    // the choice stands for the tests to come, until changed
    const again = until(s, 'a', [45]);
    expect(startOf(again).data.bloodLoss).toMatchObject({ test: 'toughness', chosen: 'declared', success: false });
  });

  it('Endurance (Injury) without the skill is untrained, Toughness 40 - 20: a declared 25 fails', () => {
    const declared = run(bleeding(SHEETS.a!), { type: 'bleeding-test', who: 'a', test: 'endurance' }, [], P1);
    const s = until(declared, 'a', [25]);
    expect(startOf(s).data.bloodLoss).toMatchObject({ test: 'endurance', chosen: 'declared', base: 20, otherBase: 40, target: 20, roll: 25, success: false });
    expect(s.fighters.a!.tracks.left.light).toBe(3);
  });

  it('the log says which test was made and why', () => {
    const s = until(bleeding(), 'a', [45]);
    expect(describeD100Event(startOf(s), (id) => s.fighters[id]!.name)).toBe('round 2: A\'s turn; Blood Loss: Endurance (Injury) (the better: Endurance (Injury) 50 over Toughness 40) 45 vs 50, passed');
    const declared = until(run(bleeding(), { type: 'bleeding-test', who: 'a', test: 'toughness' }, [], P1), 'a', [45]);
    expect(describeD100Event(startOf(declared), (id) => s.fighters[id]!.name)).toContain('Blood Loss: Toughness (as declared) 45 vs 40, failed by');
  });

  it("only the character's player (or the GM) declares it; the same declaration twice and an unknown test are refused, changing nothing", () => {
    const s = run(table(), { type: 'set-condition', target: 'b', condition: 'bloodLoss', value: true });
    expect(refusal(s, { type: 'bleeding-test', who: 'b', test: 'toughness' }, [], P1)).toMatchObject({ code: 'not-your-character', field: 'who' });
    const declared = run(bleeding(), { type: 'bleeding-test', who: 'a', test: 'endurance' }, [], P1);
    expect(refusal(declared, { type: 'bleeding-test', who: 'a', test: 'endurance' }, [], P1)).toMatchObject({ code: 'already-declared', field: 'test', message: 'test: A already tests Endurance (Injury) against Blood Loss', section: 'Blood Loss' });
    expect(() => decide(declared, { type: 'bleeding-test', who: 'a', test: 'willpower' }, [], P1)).toThrow(/test/);
    expect(declared.fighters.a!.conditions.bleedingTest).toBe('endurance');
  });
});

describe('"Fate Points" (Advantage): a Fate Point bought before a test goes to the next test, once', () => {
  const bleeding = (s: EncounterState = table()) => run(s, { type: 'set-condition', target: 'a', condition: 'bloodLoss', value: true });
  const startOf = (s: EncounterState) => {
    const e = groupsOf(s).at(-1)!.find((x) => x.type === 'turn-started' && x.data.id === 'a')!;
    if (e.type !== 'turn-started') throw new Error('no turn start');
    return e;
  };
  /** A ends its turn having bought the Advantage: it waits for its next test. */
  const bought = (s: EncounterState) => run(s, { type: 'spend-fate', who: 'a', spend: 'advantage' }, [], P1);

  it('the Blood Loss test at the start of its next turn takes the two Advantages: Toughness 40 + 20, so 55 passes; then they are gone', () => {
    const s = until(bought(bleeding()), 'a', [55]);
    expect(startOf(s).data.bloodLoss).toMatchObject({ target: 60, roll: 55, success: true, modifiers: [{ label: 'Fate Point', value: 20 }] });
    expect(startOf(s).data.fate).toEqual({ test: 'bloodLoss', advantages: 2 });
    expect(s.fighters.a!.pendingAdvantages).toBe(0);
    expect(s.fighters.a!.tracks.left.light).toBe(4);
    // the next test A makes has no Fate Point in it: Agility 30, 35 fails
    const [t] = decide(s, { type: 'test', who: 'a', score: 'agility' }, [35], P1);
    expect(t!.data).toMatchObject({ roll: 35, success: false });
    expect(JSON.stringify(t)).not.toContain('Fate Point');
  });

  it('it goes to one test only: bleeding and Confused, the Blood Loss test takes it and the Confused test (Intelligence 30) does not', () => {
    const s0 = run(bought(bleeding()), { type: 'inflict-ailment', target: 'a', ailment: 'confused', turns: 3 });
    const s = until(s0, 'a', [55, 45]);
    expect(startOf(s).data.bloodLoss).toMatchObject({ target: 60, success: true });
    expect(startOf(s).data.confused).toMatchObject({ target: 30, roll: 45, success: false });
    expect(startOf(s).data.fate).toEqual({ test: 'bloodLoss', advantages: 2 });
  });

  it('without Blood Loss, the Confused test at the turn start is the next test: Intelligence 30 + 20, 45 passes', () => {
    const s = until(run(bought(table()), { type: 'inflict-ailment', target: 'a', ailment: 'confused', turns: 3 }), 'a', [45]);
    expect(startOf(s).data.confused).toMatchObject({ target: 50, roll: 45, success: true });
    expect(startOf(s).data.fate).toEqual({ test: 'confused', advantages: 2 });
    expect(s.fighters.a!.pendingAdvantages).toBe(0);
  });

  it('the Willpower -10 test against Despair takes it: 30 - 10 + 20 = 40, so 35 passes, and it is spent', () => {
    const s = bought(run(table(), { type: 'inflict-ailment', target: 'a', ailment: 'despaired' }));
    const [e] = decide(s, { type: 'end-ailment', who: 'a', ailment: 'despaired' }, [35], P1);
    expect(e!.data).toMatchObject({ test: { target: 40, roll: 35, success: true }, ended: true, fate: 2 });
    expect(run(s, { type: 'end-ailment', who: 'a', ailment: 'despaired' }, [35], P1).fighters.a!.pendingAdvantages).toBe(0);
  });

  it('with no test at the turn start, it waits for the next test the character makes', () => {
    const s = until(bought(table()), 'a');
    expect(startOf(s).data.fate).toBeUndefined();
    expect(s.fighters.a!.pendingAdvantages).toBe(2);
    const [t] = decide(s, { type: 'test', who: 'a', score: 'agility' }, [45], P1);
    expect(t!.data).toMatchObject({ roll: 45, success: true });
    expect(run(s, { type: 'test', who: 'a', score: 'agility' }, [45], P1).fighters.a!.pendingAdvantages).toBe(0);
  });
});

describe('property: the Turn\'s allowance', () => {
  const ACTION_EVENTS = new Set(['defending', 'protecting', 'analysed', 'disrupted']);
  const step = fc.oneof(
    fc.constant({ type: 'defend' }),
    fc.constant({ type: 'protect', ally: 'c' }),
    fc.record({ type: fc.constant('analyse'), who: fc.constant('a'), target: fc.constant('b') }),
    fc.record({ type: fc.constantFrom('distract', 'scary-face'), who: fc.constantFrom('a', 'b', 'c'), target: fc.constantFrom('a', 'b') }),
    fc.record({ type: fc.constant('attack'), attacker: fc.constantFrom('a', 'c'), defender: fc.constant('b'), weapon: fc.constantFrom('Agi', 'Sword', 'Bow') }),
    fc.record({ type: fc.constant('attack'), attacker: fc.constant('b'), defender: fc.constantFrom('a', 'c') }),
    fc.record({ type: fc.constant('baton-pass'), to: fc.constantFrom('c', 'a') }),
    fc.constant({ type: 'end-turn' }),
    fc.constant({ type: 'undo' }),
  );
  it('no character takes more Actions in a Turn than its own one plus the One Mores it holds; replay is deterministic', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.integer({ min: 1, max: 1e6 }), (steps, seed) => {
        const dice = seededDice(seed);
        let s = table();
        for (const raw of steps) {
          const command = raw.type === 'undo' ? { type: 'undo', seen: s.seq } : raw;
          try {
            s = decide(s, command, dice).reduce(evolveEncounter, s);
          } catch (e) {
            if (!(e as { code?: string }).code) throw e;
          }
        }
        // per Turn: Actions (attacks that are not Chance Attacks, and the action events) against 1 + One Mores earned or received
        let spent = 0;
        let allowed = 1;
        for (const e of groupsOf(s).flat()) {
          if (e.type === 'turn-started') (spent = 0), (allowed = 1);
          else if (e.type === 'attack-resolved' && !e.data.spec.chanceAttack) (spent += 1), (allowed += e.data.summary.oneMore ? 1 : 0);
          else if (ACTION_EVENTS.has(e.type)) spent += 1;
          expect(spent).toBeLessThanOrEqual(allowed);
        }
        const replayed = groupsOf(s).flat().reduce(evolveEncounter, initialEncounter());
        expect(replayed.fighters).toEqual(s.fighters);
        expect([replayed.current, replayed.oneMore, replayed.round]).toEqual([s.current, s.oneMore, s.round]);
      }),
      { numRuns: 60 },
    );
  });
});
