import { describe, expect, it } from 'vitest';
import { audienceChecks, fenced, gmStep, type Step } from '../../core/test/audiences';
import { lucidityRuleset } from '../src';

/**
 * The audiences of a Lucidity table (the viewers the server builds one view for): any two viewers
 * given the same audience are shown equal views, and the audience is told without reading the log,
 * the undo marks or the secret rolls.
 */
type State = ReturnType<ReturnType<NonNullable<typeof lucidityRuleset.table>>['initialState']>;

const KINDS = ['add', 'add', 'controller', 'reveal', 'start', 'attack', 'attack', 'roll', 'end-turn', 'undo', 'redo', 'reveal-roll'] as const;
type Kind = (typeof KINDS)[number];

const block = (name: string) => ({ name, attributes: { STR: 1, DEX: 1, AWA: 1 }, defense: 11, protection: 1, health: 12, weapons: [{ name: 'Club', damage: '1d6' }] });

function command(s: Step<Kind>): Record<string, unknown> {
  switch (s.kind) {
    case 'add':
      return { type: 'add', id: s.a, side: s.flag ? 'party' : 'foe', hidden: s.flag2, controller: s.who, statBlock: block(s.a.toUpperCase()) };
    case 'controller':
      return { type: 'set-controller', id: s.a, controller: s.who };
    case 'reveal':
      return { type: 'reveal', id: s.a };
    case 'attack':
      return { type: 'attack', actor: s.a, target: s.b };
    case 'roll':
      return { type: 'roll', actor: s.a, attribute: 'AWA', ...(s.flag ? { against: { id: s.b, attribute: 'DEX' } } : {}) };
    default:
      return { type: s.kind };
  }
}

const { audience, audienceOf, expectSharedViewsEqual, play, checkRandomTables } = audienceChecks<State, Kind>(lucidityRuleset.table!({}), command);

describe('audiences of a Lucidity table', () => {
  it('a player is apart from the others while controlling a foe everyone sees; the GMs share one view', () => {
    // a: a foe p1 controls; b: p2's party member; c: a hidden foe p3 controls; d: the GM's foe.
    const steps = [gmStep('add', 'a', 'p1', false, false), gmStep('add', 'b', 'p2', true, false), gmStep('add', 'c', 'p3', false, true), gmStep('add', 'd', null, false, false)];
    let s = play(steps);
    expect(audienceOf(s, 'gm')).toBe(audienceOf(s, 'gm2'));
    expect(audienceOf(s, 'p1')).not.toBe(audienceOf(s, 'p2'));
    // Everyone is shown the party whole, and no player sees a hidden combatant.
    expect(audienceOf(s, 'p2')).toBe(audienceOf(s, 'p3'));
    expect(audienceOf(s, 'p2')).toBe(audienceOf(s, 'observer'));
    // The view reads the controller, not the role: an observer under p1's id is shown what p1 is.
    expect(audience(s, { role: 'observer', participantId: 'p1' })).toBe(audienceOf(s, 'p1'));
    expectSharedViewsEqual(s);
    // Revealed, the hidden foe is shown whole to p3 alone.
    s = play([...steps, gmStep('reveal', 'c', null, false, false)]);
    expect(audienceOf(s, 'p3')).not.toBe(audienceOf(s, 'p2'));
    expectSharedViewsEqual(s);
  });

  it('for random tables, viewers in one audience are shown equal views, and the audience reads neither the log nor the secret rolls', () => {
    checkRandomTables(KINDS, (state) => fenced({ ...state, game: fenced(state.game, ['log', 'marks', 'inEffect', 'redoable']) }, ['log', 'sealed', 'tallies', 'seq']));
  });
});
