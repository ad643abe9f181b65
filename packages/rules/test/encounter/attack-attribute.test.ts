import { describe, expect, it } from 'vitest';
import { presetOptions, tableOptions, weaponAttributeNote } from '../../src/index';
import { CULTIST, Table } from './helpers';

/** A spear fighter whose builder gave the Spear skill Cunning (the issue's own case: Spear with Cunning). */
const SPEARMAN = {
  id: 'spearman',
  name: 'Spearman',
  attributes: { competence: 2, prowess: 2, cunning: 4, power: 1, knowledge: 1, stature: 1 },
  skills: [{ name: 'Spear', dice: 3, attribute: 'cunning' as const, weapon: 'Spear' }],
  weapons: [{ name: 'Spear', size: 'two-handed' as const }],
};

describe('the attack attribute: one answer for the builder, the roller and the encounter (personae-core-2011.txt "Weapons"; option attackAttribute)', () => {
  it('by-weapon: a hand-to-hand weapon skill adds Stature in an attack, whatever attribute the sheet gave the skill', () => {
    const note = weaponAttributeNote(presetOptions('core-2011'), { range: 'melee' }, 'cunning');
    expect(note.attribute).toBe('stature');
    expect(note.text).toBe("Attacks and parries with it add Stature, not the skill's Cunning: Stature for a hand-to-hand weapon (option attackAttribute = by-weapon).");
    expect(weaponAttributeNote(presetOptions('core-2011'), { range: 'ranged' }, 'cunning')).toMatchObject({ attribute: 'cunning' });
    // The encounter adds what the note says.
    const t = new Table([SPEARMAN, CULTIST]);
    t.toViolence('spearman');
    t.run({ type: 'attack', actor: 'spearman', target: 'cultist', defense: 'dodge', dice: { actor: [5, 4, 1], reactor: [6, 1] } });
    expect(t.events('challenge-resolved').at(-1)!.result.actor.modifiers).toEqual([{ value: 1, source: 'Stature' }]);
  });

  it("skill: the skill's own attribute, in the note and in the encounter alike", () => {
    const options = tableOptions('core-2011', { attackAttribute: 'skill' });
    expect(weaponAttributeNote(options, { range: 'melee' }, 'cunning')).toEqual({
      attribute: 'cunning',
      text: "Attacks and parries with it add Cunning: the skill's own attribute (option attackAttribute = skill).",
    });
    const t = new Table([SPEARMAN, CULTIST], { attackAttribute: 'skill' });
    t.toViolence('spearman');
    t.run({ type: 'attack', actor: 'spearman', target: 'cultist', defense: 'dodge', dice: { actor: [5, 4, 1], reactor: [6, 1] } });
    expect(t.events('challenge-resolved').at(-1)!.result.actor.modifiers).toEqual([{ value: 4, source: 'Cunning' }]);
  });
});
