import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  advance,
  checkCreation,
  decideAdvancement,
  developmentPoints,
  evolveAdvancement,
  hitsBeforeInjured,
  prowessPool,
  type AdvancementCommand,
  type CharacterSheet,
  type Purchase,
  unspentSlots,
} from '../../src/character';
import { tableOptions } from '../../src/options/options';
import { baseSheet, core, exampleFiles, loadExample } from './helpers';

function run(sheet: CharacterSheet, ...commands: AdvancementCommand[]): CharacterSheet {
  let s = sheet;
  for (const c of commands) {
    const r = advance(s, c, core);
    if (!r.ok) throw new Error(`${r.error.rule}: ${r.error.message}`);
    s = r.sheet;
  }
  return s;
}
const spend = (purchase: Purchase, award?: number): AdvancementCommand => ({ type: 'spend', purchase, ...(award ? { award } : {}) });
const refused = (sheet: CharacterSheet, c: AdvancementCommand, options = core) => {
  const r = decideAdvancement(sheet, c, options);
  if (r.ok) throw new Error('expected a refusal');
  return r.error;
};
const withoutHistory = ({ history: _h, ...rest }: CharacterSheet) => rest;

describe('advancement (personae-core-2011.txt "Advancement")', () => {
  it('awards development points and records them', () => {
    const s = run(baseSheet(), { type: 'award', points: 3, note: 'session 1' });
    expect(s.history).toEqual([{ type: 'award', id: 1, points: 3, note: 'session 1' }]);
    expect(developmentPoints(s)).toEqual({ awarded: 3, spent: 0, unspent: 3 });
  });

  it('one point buys +1 attribute, a skill, 3 pool dice, a talent, a special ability, a power, one more hit', () => {
    let s = run(baseSheet(), { type: 'award', points: 1 }, spend({ kind: 'attribute', attribute: 'power' }));
    expect(s.attributes.power).toBe(2);
    s = run(s, { type: 'award', points: 6 });
    s = run(
      s,
      spend({ kind: 'skill', skill: { name: 'Archery', attribute: 'cunning', dice: 2 } }),
      spend({ kind: 'prowess-pool' }),
      spend({ kind: 'talent', talent: { name: 'Dwarvish', kind: 'language', native: false, uses: 1, dice: 1, resourceCap: 1 } }),
      spend({ kind: 'special-ability', ability: { name: 'Keen Eye', conditional: [], culture: false, quality: false, upgrades: 0, effect: { type: 'described' } } }),
      spend({ kind: 'power', power: { name: 'Spark', duration: 'instant', targets: 1, hits: 1, upgrades: 0 } }),
      spend({ kind: 'hit' }),
    );
    expect(s.skills.map((x) => x.name)).toContain('Archery');
    expect(prowessPool(s)).toBe(15);
    expect(hitsBeforeInjured(s).total).toBe(6);
    expect(developmentPoints(s)).toEqual({ awarded: 7, spent: 7, unspent: 0 });
    expect(checkCreation(s, core).valid).toBe(true);
  });

  it('an award goes to attributes or to traits, not both', () => {
    const s = run(baseSheet(), { type: 'award', points: 2 }, spend({ kind: 'hit' }));
    const e = refused(s, spend({ kind: 'attribute', attribute: 'power' }));
    expect(e.rule).toBe('award-attributes-or-traits');
    const e2 = refused(s, spend({ kind: 'attribute', attribute: 'power' }, 1));
    expect(e2).toMatchObject({ rule: 'award-attributes-or-traits', path: 'award', value: 1 });
  });

  it('refuses to spend points that are not there', () => {
    const e = refused(baseSheet(), spend({ kind: 'hit' }));
    expect(e).toMatchObject({ rule: 'development-points-available', path: 'purchase' });
    expect(e.message).toMatch(/no development points are left/);
  });

  it('keeps the order of importance when raising attributes', () => {
    const s2 = run(baseSheet(), { type: 'award', points: 1 });
    const e2 = refused(s2, spend({ kind: 'attribute', attribute: 'stature' })); // Second Stature 5 > First Prowess 4
    expect(e2.rule).toBe('priority-order');
    expect(e2.message).toMatch(/Stature \(Second priority\) is 5, above Prowess \(First priority\) at 4/);
  });

  it('a Quality costs 2 when taken, its upgrades cost qualityUpgradeCost; Conditional upgrades are free', () => {
    const quality = { name: 'Aura', conditional: [], culture: false, quality: true, upgrades: 0, effect: { type: 'bonus-result' as const, amount: 1 } };
    let s = run(baseSheet(), { type: 'award', points: 2 }, spend({ kind: 'special-ability', ability: quality }));
    expect(s.history.at(-1)).toMatchObject({ type: 'spend', cost: 2 });
    s = run(s, { type: 'award', points: 3 });
    const costly = tableOptions('core-2011', { qualityUpgradeCost: 2 });
    const d = decideAdvancement(s, spend({ kind: 'special-ability-upgrade', ability: 'Aura' }), costly);
    expect(d.ok && d.entry.type === 'spend' && d.entry.cost).toBe(2);
    const cond = { name: 'Vengeance', conditional: ['only against oath-breakers'], culture: false, quality: false, upgrades: 0, effect: { type: 'described' as const } };
    s = run(s, spend({ kind: 'special-ability', ability: cond }), spend({ kind: 'special-ability-upgrade', ability: 'Vengeance' }));
    expect(s.history.at(-1)).toMatchObject({ cost: 0, award: null });
    expect(s.specialAbilities.find((a) => a.name === 'Vengeance')?.upgrades).toBe(1);
  });

  it('making an ability a Quality with Exceptional Gear costs one more point', () => {
    const s0 = baseSheet({ gear: [{ type: 'weapon', name: 'Moonblade', size: 'one-handed', range: 'melee', group: 'blades', exceptional: 'supernatural' }] });
    const s = run(
      s0,
      { type: 'award', points: 2 },
      spend({ kind: 'special-ability', ability: { name: 'Moon Edge', conditional: [], culture: false, quality: false, upgrades: 0, effect: { type: 'described' } } }),
      spend({ kind: 'quality', ability: 'Moon Edge', exceptionalGear: 'Moonblade' }),
    );
    expect(s.specialAbilities[0]).toMatchObject({ quality: true, exceptionalGear: 'Moonblade' });
    expect(checkCreation(s, core).valid).toBe(true);
  });

  it('refuses an Exceptional Gear ability that is not a Quality, naming the rule', () => {
    const s = run(baseSheet({ gear: [{ type: 'item', name: 'Orb' }] }), { type: 'award', points: 2 });
    const e = refused(s, spend({ kind: 'special-ability', ability: { name: 'Orb Sight', conditional: [], culture: false, quality: false, exceptionalGear: 'Orb', upgrades: 0, effect: { type: 'described' } } }));
    expect(e.rule).toBe('exceptional-gear-is-quality');
  });

  it('upgrades powers: targets, hits, duration', () => {
    let s = run(baseSheet(), { type: 'award', points: 4 }, spend({ kind: 'power', power: { name: 'Bolt', duration: 'instant', targets: 1, hits: 1, upgrades: 0 } }));
    s = run(s, spend({ kind: 'power-upgrade', power: 'Bolt', improve: 'targets' }), spend({ kind: 'power-upgrade', power: 'Bolt', improve: 'hits' }));
    expect(s.powers[0]).toMatchObject({ targets: 2, hits: 2, upgrades: 2 });
    const e = refused(s, spend({ kind: 'power', power: { name: 'Storm', duration: 'special', targets: 1, hits: 0, upgrades: 0 } }));
    expect(e.rule).toBe('power-framework');
    // personae-core-2011.txt "Duration / Duration Identifiers": Bolt inflicts hits, so it stays Instant.
    expect(refused(s, spend({ kind: 'power-upgrade', power: 'Bolt', improve: 'duration', duration: 'special' })).rule).toBe('injuring-powers-instant');
    s = run(s, { type: 'award', points: 2 }, spend({ kind: 'power', power: { name: 'Veil', duration: 'instant', targets: 1, hits: 0, upgrades: 0 } }));
    s = run(s, spend({ kind: 'power-upgrade', power: 'Veil', improve: 'duration', duration: 'special' }));
    expect(s.powers[1]!.duration).toBe('special');
    s = run(s, { type: 'undo' });
    expect(s.powers[1]!.duration).toBe('instant');
  });

  it('upgrades expertise and resource talents', () => {
    const t = { name: 'Law', kind: 'expertise' as const, native: false, uses: 1, dice: 1, resourceCap: 1 };
    let s = run(baseSheet({ talents: [t] }), { type: 'award', points: 2 }, spend({ kind: 'talent-upgrade', talent: 'Law', improve: 'uses' }));
    expect(s.talents[0]!.uses).toBe(2);
    expect(refused(s, spend({ kind: 'talent-upgrade', talent: 'Law', improve: 'resourceCap' })).rule).toBe('purchase-target-exists');
    s = run(s, spend({ kind: 'talent-upgrade', talent: 'Law', improve: 'dice' }));
    expect(s.talents[0]!.dice).toBe(2);
  });

  it('assigns Prowess Pool dice at no cost, within Potential + 2', () => {
    let s = run(baseSheet(), spend({ kind: 'assign-dice', skill: 'Dodge', dice: 3 }));
    expect(s.skills).toEqual([{ name: 'Dodge', attribute: 'cunning', dice: 5 }]);
    expect(refused(s, spend({ kind: 'assign-dice', skill: 'Dodge', dice: 2 })).rule).toBe('skill-dice-within-maximum');
    expect(refused(s, spend({ kind: 'assign-dice', skill: 'Juggling', dice: 1 })).rule).toBe('purchase-target-exists');
    s = run(s, { type: 'undo' });
    expect(s.skills).toEqual([]);
  });

  it('a companion joins through its special ability and is promoted minion -> minor -> major', () => {
    const beast = loadExample('northern-beastmaster.yaml');
    let s = run(beast, { type: 'award', points: 1 }, spend({ kind: 'companion-promotion', companion: 'Grey Fang' }));
    expect(s.companions[0]!.tier).toBe('major');
    expect(checkCreation(s, core).valid).toBe(true);
    s = run(s, { type: 'award', points: 1 });
    expect(refused(s, spend({ kind: 'companion-promotion', companion: 'Grey Fang' })).rule).toBe('companion-tier');
    s = run(s, spend({ kind: 'companion-attribute', companion: 'Grey Fang', attribute: 'stature' }));
    expect(s.companions[0]!.attributes.stature).toBe(4);
    expect(checkCreation(s, core).valid).toBe(true);
  });

  it('a companion needs Potential 4', () => {
    const s = run(baseSheet({ attributes: { competence: 4, prowess: 4, cunning: 3, power: 1, knowledge: 3, stature: 4 } }), { type: 'award', points: 1 });
    const { history: _h, companions: _c, ...hawk } = loadExample('companion-hawk.json');
    const e = refused(s, spend({ kind: 'special-ability', ability: { name: 'Falconry', conditional: [], culture: false, quality: false, companion: 'Kestra', upgrades: 0, effect: { type: 'described' } }, companion: hawk }));
    expect(e.rule).toBe('companion-prerequisites');
  });

  it('undo goes newest first and leaves the history append-only', () => {
    let s = run(baseSheet(), { type: 'award', points: 2 }, spend({ kind: 'hit' }), spend({ kind: 'prowess-pool' }));
    expect(refused(s, { type: 'undo', entry: 2 }).rule).toBe('undo-latest-first');
    const before = s.history;
    s = run(s, { type: 'undo' });
    expect(s.history.slice(0, before.length)).toEqual(before);
    expect(s.history.at(-1)).toEqual({ type: 'undo', id: 4, entry: 3 });
    expect(prowessPool(s)).toBe(12);
    s = run(s, { type: 'undo' }, { type: 'undo' });
    expect(developmentPoints(s)).toEqual({ awarded: 0, spent: 0, unspent: 0 });
    expect(refused(s, { type: 'undo' }).rule).toBe('undo-latest-first');
    expect(checkCreation(s, core).valid).toBe(true);
  });

  it('a refused command leaves the sheet unchanged and names field, value and rule', () => {
    const s = run(baseSheet(), { type: 'award', points: 1 });
    const copy = structuredClone(s);
    const r = advance(s, spend({ kind: 'skill', skill: { name: 'Sword', attribute: 'stature', dice: 4 } }), core);
    expect(r).toMatchObject({ ok: false, error: { path: 'purchase.skill.dice', value: 4, rule: 'skill-starting-rating' } });
    expect(s).toEqual(copy);
  });

  it('the history of an example replays: every example advanced and undone stays legal', () => {
    for (const f of exampleFiles()) {
      const s = loadExample(f);
      const after = run(s, { type: 'award', points: 1 }, spend({ kind: 'hit' }), { type: 'undo' }, { type: 'undo' });
      expect(withoutHistory(after)).toEqual(withoutHistory(s));
    }
  });
});

