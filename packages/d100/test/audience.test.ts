import { describe, expect, it } from 'vitest';
import { audienceChecks, fenced, type Step } from '../../core/test/audiences';
import { d100Ruleset } from '../src';

/**
 * The audiences of a d100 table (the viewers the server builds one view for): any two viewers given
 * the same audience are shown equal views, and the audience is told without reading the log or the
 * secret rolls.
 */
type State = ReturnType<ReturnType<NonNullable<typeof d100Ruleset.table>>['initialState']>;

const KINDS = ['add', 'add', 'controller', 'options', 'start', 'attack', 'attack', 'test', 'analyse', 'end-turn', 'undo', 'reveal'] as const;
type Kind = (typeof KINDS)[number];

const scores = { melee: 50, ballistic: 40, magic: 45, strength: 30, toughness: 40, agility: 40, intelligence: 30, perception: 40, willpower: 30, fellowship: 30 };
const weapons = [
  { name: 'Sword', class: 'melee', element: 'melee', damage: 5 },
  { name: 'Zio', class: 'magic', element: 'elec', damage: 4 },
];
/** A party member with a Persona, or a Shadow with an Arcana and Unnatural Toughness: each with affinities. */
function sheet(name: string, pc: boolean, hidden: boolean) {
  const common = { name, scores, weapons, arcanaLevel: 7, affinities: { elec: 'weak', fire: 'resist' }, ...(hidden ? { hidden: true } : {}) };
  return pc ? { ...common, side: 'pc', persona: { name: `${name}'s Persona`, wounds: 3, affinities: { wind: 'weak' } } } : { ...common, side: 'shadows', kind: 'shadow', arcana: 'Tower', unnaturalToughness: 1 };
}

function command(s: Step<Kind>): Record<string, unknown> {
  switch (s.kind) {
    case 'add':
      return { type: 'add-character', id: s.a, sheet: sheet(s.a.toUpperCase(), s.flag, s.flag2), controller: s.who };
    case 'controller':
      return { type: 'set-controller', id: s.a, controller: s.who };
    case 'options':
      return { type: 'set-options', preset: 'seed', options: { affinityReveal: s.flag ? 'open' : 'analyse-or-struck', detailsReveal: s.flag2 ? 'open' : 'advanced-analyse' } };
    case 'start':
      return { type: 'start', tieOrder: ['a', 'b', 'c', 'd', 'e'] };
    case 'attack':
      return { type: 'attack', attacker: s.a, defender: s.b, weapon: s.flag ? 'Zio' : 'Sword' };
    case 'test':
      return { type: 'test', who: s.a, score: 'perception' };
    case 'analyse':
      return { type: 'analyse', who: s.a, target: s.b, advanced: s.flag };
    case 'reveal':
      return { type: 'reveal-roll' };
    default:
      return { type: s.kind };
  }
}

const { audience, audienceOf, expectSharedViewsEqual, play, checkRandomTables } = audienceChecks<State, Kind>(d100Ruleset.table!({}), command);
const gmStep = (kind: Kind, a: Step<Kind>['a'], who: Step<Kind>['who'], flag: boolean, flag2: boolean): Step<Kind> => ({ kind, seat: 0, a, b: 'a', who, flag, flag2 });

describe('audiences of a d100 table', () => {
  it('a player is apart from the others while shown more of a character they control than they are; the GMs share one view', () => {
    // a: a Shadow p1 controls; b: p2's party member; c: the GM's hidden Shadow.
    const steps = [gmStep('add', 'a', 'p1', false, false), gmStep('add', 'b', 'p2', true, false), gmStep('add', 'c', null, false, true)];
    let s = play(steps);
    expect(audienceOf(s, 'gm')).toBe(audienceOf(s, 'gm2'));
    expect(audienceOf(s, 'p1')).not.toBe(audienceOf(s, 'p2'));
    // Everyone is shown the party whole: p2 shares the observers' view, an observer under p1's id too.
    expect(audienceOf(s, 'p2')).toBe(audienceOf(s, 'p3'));
    expect(audienceOf(s, 'p2')).toBe(audienceOf(s, 'observer'));
    expect(audience(s, { role: 'observer', participantId: 'p1' })).toBe(audienceOf(s, 'observer'));
    expectSharedViewsEqual(s);
    // Once every affinity and detail is open to all, p1 is shown no more than anyone.
    s = play([...steps, gmStep('options', 'a', null, true, true)]);
    expect(audienceOf(s, 'p1')).toBe(audienceOf(s, 'p2'));
    expectSharedViewsEqual(s);
  });

  it('for random tables, viewers in one audience are shown equal views, and the audience reads neither the log nor the secret rolls', () => {
    checkRandomTables(KINDS, (state) => fenced({ ...state, game: fenced(state.game, ['groups', 'seq']) }, ['log', 'sealed', 'tallies', 'seq']));
  });
});
