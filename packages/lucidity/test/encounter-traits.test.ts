import { describe, expect, it } from 'vitest';
import { logAt, type Actor } from '@personae/core';
import { seededDice } from '@personae/dice';
import { decideEncounter, evolveEncounter, initialEncounter, parseEncounterCommand, type LucidityCommandInput, type LucidityTableState } from '../src';
import { decideRecorded, parseRecorded } from './recorded';

const GM: Actor = { role: 'gm', participantId: 'gm' };

function apply(state: LucidityTableState, raw: LucidityCommandInput): LucidityTableState {
  const parsed = parseRecorded(raw);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideRecorded(state, parsed.command, { actor: GM, dice: seededDice(3), now: '2026-01-01T00:00:00Z' }).reduce(evolveEncounter, state);
}

/** Two fighters, "a" (first in initiative) and "b", with the traits given. */
function duel(aTraits: string[], bTraits: string[] = [], b: Record<string, unknown> = {}, a: Record<string, unknown> = {}): LucidityTableState {
  let s = initialEncounter();
  s = apply(s, { type: 'add', id: 'a', side: 'party', statBlock: { name: 'A', traits: aTraits, health: 10, lucidity: 14, attributes: { STR: 1, CON: 1, WIL: 0 }, weapons: [{ name: 'Axe', damage: '1d8' }], ...a } });
  s = apply(s, { type: 'add', id: 'b', side: 'foe', statBlock: { name: 'B', traits: bTraits, health: 20, defense: 10, protection: 0, weapons: [{ name: 'Spear', damage: '1d6' }], ...b } });
  return apply(s, { type: 'start', dice: { a: 20, b: 1 } });
}

const last = (s: LucidityTableState) => logAt(s.log, -1)!;

describe('traits at the table ("Creating Traits")', () => {
  it('Helpful/Harmful: Help gives 2 buffs', () => {
    const s = apply(duel(['Helpful/Harmful']), { type: 'help', actor: 'a', target: 'a', kind: 'buff' });
    expect(s.game.combatants.a!.pendingBuffs).toBe(2);
  });
  it('Shuffle: 5 ft free, once per turn', () => {
    const s = apply(duel(['Shuffle']), { type: 'move', actor: 'a', shuffle: true });
    expect(s.game.combatants.a).toMatchObject({ actions: 2, moveAction: true });
    expect(() => apply(s, { type: 'move', actor: 'a', shuffle: true })).toThrow(/once per turn/);
  });
  it('Shieldbreaker ignores the shield: d20 12 + 1 = 13 against 10, Penetration 3; armour 2 + shield 4', () => {
    const b = { protection: 2, shieldProtection: 4 };
    // without: Protection 6 - 3 = 3 against damage 5: 2 taken; with Shieldbreaker: 2 - 3 -> 0: all 5
    expect((last(apply(duel([], [], b), { type: 'attack', actor: 'a', target: 'b', d20: 12, damageDice: [5] })) as { data: { damageTaken: number } }).data.damageTaken).toBe(2);
    expect((last(apply(duel(['Shieldbreaker'], [], b), { type: 'attack', actor: 'a', target: 'b', d20: 12, damageDice: [5] })) as { data: { damageTaken: number } }).data.damageTaken).toBe(5);
  });
  it('Adrenaline Rush: after 10 damage in a turn, +6 Protection', () => {
    let s = duel([], ['Adrenaline Rush']);
    s = apply(s, { type: 'damage', target: 'b', amount: 10 });
    expect(s.game.combatants.b!.adrenalineUntil).toBeGreaterThan(0);
    // d20 12 + 1 = 13 against 10: Penetration 3, Protection 6 - 3 = 3 against 5: 2 taken
    s = apply(s, { type: 'attack', actor: 'a', target: 'b', d20: 12, damageDice: [5] });
    expect((last(s) as { data: { damageTaken: number } }).data.damageTaken).toBe(2);
  });
  it('Mental Clarity: no breaks on a WIL skill roll; without it the break die counts', () => {
    const roll: LucidityCommandInput = { type: 'roll', actor: 'a', attribute: 'WIL', skill: 'Faith', target: 5, d20: 8, breakDice: [6] };
    expect((last(apply(duel(['Mental Clarity']), roll)) as { data: { roll: { total: number } } }).data.roll.total).toBe(8);
    expect((last(apply(duel([]), roll)) as { data: { roll: { total: number } } }).data.roll.total).toBe(2);
  });
  it('Fellowship: a buff on WIL rolls for its group (its die given here)', () => {
    const s = apply(duel(['Fellowship']), { type: 'roll', actor: 'a', attribute: 'WIL', target: 5, d20: 8, buffs: 0, buffDice: [4] });
    expect((last(s) as { data: { roll: { total: number } } }).data.roll.total).toBe(12);
  });
  it('Rescuer: a successful rescue Lucidity roll costs nothing; without it, 1', () => {
    const r: LucidityCommandInput = { type: 'lucidity-roll', actor: 'a', purpose: 'rescue', d20: 3 };
    expect(apply(duel(['Rescuer']), r).game.combatants.a!.lucidity).toBe(14);
    expect(apply(duel([]), r).game.combatants.a!.lucidity).toBe(13);
  });
  it("Fate's Gamble at 0 Health: two successes give 1 Health and cost 2 Lucidity", () => {
    let s = apply(duel(["Fate's Gamble"]), { type: 'damage', target: 'a', amount: 10 });
    s = apply(s, { type: 'lucidity-roll', actor: 'a', purpose: 'fates-gamble', attribute: 'CON', d20: 5, d20Second: 6 });
    expect(s.game.combatants.a).toMatchObject({ health: 1, lucidity: 12 });
    expect(() => apply(duel(["Fate's Gamble"]), { type: 'lucidity-roll', actor: 'a', purpose: 'fates-gamble' })).toThrow(/is for 0 Health/);
  });
  it('major exploits are for player characters by default (C5)', () => {
    expect(() => apply(duel([]), { type: 'lucidity-roll', actor: 'b', purpose: 'major-exploit' })).toThrow(/majorExploits=pcs-only/);
  });
});

