import { describe, expect, it } from 'vitest';
import { checkCreation, type CharacterSheet } from '../../src/character';
import { tableOptions } from '../../src/options/options';
import { baseSheet, core, INVALID, loadExample } from './helpers';

const rulesOf = (s: CharacterSheet, options = core) => checkCreation(s, options).errors.map((e) => e.rule);
const messages = (s: CharacterSheet, options = core) => checkCreation(s, options).errors.map((e) => e.message);

describe('creation checks, one rule each', () => {
  it('creation-points: a whole number of at least 5', () => {
    expect(rulesOf(baseSheet({ creationPoints: 4, attributes: { competence: 1, prowess: 1, cunning: 1, power: 0, knowledge: 1, stature: 1 } }))).toContain('creation-points');
    expect(rulesOf(loadExample('creation-points.yaml', INVALID))).toEqual(['creation-points']);
  });

  it('priorities-each-attribute-once: two First, two Second, one Third, one Handicap', () => {
    const s = baseSheet();
    s.priorities.handicap = 'stature';
    expect(rulesOf(s)).toEqual(['priorities-each-attribute-once']);
    expect(messages(s)[0]).toMatch(/Stature is named more than once, and Power has no priority/);
  });

  it('attributes-whole-numbers: never fractional, never below zero', () => {
    const s = baseSheet();
    s.attributes.power = 0.5;
    s.attributes.knowledge = 2.5;
    expect(rulesOf(s)).toEqual(['attributes-whole-numbers', 'attributes-whole-numbers']);
  });

  it('attribute-sum-minimum: the attributes add up to at least 5', () => {
    const s = baseSheet({ attributes: { competence: 1, prowess: 1, cunning: 1, power: 0, knowledge: 0, stature: 1 } });
    expect(rulesOf(s)).toEqual(['attribute-sum-minimum']);
  });

  it('attribute-sum-within-creation-points', () => {
    const s = baseSheet();
    s.attributes.competence = 6;
    expect(rulesOf(s)).toEqual(['attribute-sum-within-creation-points']);
    expect(messages(s)[0]).toBe('The attributes add up to 21 at creation, but the character has only 20 creation points.');
  });

  it('priority-caps: with 20 creation points a Third-priority Stature of 7 is over its cap of 4', () => {
    const s = baseSheet({
      attributes: { competence: 7, prowess: 7, cunning: 7, power: 1, knowledge: 7, stature: 7 },
      priorities: { first: ['competence', 'prowess'], second: ['cunning', 'knowledge'], third: 'stature', handicap: 'power' },
    });
    const report = checkCreation(s, core);
    expect(report.errors.find((e) => e.path === 'attributes.stature')?.message).toBe(
      'Stature is 7 but a Third-priority attribute can be at most 4 with 20 creation points.',
    );
    expect(report.errors.filter((e) => e.rule === 'priority-caps').map((e) => e.path)).toEqual([
      'attributes.cunning',
      'attributes.knowledge',
      'attributes.stature',
    ]);
  });

  it('priority-order: no Second above a First, no Third above a Second, no Handicap above the Third', () => {
    const s = baseSheet();
    s.attributes.knowledge = 0; // Handicap Power 1 above the Third (Knowledge 0)
    expect(rulesOf(s)).toEqual(['priority-order']);
    expect(messages(s)[0]).toMatch(/^Power \(Handicap priority\) is 1, above Knowledge \(Third priority\) at 0/);
  });

  it('skills-within-competence, not counting Block, Dodge and Resist', () => {
    const s = baseSheet({ attributes: { ...baseSheet().attributes } });
    s.skills = ['A', 'B', 'C', 'D', 'E'].map((name) => ({ name, attribute: 'competence' as const, dice: 2 }));
    s.skills.push({ name: 'Dodge', attribute: 'cunning', dice: 3 });
    expect(rulesOf(s)).toEqual([]);
    s.skills.push({ name: 'F', attribute: 'competence', dice: 2 });
    expect(rulesOf(s)).toEqual(['skills-within-competence']);
  });

  it('prowess-dice-within-pool: dice above 2 come from 3 x Prowess', () => {
    const s = baseSheet({ skills: [{ name: 'Sword', attribute: 'stature', dice: 6 }, { name: 'Bow', attribute: 'cunning', dice: 6 }, { name: 'Dodge', attribute: 'cunning', dice: 6 }] });
    expect(rulesOf(s)).toEqual([]); // 12 of 12
    s.skills[0]!.dice = 7; // 13 of 12, and 7 > 6
    expect(rulesOf(s).sort()).toEqual(['prowess-dice-within-pool', 'skill-dice-within-maximum']);
  });

  it('special-abilities-within-cunning: a Quality counts as two, the culture ability is free', () => {
    const ability = (name: string, extra = {}) => ({ name, conditional: [], culture: false, quality: false, upgrades: 0, effect: { type: 'described' as const }, ...extra });
    const s = baseSheet({ specialAbilities: [ability('Origin', { culture: true }), ability('A'), ability('B', { quality: true })] });
    expect(rulesOf(s)).toEqual([]); // 0 + 1 + 2 = 3 = Cunning
    s.specialAbilities.push(ability('C'));
    expect(rulesOf(s)).toEqual(['special-abilities-within-cunning']);
  });

  it('Conditional upgrades are free; other upgrades count and may use Power\'s points', () => {
    const reroll = { type: 'reroll' as const, dice: 2, keep: 'second' as const, mayTouchHighest: false };
    const s = baseSheet({
      specialAbilities: [{ name: 'Focus', conditional: ['once per encounter'], culture: false, quality: false, upgrades: 1, effect: reroll }],
    });
    expect(rulesOf(s)).toEqual([]);
    // Two more paid upgrades: Cunning 3 pays for the ability and two upgrades, Power 1 pays the third.
    s.specialAbilities[0] = { ...s.specialAbilities[0]!, upgrades: 4 };
    expect(rulesOf(s)).toEqual([]);
    s.specialAbilities[0] = { ...s.specialAbilities[0]!, upgrades: 5 };
    expect(rulesOf(s)).toEqual(['powers-within-power']);
    expect(messages(s)[0]).toMatch(/2 special ability upgrades beyond Cunning must be paid with Power's points/);
  });

  it('powers-within-power: powers and their upgrades', () => {
    const s = baseSheet({ powers: [{ name: 'Bolt', duration: 'instant', targets: 1, hits: 1, upgrades: 0 }] });
    expect(rulesOf(s)).toEqual([]);
    s.powers.push({ name: 'Veil', duration: 'maintain', targets: 1, hits: 0, upgrades: 0 });
    expect(rulesOf(s)).toEqual(['powers-within-power']);
  });

  it('talents-within-knowledge: the native language is free; upgrades count', () => {
    const t = (name: string, kind: 'language' | 'expertise' | 'resource', extra = {}) => ({ name, kind, native: false, uses: 1, dice: 1, resourceCap: 1, ...extra });
    const s = baseSheet({ talents: [t('Common', 'language', { native: true }), t('Elvish', 'language'), t('History', 'expertise', { uses: 2 })] });
    expect(rulesOf(s)).toEqual([]); // 0 + 1 + 2 = 3 = Knowledge
    s.talents.push(t('Gold', 'resource'));
    expect(rulesOf(s)).toEqual(['talents-within-knowledge']);
  });

  it('skill-starting-rating and skill-dice-within-maximum (Potential + 2)', () => {
    const s = baseSheet({ skills: [{ name: 'Sword', attribute: 'stature', dice: 1 }] });
    expect(rulesOf(s)).toEqual(['skill-starting-rating']);
    s.skills[0]!.dice = 7;
    expect(messages(s)).toEqual(['Sword has 7 dice but Potential 4 allows at most 6 (Potential + 2).']);
  });

  it('exceptional gear: must be a Quality, must name an item', () => {
    const s = baseSheet({
      gear: [{ type: 'weapon', name: 'Katana', size: 'one-handed', range: 'melee', group: 'blades', exceptional: 'craft' }],
      specialAbilities: [{ name: 'Folded Steel', conditional: [], culture: false, quality: false, exceptionalGear: 'Katana', upgrades: 0, effect: { type: 'described' } }],
    });
    expect(rulesOf(s)).toEqual(['exceptional-gear-is-quality']);
    s.specialAbilities[0]!.quality = true;
    expect(rulesOf(s)).toEqual([]);
    s.specialAbilities[0]!.exceptionalGear = 'Wakizashi';
    expect(rulesOf(s)).toEqual(['exceptional-gear-link']);
  });

  it('gear that is exceptional but unlocked by nothing is a note, not an error', () => {
    const s = baseSheet({ gear: [{ type: 'armor', name: 'Mithril Shirt', exceptional: 'both' }] });
    const report = checkCreation(s, core);
    expect(report.valid).toBe(true);
    expect(report.notes.map((n) => n.message)).toContain('Mithril Shirt is exceptional, but no special ability or power unlocks it, so it works like an ordinary item.');
  });

  it('frameworks: benefits of one, more only through upgrades; reroll-better is free when the table says so', () => {
    const s = baseSheet({
      specialAbilities: [{ name: 'Focus', conditional: [], culture: false, quality: false, upgrades: 0, effect: { type: 'reroll', dice: 1, keep: 'better', mayTouchHighest: false } }],
      powers: [{ name: 'Storm', duration: 'independent', targets: 1, hits: 0, upgrades: 0 }],
    });
    s.attributes.power = 2;
    s.attributes.knowledge = 2;
    expect(rulesOf(s).sort()).toEqual(['power-framework', 'special-ability-framework']);
    expect(rulesOf(s, tableOptions('core-2011', { rerollDefault: 'better' }))).toEqual(['power-framework']);
  });

  it('starting-gear: a weapon skill names a weapon the sheet carries; a shield skill a shield', () => {
    const s = baseSheet({ skills: [{ name: 'Shield Block', attribute: 'stature', dice: 2, shield: 'Kite Shield' }] });
    expect(rulesOf(s)).toEqual(['starting-gear']);
    s.gear = [{ type: 'shield', name: 'Kite Shield', weight: 'heavy' }];
    expect(rulesOf(s)).toEqual([]);
  });

  it('supporting-character-tier', () => {
    expect(rulesOf(baseSheet({ tier: 'major' }))).toEqual(['supporting-character-tier']);
    expect(rulesOf(baseSheet({ role: 'ally' }))).toEqual(['supporting-character-tier']);
    expect(rulesOf(baseSheet({ role: 'ally', tier: 'minor' }))).toEqual([]);
  });

  it('companions: prerequisites, how many, creation points and tier', () => {
    const beast = loadExample('northern-beastmaster.yaml');
    expect(rulesOf(beast)).toEqual([]);
    expect(rulesOf(beast, tableOptions('core-2011', { companionsPerCharacter: 0 }))).toEqual(['companions-per-character']);
    expect(rulesOf({ ...beast, specialAbilities: beast.specialAbilities.filter((a) => !a.companion) }).sort()).toEqual(['companion-prerequisites', 'history-replays']);
    const hawk = loadExample('companion-hawk.json');
    expect(rulesOf({ ...hawk, creationPoints: 20 }).sort()).toEqual(['companion-creation-points']);
  });

  it('reports every violation at once, with path, rule, source and a sentence', () => {
    const s = baseSheet({ skills: [{ name: 'Sword', attribute: 'stature', dice: 9, weapon: 'Sword' }] });
    s.attributes.competence = 0.5;
    s.priorities.handicap = 'stature';
    const report = checkCreation(s, core);
    expect(report.errors.map((e) => e.rule).sort()).toEqual(
      ['attributes-whole-numbers', 'priorities-each-attribute-once', 'skill-dice-within-maximum', 'skills-within-competence', 'starting-gear'].sort(),
    );
    for (const e of report.errors) {
      expect(e.source).toMatch(/^personae-core-2011\.txt, ".+"$/);
      expect(e.path.length).toBeGreaterThan(0);
    }
  });

  it('fewer traits than the maxima is information, not an error', () => {
    const report = checkCreation(baseSheet(), core);
    expect(report.valid).toBe(true);
    expect(report.notes.map((n) => n.message)).toEqual(
      expect.arrayContaining(['0 of 5 skills unlocked; the others may be unlocked later.', '0 of 3 talents chosen; the others may be chosen later.']),
    );
  });

  it('a sheet using other creation points than the table option gets a note', () => {
    const report = checkCreation(loadExample('desert-elf-singing-warrior.yaml'), core);
    expect(report.valid).toBe(true);
    expect(report.notes.some((n) => n.path === 'creationPoints')).toBe(true);
    expect(checkCreation(loadExample('desert-elf-singing-warrior.yaml'), tableOptions('core-2011', { creationPoints: 30 })).notes.some((n) => n.path === 'creationPoints')).toBe(false);
  });

  it('creation maxima apply to the sheet as created: traits bought later do not count', () => {
    const m = loadExample('merchant-privateer-scoundrel.yaml');
    // Five unlocked skills now with Competence 4, but Navigation was bought with a development point.
    expect(m.skills.filter((s) => s.name !== 'Dodge')).toHaveLength(5);
    expect(rulesOf(m)).toEqual([]);
    expect(rulesOf({ ...m, history: [] }).sort()).toEqual(['attribute-sum-within-creation-points', 'skills-within-competence']);
  });
});
