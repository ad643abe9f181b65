import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { audienceChecks, fenced, gmStep, SEATS, stepOf, type Step } from '../../core/test/audiences';
import { d100Ruleset, groupsOf, redactD100Event, UNKNOWN_NUMBER_FIELDS, type EncounterEvent, type ShownEncounterEvent } from '../src';

/**
 * The audiences of a d100 table (the viewers the server builds one view for): any two viewers given
 * the same audience are shown equal views, and the audience is told without reading the log or the
 * secret rolls.
 */
type State = ReturnType<ReturnType<NonNullable<typeof d100Ruleset.table>>['initialState']>;

const KINDS = ['add', 'add', 'controller', 'options', 'start', 'attack', 'attack', 'test', 'distract', 'analyse', 'end-turn', 'undo', 'reveal'] as const;
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
    case 'distract':
      return { type: 'distract', who: s.a, target: s.b };
    case 'analyse':
      return { type: 'analyse', who: s.a, target: s.b, advanced: s.flag };
    case 'reveal':
      return { type: 'reveal-roll' };
    default:
      return { type: s.kind };
  }
}

const { audience, audienceOf, expectSharedViewsEqual, play, checkRandomTables } = audienceChecks<State, Kind>(d100Ruleset.table!({}), command);

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

type Of<E, T> = Extract<E, { type: T }> extends { readonly data: infer D } ? D : never;

/**
 * Where a viewer's copy of an event holds something other than the number the event holds, it holds
 * null under a field UNKNOWN_NUMBER_FIELDS names, which ShownEncounterEvent types `number | null`.
 * Returns how many such nulls it met.
 */
function expectNullsDeclared(whole: unknown, shown: unknown, field = ''): number {
  if (typeof whole === 'number') {
    if (shown === whole) return 0;
    expect(shown, `${field}: ${whole} is sent as ${JSON.stringify(shown)}`).toBeNull();
    expect(UNKNOWN_NUMBER_FIELDS, `${field} is sent as null but typed a number`).toContain(field);
    return 1;
  }
  if (whole === null || typeof whole !== 'object') {
    expect(shown).toEqual(whole);
    return 0;
  }
  expect(shown !== null && typeof shown === 'object', `${field} is sent as ${JSON.stringify(shown)}`).toBe(true);
  let nulls = 0;
  for (const [k, v] of Object.entries(whole)) nulls += expectNullsDeclared(v, (shown as Record<string, unknown>)[k], Array.isArray(whole) ? field : k);
  return nulls;
}

describe("a player's copy of a d100 event is what ShownEncounterEvent says", () => {
  it('declares the numbers a viewer who does not know the Scores is sent as null, and no others', () => {
    expectTypeOf<Of<ShownEncounterEvent, 'test-rolled'>['target']>().toEqualTypeOf<number | null>();
    expectTypeOf<Of<EncounterEvent, 'test-rolled'>['target']>().toEqualTypeOf<number>();
    expectTypeOf<Of<ShownEncounterEvent, 'attack-resolved'>['summary']['defense']>().toEqualTypeOf<number | null>();
    expectTypeOf<Of<ShownEncounterEvent, 'attack-resolved'>['spec']['attackTarget']>().toEqualTypeOf<number | null>();
    expectTypeOf<Of<ShownEncounterEvent, 'disrupted'>['result']['enemyTarget']>().toEqualTypeOf<number | null>();
    expectTypeOf<Of<ShownEncounterEvent, 'encounter-started'>['order'][number]['score']>().toEqualTypeOf<number | null>();
    // The dice stay numbers.
    expectTypeOf<Of<ShownEncounterEvent, 'test-rolled'>['roll']>().toEqualTypeOf<number>();
    expectTypeOf<Of<ShownEncounterEvent, 'attack-resolved'>['summary']['roll']>().toEqualTypeOf<number>();

    const players = SEATS.filter((a) => a.role !== 'gm');
    /** How many numbers the players' copies of the events in effect leave out, each checked. */
    const checked = (steps: readonly Step<Kind>[], seed = 1) => {
      const { game } = play(steps, seed);
      let nulls = 0;
      for (const e of groupsOf(game).flat()) {
        if (e.type === 'character-added') continue;
        for (const viewer of players) {
          const shown = redactD100Event(e, viewer, game);
          if (!shown) continue;
          if (e.type === 'encounter-started' && shown.type === 'encounter-started') {
            // The start's order and dice are lists a viewer may be shown only part of (the hidden
            // characters and the roll-offs that tell of a tie with one are left out; hidden-views.test.ts):
            // each entry shown is checked against the same character's entry.
            for (const entry of shown.data.order) {
              const { rollOff: _whole, ...whole } = e.data.order.find((o) => o.id === entry.id)!;
              const { rollOff: _shown, ...rest } = entry;
              nulls += expectNullsDeclared(JSON.parse(JSON.stringify(whole)), JSON.parse(JSON.stringify(rest)));
            }
            continue;
          }
          nulls += expectNullsDeclared(JSON.parse(JSON.stringify(e)), JSON.parse(JSON.stringify(shown)));
        }
      }
      return nulls;
    };
    // a: a Shadow whose Scores the party does not know, tested, attacking, attacked and Distracted for a few rounds; b: p1's party member.
    const act = (kind: Kind, a: 'a' | 'b', b: 'a' | 'b'): Step<Kind> => ({ ...gmStep(kind, a, null, false, false), b });
    const fight = [gmStep('add', 'a', null, false, false), gmStep('add', 'b', 'p1', true, false), act('start', 'a', 'a')];
    const round = [act('test', 'a', 'a'), act('attack', 'a', 'b'), act('attack', 'b', 'a'), act('distract', 'b', 'a'), act('distract', 'a', 'b'), act('end-turn', 'a', 'a')];
    const nulls = checked([...fight, ...round, ...round, ...round]);
    expect(nulls).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.array(stepOf(KINDS), { minLength: 1, maxLength: 24 }), fc.nat(1000), (steps, seed) => void checked(steps, seed)),
      { numRuns: 40 },
    );
  });
});