describe('changing attribute priorities (personae-core-2011.txt "The Order of Importance"; option prioritiesChangeable)', () => {
  const changeable = tableOptions('core-2011', { prioritiesChangeable: true });
  // Base: Competence 5, Prowess 4 First; Stature 4, Cunning 3 Second; Knowledge 3 Third; Power 1 Handicap.
  const swapped = { first: ['competence', 'prowess'], second: ['stature', 'knowledge'], third: 'cunning', handicap: 'power' } as const;
  const change = (priorities: typeof swapped | Record<string, unknown>) => spend({ kind: 'priorities', priorities } as Purchase);

  it('is refused, naming the option, when the table keeps priorities fixed', () => {
    const e = refused(baseSheet(), change(swapped));
    expect(e).toMatchObject({ rule: 'priorities-changeable', path: 'purchase.priorities' });
    expect(e.message).toMatch(/option prioritiesChangeable/);
    expect(e.source).toContain('"The Order of Importance"');
  });

  it('is a free spend in the history when the table allows it, and undo restores the old order', () => {
    const s0 = baseSheet();
    const r = advance(s0, change(swapped), changeable);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.sheet.priorities).toEqual(swapped);
    expect(r.entry).toMatchObject({ type: 'spend', cost: 0, award: null, previous: { priorities: s0.priorities } });
    expect(checkCreation(r.sheet, changeable).errors).toEqual([]);
    const u = advance(r.sheet, { type: 'undo' }, changeable);
    expect(u.ok && withoutHistory(u.sheet)).toEqual(withoutHistory(s0));
  });

  it('still keeps the order against the current values: no Second above a First, and so on', () => {
    const e = refused(baseSheet(), change({ first: ['competence', 'knowledge'], second: ['stature', 'prowess'], third: 'cunning', handicap: 'power' }), changeable);
    expect(e.rule).toBe('priority-order');
    expect(e.message).toMatch(/Stature \(Second priority\) is 4, above Knowledge \(First priority\) at 3/);
    expect(refused(baseSheet(), change({ first: ['competence', 'competence'], second: ['stature', 'knowledge'], third: 'cunning', handicap: 'power' }), changeable).rule).toBe(
      'priorities-each-attribute-once',
    );
    expect(refused(baseSheet(), change(baseSheet().priorities as never), changeable).message).toMatch(/already has/);
    const reordered = { ...baseSheet().priorities, first: ['prowess', 'competence'] };
    expect(refused(baseSheet(), change(reordered), changeable).message).toMatch(/already has/);
  });

  it('later attribute purchases follow the new order; the caps at creation keep the old one', () => {
    let s = advance(baseSheet(), change(swapped), changeable);
    if (!s.ok) throw new Error(s.error.message);
    const awarded = advance(s.sheet, { type: 'award', points: 1 }, changeable);
    if (!awarded.ok) throw new Error(awarded.error.message);
    // Cunning is Third now: raising it to 4 would put it above Knowledge (Second, 3).
    expect(refused(awarded.sheet, spend({ kind: 'attribute', attribute: 'cunning' }), changeable).rule).toBe('priority-order');
    s = advance(awarded.sheet, spend({ kind: 'attribute', attribute: 'knowledge' }), changeable);
    expect(s.ok).toBe(true);
    if (s.ok) expect(checkCreation(s.sheet, changeable).errors).toEqual([]);
  });
});

