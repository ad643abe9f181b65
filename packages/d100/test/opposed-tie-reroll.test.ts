import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { givenDice, seededDice } from '@personae/dice';
import {
  attackOdds, decideEncounter, describeD100Event, encounterDecider, evolveEncounter, groupsOf, initialEncounter, makeFighter, resolveAttack, resolveOpposed, resolveOptions, resolveTest, TIE_REROLLS,
  type AttackSpec, type EncounterCommand, type EncounterEvent, type EncounterState,
} from '../src';

// Option opposedTie=reroll (inventory U5): equal degrees send both sides to roll again until one wins.
const given = (values: number[]) => {
  const d = givenDice(values);
  return { actor: () => d.die(100), reactor: () => d.die(100) };
};

describe('resolveOpposed under opposedTie=reroll', () => {
  const reroll = resolveOptions('seed', { opposedTie: 'reroll' });
  it('rolls both again until the tie breaks, keeping every pair; the first tests stand', () => {
    // 32 and 33 against 45: one degree each, equal targets
    const o = resolveOpposed(resolveTest(45, 32), resolveTest(45, 33), reroll, given([30, 31, 20, 40]));
    expect(o).toMatchObject({ actorWins: true, decidedBy: 'reroll', tieRolls: [{ actor: 30, reactor: 31 }, { actor: 20, reactor: 40 }] });
    expect(o.actor.roll).toBe(32);
    expect(o.reactor!.roll).toBe(33);
  });
  it('an actor failing the roll made again loses, as in any opposed test', () => {
    expect(resolveOpposed(resolveTest(45, 32), resolveTest(45, 33), reroll, given([60, 10])).actorWins).toBe(false);
  });
  it(`bounded: still tied after ${TIE_REROLLS} pairs, the reactor keeps it`, () => {
    const o = resolveOpposed(resolveTest(45, 32), resolveTest(45, 33), reroll, given(Array(40).fill(35)));
    expect(o).toMatchObject({ actorWins: false, decidedBy: 'tie' });
    expect(o.tieRolls).toHaveLength(TIE_REROLLS);
  });
  it('no roll again when degrees differ, and none without dice', () => {
    expect(resolveOpposed(resolveTest(45, 22), resolveTest(45, 33), reroll, given([])).tieRolls).toBeUndefined();
    expect(resolveOpposed(resolveTest(45, 32), resolveTest(45, 33), reroll)).toMatchObject({ actorWins: false, decidedBy: 'tie' });
  });
});

