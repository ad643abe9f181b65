import { describe, expect, it } from 'vitest';
import { newCharacterId } from '@personae/core';
import { idFromName, newIdFor } from '../src/rulesets/ids';

describe('the id a page asks for a new character', () => {
  const gm = { role: 'gm' as const, participantId: 'p_gm' };
  const ken = { role: 'player' as const, participantId: 'p_ken' };
  it('is made from the name, without a random ending', () => {
    expect(idFromName('Junpei Iori')).toBe('junpei-iori');
    expect(idFromName('  ')).toBe('character');
    expect(newIdFor(gm, 'Maya', [])).toBe('maya');
  });
  it('counts on only where the id the server gives (a player\'s in their seat\'s space) is already seen', () => {
    // the GM's Maya does not take the id of a player's Maya: the server puts the player's in the seat
    expect(newIdFor(ken, 'Maya', [{ id: 'maya' }])).toBe('maya');
    const first = newCharacterId(ken, 'maya');
    expect(newIdFor(ken, 'Maya', [{ id: 'maya' }, { id: first }])).toBe('maya-2');
    expect(newIdFor(gm, 'Maya', [{ id: 'maya' }, { id: 'maya-2' }, { id: first }])).toBe('maya-3');
  });
  it('counts on past an id the ruleset reserves, for the GM and for a player', () => {
    // d100 tells players "hidden" in place of a hidden character's id, so no character may take it
    expect(newIdFor(gm, 'Hidden', [], ['hidden'])).toBe('hidden-2');
    expect(newIdFor(ken, 'Hidden', [], ['hidden'])).toBe('hidden-2');
    expect(newIdFor(gm, 'Hidden', [{ id: 'hidden-2' }], ['hidden'])).toBe('hidden-3');
    expect(newIdFor(gm, 'Hidden', [])).toBe('hidden');
  });
});
