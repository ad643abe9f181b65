import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endTurnRollers, initialEncounter, viewEncounter, type EncounterEvent, type EncounterState } from '../src';
import { decide, GM, run } from './drive';

/**
 * "Combat Structure", Steps Four and Five: the end of a turn rolls the tests of the one ending it
 * (Frozen), the crashes of falling flyers when the round ends, and the tests of the next to start
 * (Blood Loss, Confused, Miasma). What a view predicts of these is what the end of the turn draws.
 */
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
const SHEETS: Record<string, Record<string, unknown>> = {
  a: { name: 'A', side: 'pc', scores: { ...base, agility: 50 }, flight: true },
  b: { name: 'B', side: 'pc', scores: { ...base, agility: 40 } },
  c: { name: 'C', kind: 'shadow', side: 'shadows', scores: base, flight: true },
};

function table(): EncounterState {
  let s = initialEncounter();
  for (const [id, sheet] of Object.entries(SHEETS)) s = run(s, { type: 'add-character', id, sheet });
  return run(s, { type: 'start' });
}

/** The characters whose `turn:` dice the end of the turn drew, from its events: the tests and crashes they record. */
function drawn(events: readonly EncounterEvent[]): string[] {
  const out = new Set<string>();
  for (const e of events) {
    if (e.type === 'turn-ended' && e.data.frozen) out.add(e.data.id);
    if (e.type === 'round-ended') for (const c of e.data.crashes ?? []) out.add(c.who);
    if (e.type === 'turn-started' && (e.data.bloodLoss || e.data.confused || e.data.miasma)) out.add(e.data.id);
  }
  return [...out].sort();
}

const state = fc.record({ bloodLoss: fc.boolean(), confused: fc.boolean(), frozen: fc.boolean(), unconscious: fc.constantFrom(0, 1, 3), out: fc.boolean(), falling: fc.boolean() });

describe('endTurnRollers: whose dice the end of a turn draws, as the table shows it', () => {
  it('nobody with a test: none; the next to start bleeding: that one; the one ending Frozen: that one', () => {
    const s = table();
    expect(endTurnRollers(viewEncounter(s, GM))).toEqual([]);
    const bleeding = run(s, { type: 'set-condition', target: 'b', condition: 'bloodLoss', value: true });
    expect(endTurnRollers(viewEncounter(bleeding, GM))).toEqual(['b']);
    const frozen = run(s, { type: 'inflict-ailment', target: 'a', ailment: 'frozen' });
    expect(endTurnRollers(viewEncounter(frozen, GM))).toEqual(['a']);
  });

  it('an Evoker with no Persona in the Sea of Chaos tests at its turn\'s start', () => {
    const s = run(table(), { type: 'set-miasma', rate: 3 });
    expect(endTurnRollers(viewEncounter(s, GM))).toEqual(['b']);
  });

  it('agrees with the dice the end of the turn draws, whatever the conditions of the next and of the one ending', () => {
    fc.assert(
      fc.property(fc.record({ a: state, b: state, c: state }), fc.integer({ min: 0, max: 2 }), (conditions, ended) => {
        let s = table();
        for (let i = 0; i < ended; i++) s = run(s, { type: 'end-turn' }, Array(8).fill(5));
        const fighters = { ...s.fighters };
        for (const [id, c] of Object.entries(conditions)) {
          const f = fighters[id]!;
          // the one whose turn it is stays in the fight
          const out = c.out && id !== s.current;
          fighters[id] = {
            ...f,
            out,
            ailments: [...(c.confused ? [{ name: 'confused' as const, turns: 2, elapsed: 0, since: f.turnsStarted }] : []), ...(c.frozen ? [{ name: 'frozen' as const, turns: null, elapsed: 0, since: f.turnsStarted }] : [])],
            conditions: { ...f.conditions, bloodLoss: c.bloodLoss, unconscious: id === s.current ? 0 : c.unconscious, ...(c.falling && SHEETS[id]!.flight ? { altitude: 'low' as const, falling: 'low' as const } : {}) },
          };
        }
        s = { ...s, fighters };
        expect(endTurnRollers(viewEncounter(s, GM)).sort()).toEqual(drawn(decide(s, { type: 'end-turn' }, Array(12).fill(50))));
      }),
      { numRuns: 150 },
    );
  });
});
