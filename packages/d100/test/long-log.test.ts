import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { seededDice } from '@personae/dice';
import { decideEncounter, encounterDecider, evolveEncounter, groupsOf, initialEncounter, viewEncounter, type EncounterCommand, type EncounterState } from '../src';

const GM: Actor = { role: 'gm', participantId: 'gm' };
const scores = { melee: 50, ballistic: 40, magic: 30, strength: 30, toughness: 40, agility: 50, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
const dice = seededDice(11);

function run(state: EncounterState, command: Record<string, unknown>): EncounterState {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideEncounter(state, parsed.command as EncounterCommand, { actor: GM, dice, now: '' }).reduce(evolveEncounter, state);
}

/** The same commands folded from the start, from their stored (JSON) events. */
const refolded = (s: EncounterState) => JSON.parse(JSON.stringify(groupsOf(s).flat())).reduce(evolveEncounter, initialEncounter('seed', { rerollKeeps: 'second' })) as EncounterState;
const seen = (s: EncounterState) => JSON.stringify(viewEncounter(s, GM));

describe('a long encounter log: undo keeps its meaning without folding everything again', () => {
  it('taking back commands one by one past many checkpoints gives the state those commands fold into', () => {
    let s = run(initialEncounter(), { type: 'set-options', options: { rerollKeeps: 'second' } });
    s = run(s, { type: 'add-character', id: 'a', sheet: { name: 'A', side: 'pc', realisation: 30, scores, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] } });
    s = run(s, { type: 'add-character', id: 'b', sheet: { name: 'B', kind: 'shadow', side: 'shadows', scores, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] } });
    s = run(s, { type: 'start' });
    const states: EncounterState[] = [];
    for (let i = 0; i < 150; i++) {
      states.push(s);
      s = run(s, i % 3 === 2 ? { type: 'end-turn' } : { type: 'test', who: s.current!, score: 'agility', label: `test ${i}` });
    }
    expect(groupsOf(s).length).toBe(154);
    for (let i = 149; i >= 100; i--) {
      s = run(s, { type: 'undo', seen: s.seq });
      expect(seen(s)).toBe(seen(states[i]!));
      expect(seen(s)).toBe(seen(refolded(s)));
    }
    // A state copied without its shortcuts undoes the same way, folding from the start.
    const copied = structuredClone(s);
    expect(seen(run(copied, { type: 'undo', seen: copied.seq }))).toBe(seen(states[99]!));
    // A Fate Point Reroll of the test just made, far into the log, resolves it anew from the state before it.
    s = run(s, { type: 'test', who: 'a', score: 'agility', label: 'last' });
    const rerolled = run(s, { type: 'spend-fate', who: 'a', spend: 'reroll' });
    expect(groupsOf(rerolled).at(-1)![0]!.type).toBe('test-rerolled');
    expect(seen(rerolled)).toBe(seen(refolded(rerolled)));
    expect(seen(run(rerolled, { type: 'undo', seen: rerolled.seq }))).toBe(seen(s));
  });

  it('views kept up as the log grows equal views of the same log folded afresh, for the GM and for a player', () => {
    const player: Actor = { role: 'player', participantId: 'p1' };
    const weapons = [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }];
    let s = run(initialEncounter(), { type: 'set-options', options: { rerollKeeps: 'second' } });
    s = run(s, { type: 'add-character', id: 'a', sheet: { name: 'A', side: 'pc', scores, weapons } });
    s = run(s, { type: 'add-character', id: 'lurker', sheet: { name: 'Lurker', side: 'shadows', hidden: true, scores, weapons } });
    s = run(s, { type: 'add-character', id: 'b', sheet: { name: 'B', side: 'shadows', scores, weapons } });
    s = run(s, { type: 'start' });
    const view = (state: EncounterState, who: Actor) => JSON.stringify(viewEncounter(state, who));
    let hiddenEvents = 0;
    for (let i = 0; i < 120; i++) {
      const who = s.current!;
      s = run(s, i % 7 === 6 ? { type: 'undo', seen: s.seq } : i % 3 === 2 ? { type: 'end-turn' } : { type: 'test', who, score: 'agility', label: `test ${i}` });
      if (i % 2 === 0) {
        const fresh = refolded(s);
        expect(view(s, player)).toBe(view(fresh, player));
        expect(view(s, GM)).toBe(view(fresh, GM));
      }
      // The start of the encounter names the lurker too, but players are told it without the lurker.
      hiddenEvents = groupsOf(s).flat().filter((e) => e.type !== 'encounter-started' && JSON.stringify(e).includes('lurker')).length;
    }
    // The player's view leaves the hidden character's events out of both the log and the count.
    const shownToPlayer = viewEncounter(s, player);
    const shownToGm = viewEncounter(s, GM);
    expect(hiddenEvents).toBeGreaterThan(10);
    expect(shownToGm.log.length + shownToGm.logOmitted - (shownToPlayer.log.length + shownToPlayer.logOmitted)).toBe(hiddenEvents);
    expect(JSON.stringify(shownToPlayer.log)).not.toContain('lurker');
  });
});
