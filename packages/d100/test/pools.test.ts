import { describe, expect, it } from 'vitest';
import { poolDice, type Actor, type EnteredPools } from '@personae/core';
import { givenDice } from '@personae/dice';
import { decideEncounter, encounterDecider, evolveEncounter, initialEncounter, type EncounterCommand, type EncounterEvent, type EncounterState } from '../src';

/**
 * Physical dice at a d100 table (d100-combat-rules.txt, "How Attacks Work", "Combat Structure"): each
 * die a command draws is in the named pool of whoever rolls it, so a player types in their own attack
 * roll and location while the table rolls the defender's evasion.
 */
const GM: Actor = { role: 'gm', participantId: 'gm' };
const P1: Actor = { role: 'player', participantId: 'p1' };
const scores = { melee: 50, ballistic: 40, magic: 30, strength: 30, toughness: 40, agility: 50, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
const sheet = (name: string, side: string, extra: Record<string, unknown> = {}) => ({ name, side, scores, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 4 }], ...extra });

function decide(state: EncounterState, command: Record<string, unknown>, actor: Actor, entered: EnteredPools = {}, host: number[] = []): EncounterEvent[] {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const dice = poolDice(entered, givenDice(host));
  const events = decideEncounter(state, parsed.command as EncounterCommand, { actor, dice, now: '' });
  dice.finish();
  return events;
}
const fold = (state: EncounterState, events: EncounterEvent[]) => events.reduce(evolveEncounter, state);
function refusal(state: EncounterState, command: Record<string, unknown>, actor: Actor, entered: EnteredPools) {
  try {
    decide(state, command, actor, entered, Array(10).fill(50));
    return 'accepted';
  } catch (e) {
    const r = e as { code: string; field?: string; message: string };
    return { code: r.code, field: r.field, message: r.message };
  }
}

/** Ann (the player's), the Orc and a hidden Lurker, all alike: initiative ties and goes to d10 roll-offs, which the GM enters. */
function started(): EncounterState {
  let s = fold(initialEncounter(), decide(initialEncounter(), { type: 'add-character', id: 'ann', sheet: sheet('Ann', 'pc'), controller: 'p1' }, GM));
  s = fold(s, decide(s, { type: 'add-character', id: 'orc', sheet: sheet('Orc', 'foes') }, GM));
  s = fold(s, decide(s, { type: 'add-character', id: 'lurker', sheet: sheet('Lurker', 'foes', { hidden: true }) }, GM));
  return fold(s, decide(s, { type: 'start' }, GM, { 'initiative:ann': [9], 'initiative:orc': [4], 'initiative:lurker': [7] }));
}

