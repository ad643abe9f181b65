import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { givenDice } from '@personae/dice';
import { checkSheet, decideEncounter, describeD100Event, encounterDecider, evolveEncounter, groupsOf, initialEncounter, type EncounterCommand, type EncounterEvent, type EncounterState } from '../src';

// Option magicCritical=signature-ailment (inventory U28): the seed gives spells Critical Effects; a weapon or
// spell on the sheet names its ailment.
const GM: Actor = { role: 'gm', participantId: 'gm' };
const base = { melee: 40, ballistic: 40, magic: 50, strength: 30, toughness: 40, agility: 40, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
const weapons = [
  { name: 'Agi', class: 'magic', element: 'fire', damage: 4, criticalAilment: 'burning' },
  { name: 'Garu', class: 'magic', element: 'wind', damage: 4, criticalAilment: 'frozen' },
  { name: 'Sword', class: 'melee', element: 'melee', damage: 5 },
];
const sheets = (bAffinities: Record<string, string> = {}) => ({
  a: { name: 'A', side: 'pc', scores: { ...base, agility: 50 }, weapons },
  b: { name: 'B', kind: 'shadow', side: 'shadows', scores: { ...base, toughness: 30 }, affinities: bAffinities, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
});
const run = (s: EncounterState, command: Record<string, unknown>, dice: number[] = []) => {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideEncounter(s, parsed.command as EncounterCommand, { actor: GM, dice: givenDice(dice), now: '' }).reduce(evolveEncounter, s);
};
function table(options: Record<string, unknown>, bAffinities: Record<string, string> = {}): EncounterState {
  let s = run(initialEncounter(), { type: 'set-options', options });
  for (const [id, sheet] of Object.entries(sheets(bAffinities))) s = run(s, { type: 'add-character', id, sheet });
  return run(s, { type: 'start' });
}
const lastEvent = (s: EncounterState): EncounterEvent => groupsOf(s).at(-1)!.at(-1)!;
const names = (s: EncounterState) => s.fighters.b!.ailments.map((x) => x.name);
// A's Magic 50 rolls 05 (a Critical Hit), B's evasion 40 rolls 90, the location 50 (body)
const crit = [5, 90, 50];

describe('a magic Critical Hit and the ailment its spell names', () => {
  it('gm (the default): the extra wound only; signature-ailment: Agi\'s Burning too, logged as its Critical Effect', () => {
    expect(names(run(table({}), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, crit))).toEqual([]);
    const s = run(table({ magicCritical: 'signature-ailment' }), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, crit);
    expect(names(s)).toEqual(['burning']);
    const e = lastEvent(s);
    if (e.type !== 'attack-resolved') throw new Error(e.type);
    expect(e.data.summary).toMatchObject({ critical: true, criticalAilment: 'burning' });
    expect(describeD100Event(e, (id) => id.toUpperCase())).toContain('the Critical Effect: Burning');
  });
  it('no Critical Hit, no ailment; a physical Critical Hit Staggers as always and names none', () => {
    expect(names(run(table({ magicCritical: 'signature-ailment' }), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, [25, 90, 50]))).toEqual([]);
    expect(names(run(table({ magicCritical: 'signature-ailment' }), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Sword' }, crit))).toEqual(['staggered']);
  });
  it('an immune target is spared: Ice Block is immunity to Frozen', () => {
    const s = run(table({ magicCritical: 'signature-ailment' }, { ice: 'block' }), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Garu' }, crit);
    expect(names(s)).toEqual([]);
    expect(names(run(table({ magicCritical: 'signature-ailment' }), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Garu' }, crit))).toEqual(['frozen']);
  });
  it('the sheet refuses an ailment that does not exist', () => {
    const bad = { ...sheets().a, weapons: [{ name: 'Bufu', class: 'magic', element: 'ice', damage: 4, criticalAilment: 'chilly' }] };
    expect(checkSheet(bad).ok).toBe(false);
  });
});
