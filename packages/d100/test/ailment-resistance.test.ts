import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { describeD100Event, evolveEncounter, groupsOf, initialEncounter, redactD100Event, type EncounterEvent, type EncounterState } from '../src';
import { GM, refusal, run } from './drive';

/**
 * The test to resist an ailment (inventory U42): "Elemental Affinities" gives it -20 when Weak to the
 * element and +20 when Resisting it, "Defending and Protecting" an Advantage; option
 * ailmentResistScore names the Score. The GM asks for it with `inflict-ailment resist: true`.
 */
const P1: Actor = { role: 'player', participantId: 'p1' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
/** A (p1) acts first; B, Toughness 30, is Weak to Fire and Resists Ice. */
const SHEETS = {
  a: { name: 'A', side: 'pc', scores: base },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 20, toughness: 30 }, affinities: { fire: 'weak', ice: 'resist' } },
};
function table(options: Record<string, unknown> = {}): EncounterState {
  let s = initialEncounter('seed', options);
  s = run(s, { type: 'add-character', id: 'a', sheet: SHEETS.a, controller: 'p1' });
  s = run(s, { type: 'add-character', id: 'b', sheet: SHEETS.b });
  return run(s, { type: 'start' });
}
const last = (s: EncounterState): EncounterEvent => groupsOf(s).flat().at(-1)!;
const says = (e: EncounterEvent) => describeD100Event(e, (id) => id.toUpperCase());
const burn = (dice: number[], s = table()) => run(s, { type: 'inflict-ailment', target: 'b', ailment: 'burning', resist: true, element: 'fire' }, dice);

describe('the ailment-resistance test (U42)', () => {
  it('a Physical ailment is resisted with Toughness, -20 when Weak to its element: 30 - 20 = 10', () => {
    const resisted = burn([5]);
    expect(last(resisted)).toMatchObject({ type: 'ailment-inflicted', data: { resistance: { score: 'toughness', element: 'fire', target: 10, roll: 5, success: true } } });
    expect(resisted.fighters.b!.ailments).toEqual([]);
    expect(says(last(resisted))).toBe('B tests Toughness to resist Burning: 5 vs 10 (Weak to the element -20), 1 DoS, resisted');
    const failed = burn([11]);
    expect(failed.fighters.b!.ailments.map((a) => a.name)).toEqual(['burning']);
    expect(says(last(failed))).toBe('B tests Toughness to resist Burning: 11 vs 10 (Weak to the element -20), failed; B is Burning');
    // Resist: +20, 50
    const iced = run(table(), { type: 'inflict-ailment', target: 'b', ailment: 'frozen', resist: true, element: 'ice' }, [45]);
    expect(last(iced)).toMatchObject({ data: { resistance: { target: 50, success: true } } });
    // the events fold again to the same fighters; undo takes the ailment back
    expect(groupsOf(failed).flat().reduce(evolveEncounter, initialEncounter()).fighters).toEqual(failed.fighters);
    expect(run(failed, { type: 'undo', seen: failed.seq }).fighters.b!.ailments).toEqual([]);
  });

  it('a Mental ailment is resisted with Willpower, Defend adding an Advantage; option willpower uses it for every ailment', () => {
    const defending = run(table(), { type: 'defend' }, [], P1);
    const amnesia = run(defending, { type: 'inflict-ailment', target: 'a', ailment: 'amnesiac', resist: true }, [39]);
    expect(last(amnesia)).toMatchObject({ data: { resistance: { score: 'willpower', target: 40, roll: 39, success: true, modifiers: [{ label: 'Defend', value: 10 }] } } });
    expect(amnesia.fighters.a!.ailments).toEqual([]);
    // Dizzy is Physical: Toughness 40 by category, Willpower 30 under ailmentResistScore=willpower
    const dizzy = (options: Record<string, unknown>) => last(run(table(options), { type: 'inflict-ailment', target: 'a', ailment: 'dizzy', resist: true }, [35]));
    expect(dizzy({})).toMatchObject({ data: { resistance: { score: 'toughness', target: 40, success: true } } });
    expect(dizzy({ ailmentResistScore: 'willpower' })).toMatchObject({ data: { resistance: { score: 'willpower', target: 30, success: false } } });
    // the GM may name the Score or the target instead
    expect(last(run(table(), { type: 'inflict-ailment', target: 'a', ailment: 'dizzy', resist: true, score: 'agility' }, [35]))).toMatchObject({ data: { resistance: { score: 'agility', target: 30 } } });
    expect(last(run(table(), { type: 'inflict-ailment', target: 'a', ailment: 'dizzy', resist: true, resistTarget: 55 }, [35]))).toMatchObject({ data: { resistance: { target: 55, success: true } } });
  });

  it('without resist no die is rolled, as before; the test\'s fields without it are refused', () => {
    const s = run(table(), { type: 'inflict-ailment', target: 'b', ailment: 'burning' });
    expect(last(s).data).not.toHaveProperty('resistance');
    expect(s.fighters.b!.ailments.map((a) => a.name)).toEqual(['burning']);
    expect(refusal(table(), { type: 'inflict-ailment', target: 'b', ailment: 'burning', element: 'fire' })).toMatchObject({ code: 'no-resistance', field: 'resist', section: 'Elemental Affinities' });
  });

  it("players are not told an enemy's unknown affinity nor the Score behind its target", () => {
    const s = burn([11]);
    const shown = redactD100Event(last(s), P1, s) as { data: { resistance: Record<string, unknown> } };
    expect(shown.data.resistance).toEqual({ score: 'toughness', target: null, roll: 11, success: false, degrees: 0, modifiers: [] });
    expect(JSON.stringify(shown)).not.toMatch(/fire|Weak/);
    expect((redactD100Event(last(s), GM, s) as EncounterEvent).data).toMatchObject({ resistance: { element: 'fire', target: 10 } });
  });
});