describe('defining unspent trait slots (personae-core-2011.txt "Step 4: Determine Maximum Number of Traits")', () => {
  // Base: Competence 5, Cunning 3, Power 1, Knowledge 3 and no traits: 5 skill, 3 ability, 1 power, 3 talent slots.
  const slot = (trait: Extract<Purchase, { kind: 'unspent-slot' }>['trait']) => spend({ kind: 'unspent-slot', trait });
  const skill = (name: string, dice = 2) => slot({ type: 'skill', skill: { name, attribute: 'competence', dice } });

  it('counts the slots the creation maxima leave', () => {
    expect(unspentSlots(baseSheet(), core)).toEqual({ skills: 5, specialAbilities: 3, powers: 1, talents: 3 });
    expect(unspentSlots(loadExample('dwarf-iron-constitution.yaml'), core)).toEqual({ skills: 1, specialAbilities: 0, powers: 1, talents: 0 });
  });

  it('defines a trait at no cost, with no award, and the slot is then taken', () => {
    const s = run(baseSheet(), skill('Haggle'));
    expect(s.skills.map((x) => x.name)).toEqual(['Haggle']);
    expect(s.history.at(-1)).toMatchObject({ type: 'spend', cost: 0, award: null, purchase: { kind: 'unspent-slot' } });
    expect(developmentPoints(s)).toEqual({ awarded: 0, spent: 0, unspent: 0 });
    expect(unspentSlots(s, core)?.skills).toBe(4);
    expect(checkCreation(s, core).errors).toEqual([]);
  });

  it('refuses a trait when no slot of its kind is left, naming the maximum', () => {
    const power = (name: string) => slot({ type: 'power', power: { name, duration: 'instant', targets: 1, hits: 1, upgrades: 0 } });
    const s = run(baseSheet(), power('Spark'));
    const e = refused(s, power('Flare'));
    expect(e).toMatchObject({ rule: 'powers-within-power', path: 'purchase.trait' });
    expect(e.message).toMatch(/No unspent creation slot is left for this power: it takes 1 and 0 of the Power slots are unspent/);
    let full = baseSheet();
    for (const name of ['A', 'B', 'C', 'D', 'E']) full = run(full, skill(name));
    expect(refused(full, skill('F')).rule).toBe('skills-within-competence');
    const quality = { name: 'Aura', conditional: [], culture: false, quality: true, upgrades: 0, effect: { type: 'described' as const } };
    const two = run(baseSheet(), slot({ type: 'special-ability', ability: { ...quality, name: 'Grit', quality: false } }), slot({ type: 'special-ability', ability: { ...quality, name: 'Nerve', quality: false } }));
    expect(refused(two, slot({ type: 'special-ability', ability: quality })).message).toMatch(/it takes 2 and 1 of the Cunning slots is unspent/);
  });

  it('a slot trait takes the shape of a new one and is checked like one', () => {
    expect(refused(baseSheet(), skill('Haggle', 3))).toMatchObject({ rule: 'skill-starting-rating', path: 'purchase.trait.skill.dice' });
    const s = run(baseSheet(), skill('Haggle'));
    expect(refused(s, skill('haggle')).rule).toBe('trait-names-unique');
  });

  it('a slot definition recorded at a cost is caught by the history check', () => {
    const s = run(baseSheet(), skill('Haggle'));
    const entry = s.history.at(-1)!;
    const tampered = { ...s, history: [{ type: 'award' as const, id: 1, points: 1 }, { ...entry, id: 2, cost: 1, award: 1 }] };
    expect(checkCreation(tampered, core).errors.map((e) => e.rule)).toContain('purchase-cost');
  });

  it('traits bought with development points do not take slots; slot traits count as created', () => {
    const s = run(baseSheet(), { type: 'award', points: 1 }, spend({ kind: 'skill', skill: { name: 'Lore', attribute: 'knowledge', dice: 2 } }), skill('Haggle'));
    expect(unspentSlots(s, core)?.skills).toBe(4);
    expect(checkCreation(s, core).errors).toEqual([]);
    const undone = run(s, { type: 'undo' });
    expect(undone.skills.map((x) => x.name)).toEqual(['Lore']);
    expect(unspentSlots(undone, core)?.skills).toBe(5);
  });
});

