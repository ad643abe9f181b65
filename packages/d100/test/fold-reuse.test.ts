import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { evolveEncounter, initialEncounter, type EncounterState } from '../src';
import { decide } from './drive';

const scores = { melee: 50, ballistic: 40, magic: 45, strength: 30, toughness: 40, agility: 40, intelligence: 30, perception: 40, willpower: 30, fellowship: 30 };
const sheet = (name: string, side: string) => ({ name, side, scores, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 6 }] });

describe('folding the events a command was just decided into', () => {
  it('gives the state decide reached, the same as folding stored copies of them', () => {
    const dice = seededDice(4);
    let reused: EncounterState = initialEncounter();
    let stored: EncounterState = initialEncounter();
    const commands = [
      { type: 'add-character', id: 'ann', sheet: sheet('Ann', 'pc') },
      { type: 'add-character', id: 'orc', sheet: sheet('Orc', 'foes') },
      { type: 'start', tieOrder: ['ann', 'orc'] },
      ...Array.from({ length: 12 }, (_, i) => [{ type: 'attack', attacker: i % 2 ? 'orc' : 'ann', defender: i % 2 ? 'ann' : 'orc' }, { type: 'end-turn' }]).flat(),
    ];
    for (const command of commands) {
      let events;
      try {
        events = decide(reused, command, dice);
      } catch {
        continue;
      }
      const copies = JSON.parse(JSON.stringify(events)) as typeof events;
      reused = events.reduce(evolveEncounter, reused);
      stored = copies.reduce(evolveEncounter, stored);
      expect(JSON.stringify(reused)).toBe(JSON.stringify(stored));
    }
    expect(reused.round).toBeGreaterThan(1);
  });
});
