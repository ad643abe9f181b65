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

  it('the same with an attack repelled back on its attacker, a hit an ally protects, and a Burst Attack', () => {
    const dice = seededDice(9);
    const weapons = [
      { name: 'Agi', class: 'magic', element: 'fire', damage: 5 },
      { name: 'Gun', class: 'pistol', element: 'missile', damage: 4, burst: 2 },
    ];
    let reused: EncounterState = initialEncounter();
    let stored: EncounterState = initialEncounter();
    const seen = { repelled: 0, protectedBy: 0, burst: 0 };
    const play = (command: Record<string, unknown>) => {
      let events;
      try {
        events = decide(reused, command, dice);
      } catch {
        return;
      }
      for (const e of events) {
        if (e.type !== 'attack-resolved') continue;
        if (e.data.summary.repelled) seen.repelled++;
        if (e.data.summary.protectedBy) seen.protectedBy++;
        if (e.data.summary.burst) seen.burst++;
      }
      const copies = JSON.parse(JSON.stringify(events)) as typeof events;
      reused = events.reduce(evolveEncounter, reused);
      stored = copies.reduce(evolveEncounter, stored);
      expect(JSON.stringify(reused)).toBe(JSON.stringify(stored));
    };
    play({ type: 'add-character', id: 'ann', sheet: { ...sheet('Ann', 'pc'), weapons } });
    play({ type: 'add-character', id: 'bo', sheet: sheet('Bo', 'pc') });
    play({ type: 'add-character', id: 'orc', sheet: { ...sheet('Orc', 'foes'), affinities: { fire: 'repel' } } });
    play({ type: 'start', tieOrder: ['ann', 'bo', 'orc'] });
    let shots = 0;
    for (let turn = 0; turn < 30 && !reused.fighters.ann!.out && !reused.fighters.orc!.out; turn++) {
      const who = reused.current;
      if (who === 'ann') play(shots++ % 2 === 0 ? { type: 'attack', attacker: 'ann', defender: 'orc', weapon: 'Agi' } : { type: 'attack', attacker: 'ann', defender: 'orc', weapon: 'Gun', burst: [{ extraWound: 'orc' }, { extraWound: 'orc' }] });
      if (who === 'bo') play({ type: 'protect', who: 'bo', ally: 'ann' });
      if (who === 'orc') play({ type: 'attack', attacker: 'orc', defender: 'ann' });
      play({ type: 'end-turn' });
    }
    expect(seen.repelled).toBeGreaterThan(0);
    expect(seen.protectedBy).toBeGreaterThan(0);
    expect(seen.burst).toBeGreaterThan(0);
  });
});