const GM: Actor = { role: 'gm', participantId: 'gm' };
const base = { melee: 50, ballistic: 40, magic: 30, strength: 30, toughness: 40, agility: 40, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
const sheets = {
  a: { name: 'A', side: 'pc', scores: { ...base, agility: 50 }, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, melee: 40, toughness: 30 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
};
function decide(state: EncounterState, command: Record<string, unknown>, dice: number[]): EncounterEvent[] {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideEncounter(state, parsed.command as EncounterCommand, { actor: GM, dice: givenDice(dice), now: '' });
}
const run = (s: EncounterState, c: Record<string, unknown>, dice: number[] = []) => decide(s, c, dice).reduce(evolveEncounter, s);
function table(options: Record<string, unknown>): EncounterState {
  let s = run(initialEncounter(), { type: 'set-options', options });
  for (const [id, sheet] of Object.entries(sheets)) s = run(s, { type: 'add-character', id, sheet });
  return run(s, { type: 'start' });
}
const lastEvent = (s: EncounterState): EncounterEvent => groupsOf(s).at(-1)!.at(-1)!;

describe('an attack at the table under opposedTie=reroll (pinned dice)', () => {
  // A's Melee 50 rolls 32 (2 DoS); B's evasion 40 rolls 21 (2 DoS): a tie of degrees
  it('the default gives the tie to the higher target (A hits); reroll rolls again: 45 against 12, B wins', () => {
    const byTarget = lastEvent(run(table({}), { type: 'attack', attacker: 'a', defender: 'b' }, [32, 21, 50]));
    expect(byTarget.type === 'attack-resolved' && byTarget.data.summary.hit).toBe(true);
    const s = run(table({ opposedTie: 'reroll' }), { type: 'attack', attacker: 'a', defender: 'b' }, [32, 21, 45, 12]);
    const e = lastEvent(s);
    if (e.type !== 'attack-resolved') throw new Error(e.type);
    expect(e.data.summary).toMatchObject({ hit: false, roll: 32, evasionRoll: 21, tieRolls: [{ actor: 45, reactor: 12 }] });
    expect(e.data.dice).toEqual([32, 21, 45, 12]);
    expect(describeD100Event(e, (id) => id.toUpperCase())).toBe('A attacks B: roll 32, evasion 21; a tie of equal degrees, rolled again: 45 against 12: miss');
  });
  it('a second tie rolls again; the hit then takes its damage from the first tests (degrees equal, so none added)', () => {
    const s = run(table({ opposedTie: 'reroll' }), { type: 'attack', attacker: 'a', defender: 'b' }, [32, 21, 38, 27, 15, 60, 50]);
    const e = lastEvent(s);
    if (e.type !== 'attack-resolved') throw new Error(e.type);
    expect(e.data.summary).toMatchObject({ hit: true, location: 'body', tieRolls: [{ actor: 38, reactor: 27 }, { actor: 15, reactor: 60 }] });
    const noTie = lastEvent(run(table({}), { type: 'attack', attacker: 'a', defender: 'b' }, [32, 21, 50]));
    expect(noTie.type === 'attack-resolved' && noTie.data.summary.damage).toBe(e.data.summary.damage);
  });
  it('a grapple tie is rolled again from the same pools and logged', () => {
    const s = run(table({ opposedTie: 'reroll' }), { type: 'grapple', attacker: 'a', defender: 'b' }, [32, 21, 20, 70]);
    const e = lastEvent(s);
    if (e.type !== 'grapple-resolved') throw new Error(e.type);
    expect(e.data).toMatchObject({ won: true, tieRolls: [{ actor: 20, reactor: 70 }] });
    expect(describeD100Event(e, (id) => id.toUpperCase())).toContain('rolled again: 20 against 70: grappled');
  });
});

describe('exact odds count the ties rolled again', () => {
  const scores = { melee: 45, ballistic: 40, magic: 50, strength: 35, toughness: 40, agility: 30, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
  const a = makeFighter({ id: 'a', scores });
  const d = makeFighter({ id: 'd', side: 'e', scores, armour: { body: 2 } });
  const sword: AttackSpec = { kind: 'melee', element: 'melee', damage: 5, attackTarget: 45, evasionTarget: 45 };
  const options = resolveOptions('seed', { opposedTie: 'reroll' });
  const odds = attackOdds(a, d, sword, options);
  it('hit = first win + tie x (win of a pair, over the bounded run of ties), counted by brute force', () => {
    let first = 0, tie = 0, pairWin = 0, pairTie = 0;
    const r = { opposedTie: 'reactor' as const };
    for (let x = 1; x <= 100; x++) for (let y = 1; y <= 100; y++) {
      const o = resolveOpposed(resolveTest(45, x), resolveTest(45, y), r);
      if (o.actorWins) pairWin++;
      if (o.decidedBy === 'tie') pairTie++;
      if (x >= 96) continue; // a Fumble misses before any evasion
      if (o.actorWins) first++;
      if (o.decidedBy === 'tie') tie++;
    }
    const pw = pairWin / 10000, pt = pairTie / 10000;
    let after = 0;
    for (let k = 0; k < TIE_REROLLS; k++) after += pt ** k * pw;
    expect(odds.hit).toBeCloseTo(first / 10000 + (tie / 10000) * after, 12);
    expect(odds.hit).toBeGreaterThan(attackOdds(a, d, sword, resolveOptions('seed', {})).hit);
    expect(Object.values(odds.wounds).reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
  });
  it('agrees with 20,000 seeded attacks within 0.015', () => {
    const dice = seededDice(7);
    let hits = 0;
    for (let i = 0; i < 20000; i++) if (resolveAttack(a, d, sword, dice, options).hit) hits++;
    expect(Math.abs(hits / 20000 - odds.hit)).toBeLessThan(0.015);
  });
});