// ---------------------------------------------------------------------------------------------

const attr = fc.constantFrom('competence', 'prowess', 'cunning', 'power', 'knowledge', 'stature');
const purchaseArb: fc.Arbitrary<Purchase> = fc.oneof(
  attr.map((attribute) => ({ kind: 'attribute' as const, attribute })),
  fc.constantFrom('Lore', 'Sword', 'Climb').map((name) => ({ kind: 'skill' as const, skill: { name, attribute: 'cunning' as const, dice: 2 } })),
  fc.constant({ kind: 'prowess-pool' as const }),
  fc.record({ skill: fc.constantFrom('Dodge', 'Block', 'Sword', 'Haggle'), dice: fc.integer({ min: 1, max: 3 }) }).map((r) => ({ kind: 'assign-dice' as const, ...r })),
  fc.record({ name: fc.constantFrom('Grit', 'Aim'), quality: fc.boolean(), conditional: fc.constantFrom([], ['at night']) }).map((r) => ({
    kind: 'special-ability' as const,
    ability: { name: r.name, conditional: [...r.conditional], culture: false, quality: r.quality, upgrades: 0, effect: { type: 'described' as const } },
  })),
  fc.constantFrom('Grit', 'Aim', 'Silver Tongue').map((ability) => ({ kind: 'special-ability-upgrade' as const, ability })),
  fc.constantFrom('Grit', 'Aim').map((ability) => ({ kind: 'quality' as const, ability })),
  fc.constantFrom('Bolt', 'Veil').map((name) => ({ kind: 'power' as const, power: { name, duration: 'instant' as const, targets: 1, hits: 1, upgrades: 0 } })),
  fc.record({ power: fc.constantFrom('Bolt', 'Veil'), improve: fc.constantFrom('targets' as const, 'hits' as const, 'other' as const) }).map((r) => ({ kind: 'power-upgrade' as const, ...r })),
  fc.constantFrom('Elvish', 'Trade').map((name) => ({ kind: 'talent' as const, talent: { name, kind: 'language' as const, native: false, uses: 1, dice: 1, resourceCap: 1 } })),
  fc.constant({ kind: 'hit' as const }),
  fc
    .shuffledSubarray(['competence', 'prowess', 'cunning', 'power', 'knowledge', 'stature'] as const, { minLength: 6, maxLength: 6 })
    .map(([a, b, c, d, e, f]) => ({ kind: 'priorities' as const, priorities: { first: [a!, b!] as [typeof a & string, typeof a & string], second: [c!, d!] as [typeof a & string, typeof a & string], third: e!, handicap: f! } })),
  fc.constantFrom('Haggle', 'Sword').map((name) => ({ kind: 'unspent-slot' as const, trait: { type: 'skill' as const, skill: { name, attribute: 'competence' as const, dice: 2 } } })),
  fc.constantFrom('Grit', 'Omen').map((name) => ({
    kind: 'unspent-slot' as const,
    trait: { type: 'special-ability' as const, ability: { name, conditional: [], culture: false, quality: false, upgrades: 0, effect: { type: 'described' as const } } },
  })),
  fc.constantFrom('Ward', 'Veil').map((name) => ({ kind: 'unspent-slot' as const, trait: { type: 'power' as const, power: { name, duration: 'maintain' as const, targets: 1, hits: 0, upgrades: 0 } } })),
);
const commandArb: fc.Arbitrary<AdvancementCommand> = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }).map((points) => ({ type: 'award' as const, points })) },
  { weight: 6, arbitrary: purchaseArb.map((purchase) => ({ type: 'spend' as const, purchase })) },
  { weight: 1, arbitrary: fc.constant({ type: 'undo' as const }) },
);

