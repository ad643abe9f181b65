import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { initialEncounter, type EncounterState } from '../src';
import { refusal, run } from './drive';

/**
 * "One More" and "Baton Pass" (d100-combat-rules.txt): a One More is one extra Move or Action, and a
 * Baton Pass hands it to an ally, who then acts out of turn. The receiver's player spends it on any
 * Action (Defend and Protect too, naming the receiver), and nobody else acts out of turn with it.
 */
const P1: Actor = { role: 'player', participantId: 'p1' };
const P2: Actor = { role: 'player', participantId: 'p2' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };

/** A (p1, Agility Bonus 3) acts first, then B (the GM's, weak to Fire), then C (p2, Bonus 1), A's Confidant at rank 4. */
function table(): EncounterState {
  let s = run(initialEncounter(), { type: 'add-character', id: 'a', controller: 'p1', sheet: { name: 'A', side: 'pc', scores: base, socialLinks: { C: 4 }, weapons: [{ name: 'Agi', class: 'magic', element: 'fire', damage: 4 }] } });
  s = run(s, { type: 'add-character', id: 'b', sheet: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 20 }, affinities: { fire: 'weak' }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] } });
  s = run(s, { type: 'add-character', id: 'c', controller: 'p2', sheet: { name: 'C', side: 'pc', scores: { ...base, agility: 10, perception: 10 }, weapons: [{ name: 'Bow', class: 'basic', element: 'missile', damage: 4 }] } });
  return run(s, { type: 'start' });
}
/** A's Agi on B's weakness (Magic 40 rolls 30, B's evasion 90, the body 50): B is Staggered, A gains a One More and passes it to C. */
function passedToC(): EncounterState {
  const staggered = run(table(), { type: 'attack', attacker: 'a', defender: 'b' }, [30, 90, 50], P1);
  expect(staggered.oneMore?.holder).toBe('a');
  return run(staggered, { type: 'baton-pass', to: 'c' }, [], P1);
}

describe('a One More holder acting out of turn ("One More", "Baton Pass")', () => {
  it("the receiver's player Defends with it, naming the receiver; the One More is spent", () => {
    const s = run(passedToC(), { type: 'defend', who: 'c' }, [], P2);
    expect(s.fighters.c!.conditions.defending).toBe(true);
    expect(s.oneMore).toBe(null);
    expect(s.current).toBe('a');
  });

  it('or Protects an ally with it', () => {
    const s = run(passedToC(), { type: 'protect', who: 'c', ally: 'a' }, [], P2);
    expect(s.fighters.c!.conditions.protecting).toBe('a');
    expect(s.oneMore).toBe(null);
  });

  it("a Defend without a name is the acting character's, which the receiver's player does not play", () => {
    expect(refusal(passedToC(), { type: 'defend' }, [], P2)).toMatchObject({ code: 'not-your-character', field: 'type' });
  });

  it('nobody else acts out of turn: not without a One More, not once it is spent, not for another player', () => {
    expect(refusal(table(), { type: 'defend', who: 'c' }, [], P2)).toMatchObject({ code: 'not-your-turn', field: 'who' });
    const spent = run(passedToC(), { type: 'defend', who: 'c' }, [], P2);
    expect(refusal(spent, { type: 'protect', who: 'c', ally: 'a' }, [], P2)).toMatchObject({ code: 'not-your-turn', field: 'who' });
    expect(refusal(passedToC(), { type: 'defend', who: 'c' }, [], P1)).toMatchObject({ code: 'not-your-character', field: 'who' });
  });
});