describe('named dice pools of a d100 command', () => {
  it('initiative roll-offs are each character\'s own pool: the entered d10s order the tie ("Combat Structure")', () => {
    const s = started();
    expect(s.order).toEqual(['ann', 'lurker', 'orc']);
    expect(s.current).toBe('ann');
  });

  it("the attacker's player enters the attack roll and the location; the table rolls the defender's evasion", () => {
    const s = started();
    // Attack 05 under Melee 50 succeeds; the table's evasion 70 under 50 fails; the location die is the player's 42.
    const [event] = decide(s, { type: 'attack', attacker: 'ann', defender: 'orc' }, P1, { attack: [5], location: [42] }, [70]);
    expect(event!.type).toBe('attack-resolved');
    const data = (event as Extract<EncounterEvent, { type: 'attack-resolved' }>).data;
    expect(data.dice).toEqual([5, 70, 42]);
    expect(data.summary).toMatchObject({ roll: 5, evasionRoll: 70, hit: true });
  });

  it('the GM enters any pool, the evasion too; a location rolled with a miss goes unused, while dice that do not fit are refused', () => {
    const s = started();
    const [event] = decide(s, { type: 'attack', attacker: 'ann', defender: 'orc' }, GM, { attack: [5], evasion: [3] });
    // Evasion 03 wins the opposed test (more degrees): a miss, and no location is drawn.
    expect((event as Extract<EncounterEvent, { type: 'attack-resolved' }>).data.dice).toEqual([5, 3]);
    const [missed] = decide(s, { type: 'attack', attacker: 'ann', defender: 'orc' }, GM, { attack: [5], evasion: [3], location: [42] });
    expect((missed as Extract<EncounterEvent, { type: 'attack-resolved' }>).data.dice).toEqual([5, 3]);
    expect(refusal(s, { type: 'attack', attacker: 'ann', defender: 'orc' }, GM, { attack: [5, 6] })).toMatchObject({ code: 'dice-count', field: 'dice.attack' });
    expect(refusal(s, { type: 'attack', attacker: 'ann', defender: 'orc' }, GM, { attack: [5], evasion: [99], location: [42, 43] })).toMatchObject({ code: 'dice-count', field: 'dice.location' });
    expect(refusal(s, { type: 'attack', attacker: 'ann', defender: 'orc' }, GM, { attack: [5], evasion: [3], location: [42, 43] })).toMatchObject({ code: 'dice-pool', field: 'dice.location' });
    expect(refusal(s, { type: 'test', who: 'ann', score: 'agility' }, GM, { actor: [5], 'target:orc': [3] })).toMatchObject({ code: 'dice-pool', field: 'dice.target:orc' });
  });

  it("a player entering the defender's evasion is told it is not theirs, and which pools they may fill", () => {
    const s = started();
    const r = refusal(s, { type: 'attack', attacker: 'ann', defender: 'orc' }, P1, { evasion: [99] });
    expect(r).toMatchObject({ code: 'not-your-dice', field: 'dice.evasion', message: expect.stringMatching(/Orc's evasion roll/) });
    expect((r as { message: string }).message).toMatch(/"attack".*"location"/);
    expect((r as { message: string }).message).not.toMatch(/evasion roll, "evasion"|lurker/i);
  });

  it("a hidden character's pool is answered as a pool that does not exist", () => {
    const s = started();
    const hidden = refusal(s, { type: 'end-turn' }, P1, { 'turn:lurker': [50] });
    const nobody = refusal(s, { type: 'end-turn' }, P1, { 'turn:nobody': [50] });
    expect(hidden).toMatchObject({ code: 'dice-pool', field: 'dice.turn:lurker' });
    expect(JSON.stringify(hidden)).not.toMatch(/Lurker/);
    expect(JSON.stringify(nobody).replaceAll('nobody', 'lurker')).toBe(JSON.stringify(hidden));
    // The GM's character's turn pool is the GM's.
    expect(refusal(s, { type: 'end-turn' }, P1, { 'turn:orc': [50] })).toMatchObject({ code: 'not-your-dice', field: 'dice.turn:orc' });
  });

  it("a test's roll is the actor's pool; an opposed Distract's answer is the target's", () => {
    const s = started();
    expect(refusal(s, { type: 'test', who: 'ann', score: 'agility' }, P1, { actor: [12] })).toBe('accepted');
    const [t] = decide(s, { type: 'test', who: 'ann', score: 'agility' }, P1, { actor: [12] });
    expect(t!.data).toMatchObject({ roll: 12, success: true });
    expect(refusal(s, { type: 'distract', who: 'ann', target: 'orc' }, P1, { 'target:orc': [1] })).toMatchObject({ code: 'not-your-dice', field: 'dice.target:orc' });
  });

  it('plain dice (a scenario, a replay) fill the pools in the order the rules draw them, as before the pools were named', () => {
    const s = started();
    const cmd = encounterDecider.parseCommand({ type: 'attack', attacker: 'ann', defender: 'orc' });
    if (!cmd.ok) throw new Error('parse');
    const plain = decideEncounter(s, cmd.command as EncounterCommand, { actor: GM, dice: givenDice([5, 70, 42]), now: '' });
    const pooled = decide(s, { type: 'attack', attacker: 'ann', defender: 'orc' }, GM, {}, [5, 70, 42]);
    expect(pooled).toEqual(plain);
  });
});

describe('the pools of Reload and the ailment-resistance test', () => {
  it("the player types in the hurry test of its own Reload; the GM the target's resistance test", () => {
    let s = fold(initialEncounter(), decide(initialEncounter(), { type: 'add-character', id: 'ann', sheet: sheet('Ann', 'pc', { weapons: [{ name: 'Pistol', class: 'pistol', element: 'missile', damage: 4, clip: 6, reload: 2 }] }), controller: 'p1' }, GM));
    s = fold(s, decide(s, { type: 'add-character', id: 'orc', sheet: sheet('Orc', 'foes') }, GM));
    s = fold(s, decide(s, { type: 'start' }, GM, { 'initiative:ann': [9], 'initiative:orc': [4] }));
    if (s.current !== 'ann') s = fold(s, decide(s, { type: 'end-turn' }, GM));
    // a Fumble (97, typed in) jams the Pistol; the hurry test (09, Ballistic 40: 4 DoS) makes the 2-Action Reload 1
    s = fold(s, decide(s, { type: 'attack', attacker: 'ann', defender: 'orc' }, P1, { attack: [97] }));
    s = fold(s, decide(s, { type: 'end-turn' }, GM));
    s = fold(s, decide(s, { type: 'end-turn' }, GM));
    const reload = decide(s, { type: 'reload', who: 'ann', hurry: 'ballistics' }, P1, { actor: [9] });
    expect(reload[0]).toMatchObject({ type: 'reloading', data: { total: 1, left: 0, hurry: { roll: 9 } } });
    expect(refusal(s, { type: 'reload', who: 'ann' }, P1, { actor: [9] })).toMatchObject({ code: 'dice-pool' }); // no hurry: no die to type in
    const resisted = decide(s, { type: 'inflict-ailment', target: 'orc', ailment: 'dizzy', resist: true }, GM, { 'target:orc': [12] });
    expect(resisted[0]).toMatchObject({ type: 'ailment-inflicted', data: { resistance: { score: 'toughness', roll: 12, success: true } } });
  });
});
