import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { seededDice } from '@personae/dice';
import { decideEncounter, encounterDecider, evolveEncounter, initialEncounter, parseD100Scenario, runD100Scenario, WITHHELD, type EncounterCommand, type EncounterState } from '../src';

const GM: Actor = { role: 'gm', participantId: 'gm' };
const P1: Actor = { role: 'player', participantId: 'p1' };
const scores = { melee: 50, ballistic: 40, magic: 30, strength: 30, toughness: 40, agility: 50, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
const sheet = (name: string, side: string, extra: Record<string, unknown> = {}) => ({ name, side, scores, weapons: [{ name: 'SMG', class: 'basic', element: 'missile', damage: 4, burst: 2 }], ...extra });

function decide(state: EncounterState, command: Record<string, unknown>, actor: Actor) {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideEncounter(state, parsed.command as EncounterCommand, { actor, dice: seededDice(3), now: '' });
}
const run = (state: EncounterState, command: Record<string, unknown>, actor: Actor = GM) => decide(state, command, actor).reduce(evolveEncounter, state);
/** The refusal as the player receives it (code, field and message), or 'accepted'. */
function answer(state: EncounterState, command: Record<string, unknown>, actor: Actor = P1) {
  try {
    decide(state, command, actor);
    return 'accepted';
  } catch (e) {
    const r = e as { code: string; field?: string; message: string };
    return { code: r.code, field: r.field, message: r.message };
  }
}

function table(): EncounterState {
  let s = run(initialEncounter(), { type: 'add-character', id: 'ann', sheet: sheet('Ann', 'pc'), controller: 'p1' });
  s = run(s, { type: 'add-character', id: 'orc', sheet: sheet('Orc', 'foes') });
  return run(s, { type: 'add-character', id: 'lurker', sheet: sheet('Lurker', 'foes', { hidden: true }) });
}

describe('ids a player may not use give nothing away about hidden characters', () => {
  it("a player's new character gets an id in their seat's space: a hidden character's id, a visible one's and a free one are answered alike", () => {
    const s = table();
    const added = (id: string) => JSON.stringify(decide(s, { type: 'add-character', id, sheet: sheet('Bea', 'pc') }, P1)).replaceAll(id, 'ID');
    expect(added('lurker')).toBe(added('orc'));
    expect(added('lurker')).toBe(added('free'));
    expect(decide(s, { type: 'add-character', id: 'lurker', sheet: sheet('Bea', 'pc') }, P1)[0]!.data).toMatchObject({ id: 'p1:lurker', controller: 'p1' });
    // Only a character from the player's own seat can hold an id in it.
    const withBea = run(s, { type: 'add-character', id: 'bea', sheet: sheet('Bea', 'pc') }, P1);
    expect(answer(withBea, { type: 'add-character', id: 'bea', sheet: sheet('Bea', 'pc') })).toEqual({ code: 'duplicate-character', field: 'id', message: 'id: "p1:bea" is already in the encounter' });
    expect(answer(withBea, { type: 'attack', attacker: 'p1:bea', defender: 'orc' })).not.toMatchObject({ code: 'unknown-character' });
    // No one chooses an id in a seat's space.
    expect(answer(s, { type: 'add-character', id: 'p1:x', sheet: sheet('Bea', 'pc') }, GM)).toMatchObject({ code: 'bad-id', field: 'id' });
    expect(answer(s, { type: 'add-character', id: 'p2:x', sheet: sheet('Bea', 'pc') })).toMatchObject({ code: 'bad-id', field: 'id' });
    // The GM is told plainly.
    expect(answer(s, { type: 'add-character', id: 'lurker', sheet: sheet('Bea', 'pc') }, GM)).toMatchObject({ code: 'duplicate-character' });
  });
  it('a Burst Attack naming a hidden character among its targets is answered as one naming nobody', () => {
    const s = run(table(), { type: 'start', tieOrder: ['ann', 'orc', 'lurker'] });
    const attack = (burst: unknown[]) => ({ type: 'attack', attacker: 'ann', defender: 'orc', weapon: 'SMG', burst });
    for (const key of ['extraTarget', 'extraWound']) {
      const hidden = answer(s, attack([{ [key]: 'lurker' }]));
      const nobody = answer(s, attack([{ [key]: 'nobody' }]));
      expect(hidden).toEqual({ code: 'unknown-character', field: `burst.0.${key}`, message: `burst.0.${key}: no character "lurker" in this encounter` });
      expect(JSON.stringify(nobody).replaceAll('nobody', 'lurker')).toBe(JSON.stringify(hidden));
    }
  });
});

describe('the id players are told in place of a hidden character is no character\'s', () => {
  it('a new character asked for with that id is refused, naming the field, the id and why, from the GM or a player', () => {
    const refused = encounterDecider.parseCommand({ type: 'add-character', id: WITHHELD, sheet: sheet('Hid', 'foes') });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error).toMatchObject({ code: 'bad-command', field: 'id' });
    expect(refused.error.message).toMatch(/^id: "hidden" is reserved: players are shown it in place of a hidden character's id/);
    // the same command from a player is refused before it reaches the table, like the GM's
    expect(encounterDecider.parseCommand({ type: 'add-character', id: WITHHELD, sheet: sheet('Hid', 'pc'), controller: 'p1' }).ok).toBe(false);
    // a longer id holding the word is an id like any other
    for (const id of ['hidden-2', 'Hidden', 'the-hidden']) expect(run(table(), { type: 'add-character', id, sheet: sheet('Hid', 'foes') }).fighters[id]).toBeDefined();
  });

  it('a scenario naming a character so stops there with the same answer', () => {
    const scenario = parseD100Scenario(JSON.stringify({ ruleset: 'd100', characters: { ann: { inline: sheet('Ann', 'pc') }, [WITHHELD]: { inline: sheet('Hid', 'foes') } } }), 'reserved.json');
    const r = runD100Scenario(scenario, () => null, seededDice(1));
    expect(r.error).toMatchObject({ code: 'bad-command', field: 'id', message: expect.stringContaining('"hidden" is reserved') });
    expect(Object.keys(r.state.fighters)).toEqual(['ann']);
  });
});