describe('advancement properties', () => {
  const start = () => loadExample('post-civil-war-entrepreneur.yaml');
  // Priorities may change at this table, so that the random commands reach every purchase kind.
  const core = tableOptions('core-2011', { prioritiesChangeable: true });

  it('spend then undo returns the identical sheet (history aside, which only grows)', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 8 }), purchaseArb, (setup, purchase) => {
        let s = start();
        for (const c of setup) {
          const r = advance(s, c, core);
          if (r.ok) s = r.sheet;
        }
        const r = advance(s, { type: 'spend', purchase }, core);
        if (!r.ok) return true;
        const u = advance(r.sheet, { type: 'undo' }, core);
        expect(u.ok).toBe(true);
        if (!u.ok) return false;
        expect(withoutHistory(u.sheet)).toEqual(withoutHistory(s));
        expect(u.sheet.history.slice(0, s.history.length)).toEqual(s.history);
        expect(u.sheet.history).toHaveLength(s.history.length + 2);
        return true;
      }),
      { numRuns: 150 },
    );
  });

  it('any sequence of accepted commands keeps a legal sheet legal, and refusals change nothing', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 15 }), (commands) => {
        let s = start();
        for (const c of commands) {
          const copy = structuredClone(s);
          const r = advance(s, c, core);
          expect(s).toEqual(copy);
          if (r.ok) {
            s = r.sheet;
            const report = checkCreation(s, core);
            expect(report.errors).toEqual([]);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('evolve applied to decided entries is a fold: replaying the history from creation gives the same sheet', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 10 }), (commands) => {
        let s = start();
        for (const c of commands) {
          const r = advance(s, c, core);
          if (r.ok) s = r.sheet;
        }
        let replay = start();
        for (const entry of s.history) replay = evolveAdvancement(replay, entry);
        expect(replay).toEqual(s);
      }),
      { numRuns: 80 },
    );
  });
});