describe('"Creating Traits": Healthy Living reaches the companions', () => {
  const block = (name: string, traits: string[] = []) => ({ name, traits, health: 10 });
  it('a newcomer with Healthy Living gives each companion on its side 5 Max Health and 5 Health, not the other side', () => {
    let s = initialEncounter();
    s = apply(s, { type: 'add', id: 'a', side: 'party', statBlock: block('A') });
    s = apply(s, { type: 'add', id: 'f', side: 'foe', statBlock: block('F') });
    s = apply(s, { type: 'add', id: 'h', side: 'party', statBlock: block('H', ['Healthy Living']) });
    expect(s.game.combatants.a).toMatchObject({ maxHealth: 15, health: 15 });
    expect(s.game.combatants.f).toMatchObject({ maxHealth: 10, health: 10 });
    // A later companion joins with the 5 already; a second Healthy Living adds nothing more.
    s = apply(s, { type: 'add', id: 'b', side: 'party', statBlock: block('B') });
    expect(s.game.combatants.b).toMatchObject({ maxHealth: 15, health: 15 });
    s = apply(s, { type: 'add', id: 'h2', side: 'party', statBlock: block('H2', ['Healthy Living']) });
    expect(s.game.combatants.a!.maxHealth).toBe(15);
  });
  it('undo takes the companions\' 5 back with the newcomer', () => {
    let s = initialEncounter();
    s = apply(s, { type: 'add', id: 'a', side: 'party', statBlock: block('A') });
    s = apply(s, { type: 'add', id: 'h', side: 'party', statBlock: block('H', ['Healthy Living']) });
    s = apply(s, { type: 'undo', seen: s.log.length });
    expect(s.game.combatants.a!.maxHealth).toBe(10);
  });
});
