import { describe, expect, it } from 'vitest';
import { checkDraft, conditionNotes, confusedAttackText, describeD100Event, draftSheet, newD100Draft, parseDice } from '../src/rulesets/d100/model';

describe('d100 physical dice as typed (d100-combat-rules.txt, "How Attacks Work")', () => {
  it('reads d100 results in order, "00" as 100, spaces or commas between', () => {
    expect(parseDice('23 70, 00')).toEqual({ dice: [23, 70, 100] });
    expect(parseDice('  ')).toEqual({ dice: [] });
  });
  it('names a word that is not a d100 result', () => {
    expect(parseDice('23 0')).toEqual({ error: 'dice: "0" is not a d100 result (1 to 100; "00" is 100)' });
    expect(parseDice('101')).toEqual({ error: 'dice: "101" is not a d100 result (1 to 100; "00" is 100)' });
    expect(parseDice('2x')).toMatchObject({ error: expect.stringContaining('"2x"') });
  });
});

describe('d100 character cards: the conditions the seed names outside the ailment table', () => {
  const none = { defending: false, helpless: false, bloodLoss: false, prone: false, grappledBy: null, toughnessDecay: 0, difficultTerrain: 0, position: null, protecting: null, mustFlee: false };
  const name = (id: string) => id.toUpperCase();
  it('the altitude band and a fall (the flight passage after "Difficult Terrain")', () => {
    expect(conditionNotes({ conditions: { ...none, altitude: 'high' } }, name)).toEqual(['flying High']);
    expect(conditionNotes({ conditions: { ...none, altitude: 'low', falling: 'high' } }, name)).toEqual(['flying Low', 'falling (from High)']);
    expect(conditionNotes({ conditions: { ...none, altitude: 'ground' } }, name)).toEqual([]);
  });
  it('Difficult Terrain with its kind, number and damage; an old number alone is Uneven/Slippery', () => {
    expect(conditionNotes({ conditions: { ...none, difficultTerrain: 2, terrain: 'damaging', terrainDamage: 3 } }, name)).toEqual(['Damaging terrain 2 (damage 3)']);
    expect(conditionNotes({ conditions: { ...none, difficultTerrain: 1 } }, name)).toEqual(['Uneven/Slippery terrain 1']);
  });
  it('unconscious (Fatigue and Exhaustion) rather than merely helpless; bleeding; protecting by name', () => {
    expect(conditionNotes({ conditions: { ...none, helpless: true, unconscious: 700, bloodLoss: true, protecting: 'b' } }, name)).toEqual(['unconscious', 'bleeding', 'protects B']);
  });
});

describe('d100 builder drafts: flight and Unnatural Toughness', () => {
  it('leaves both out when unset, and the sheet check reads them when set', () => {
    const d = newD100Draft();
    expect(draftSheet(d)).not.toHaveProperty('flight');
    expect(draftSheet(d)).not.toHaveProperty('unnaturalToughness');
    const r = checkDraft({ ...d, name: 'Aigis', scores: { ...d.scores, toughness: 40 }, flight: true, unnaturalToughness: 2 });
    expect(r.ok).toBe(true);
    expect(r.derived!.defense.body).toBe(6);
    expect(checkDraft({ ...d, name: 'Aigis', unnaturalToughness: 11 }).problems[0]).toMatchObject({ field: 'unnaturalToughness', value: 11 });
  });
});

/** Makoto and the Pixie of the examples in an encounter, and the GM's view of it. */
async function makotoAgainstPixie() {
  const { readFileSync } = await import('node:fs');
  const { parse } = await import('yaml');
  const d100 = await import('@personae/d100');
  const { seededDice } = await import('@personae/dice');
  const gm = { role: 'gm' as const, participantId: 'gm' };
  let state = d100.initialEncounter();
  for (const [id, file] of [['makoto', 'evoker-makoto.yaml'], ['pixie', 'shadow-pixie.yaml']] as const) {
    const command = d100.encounterDecider.parseCommand({ type: 'add-character', id, sheet: parse(readFileSync(new URL(`../../../examples/d100/${file}`, import.meta.url), 'utf8')) });
    if (!command.ok) throw new Error(command.error.message);
    for (const e of d100.decideEncounter(state, command.command, { actor: gm, dice: seededDice(1), now: '1970-01-01T00:00:00.000Z' })) state = d100.evolveEncounter(state, e);
  }
  return { state, view: d100.viewEncounter(state, gm) };
}

describe('d100 odds for the choices of a declared attack', () => {
  it('are the library\'s exact odds of the attack without each choice and with each one still open', async () => {
    const d100 = await import('@personae/d100');
    const { choiceOddsFor, oddsFor } = await import('../src/rulesets/d100/model');
    const { state, view } = await makotoAgainstPixie();
    const decl = { attacker: 'makoto', defender: 'pixie', weapon: 'Naginata', called: 'head', advantages: 2, disadvantages: 1 };
    const exact = (changes: Record<string, unknown>, fateReroll = false) => {
      const { called, ...rest } = { ...decl, ...changes } as typeof decl;
      const cmd = d100.encounterDecider.parseCommand({
        type: 'attack', attacker: rest.attacker, defender: rest.defender, weapon: rest.weapon, ...(called ? { called } : {}),
        advantages: rest.advantages ? [{ label: 'Situation', count: rest.advantages }] : [],
        disadvantages: rest.disadvantages ? [{ label: 'Situation', count: rest.disadvantages }] : [],
      });
      if (!cmd.ok || cmd.command.type !== 'attack') throw new Error('not an attack');
      return d100.declaredAttackOdds(state, cmd.command, fateReroll);
    };
    const choices = choiceOddsFor(view, decl);
    expect(choices.map((c) => c.label)).toEqual(['without the 2 Advantages', 'with one more Advantage', 'without the Disadvantage', 'without calling the head (the location rolled)', 'with a Fate Point to reroll a miss', 'with Agi instead']);
    const byLabel = Object.fromEntries(choices.map((c) => [c.label, c.odds]));
    expect(byLabel['without the 2 Advantages']).toEqual(exact({ advantages: 0 }));
    expect(byLabel['with one more Advantage']).toEqual(exact({ advantages: 3 }));
    expect(byLabel['without the Disadvantage']).toEqual(exact({ disadvantages: 0 }));
    expect(byLabel['without calling the head (the location rolled)']).toEqual(exact({ called: undefined }));
    expect(byLabel['with Agi instead']).toEqual(exact({ weapon: 'Agi' }));
    expect(byLabel['with a Fate Point to reroll a miss']).toEqual(exact({}, true));
    // Each Advantage adds 10 to the attack test ("How Attacks Work"): fewer of them never hit more often.
    const declared = oddsFor(view, decl) as { hit: number };
    expect((byLabel['without the 2 Advantages'] as { hit: number }).hit).toBeLessThanOrEqual(declared.hit);
    expect((byLabel['with one more Advantage'] as { hit: number }).hit).toBeGreaterThanOrEqual(declared.hit);
    // Only a miss is rolled again, and a hit stays a hit: the reroll never lowers the chance to hit.
    expect((byLabel['with a Fate Point to reroll a miss'] as { hit: number }).hit).toBeGreaterThan(declared.hit);
  });
});

describe('d100 rule sets compared on the encounter page', () => {
  it("gives the attack under the table's rules and each preset, as the library works it out, and cumulative wound views that add up", async () => {
    const d100 = await import('@personae/d100');
    const { presetOddsFor, d100ChartGroups } = await import('../src/rulesets/d100/model');
    const { state, view } = await makotoAgainstPixie();
    const decl = { attacker: 'makoto', defender: 'pixie', weapon: 'Naginata' };
    const entries = presetOddsFor(view, decl)!;
    expect(entries.map((e) => e.label)).toEqual(['this table (seed)', ...d100.PRESET_NAMES]);
    const cmd = d100.encounterDecider.parseCommand({ type: 'attack', attacker: 'makoto', defender: 'pixie', weapon: 'Naginata', advantages: [], disadvantages: [] });
    if (!cmd.ok || cmd.command.type !== 'attack') throw new Error('not an attack');
    for (const [i, preset] of d100.PRESET_NAMES.entries()) expect(entries[i + 1]!.odds).toEqual(d100.declaredAttackOdds({ ...state, options: d100.resolveOptions(preset) }, cmd.command));
    const outcomes = d100ChartGroups(entries, 'outcomes');
    expect(outcomes.find((g) => g.label === 'Hit')!.values).toEqual(entries.map((e) => e.odds.hit));
    const atLeast = d100ChartGroups(entries, 'wounds-at-least');
    const atMost = d100ChartGroups(entries, 'wounds-at-most');
    // At least k and at most k - 1 wounds are complementary.
    for (const [k, g] of atLeast.entries()) for (const [i, v] of g.values.entries()) expect(v + atMost[k]!.values[i]!).toBeCloseTo(1, 12);
  });
});

describe('d100 builder drafts: Social Links for a Baton Pass (d100-combat-rules.txt, "Baton Pass")', () => {
  const named = { ...newD100Draft(), name: 'Makoto' };
  it('become the sheet\'s ranks by Confidant name, and none leaves the field out', () => {
    expect(draftSheet(named)).not.toHaveProperty('socialLinks');
    const d = { ...named, socialLinks: [{ name: ' Yukari ', rank: 4 }, { name: 'Junpei', rank: 1 }] };
    expect(draftSheet(d).socialLinks).toEqual({ Yukari: 4, Junpei: 1 });
    expect(checkDraft(d).ok).toBe(true);
  });
  it('a rank out of 0 to 10, a row without a name and a name given twice are named on their row', () => {
    const r = checkDraft({ ...named, socialLinks: [{ name: 'Yukari', rank: 11 }, { name: '', rank: 2 }, { name: 'Junpei', rank: 1 }, { name: 'Junpei', rank: 3 }] });
    expect(r.ok).toBe(false);
    expect(r.problems.map((p) => [p.field, p.value])).toEqual([
      ['socialLinks.1.name', ''],
      ['socialLinks.3.name', 'Junpei'],
      ['socialLinks.0.rank', 11],
    ]);
    expect(r.problems.every((p) => (p.rule as { section?: string } | undefined)?.section === 'Baton Pass')).toBe(true);
  });
});

describe('d100 tests and Fate Point spends from the encounter page', () => {
  it('a skill test targets the governing Score plus the training, and its odds are the library\'s', async () => {
    const d100 = await import('@personae/d100');
    const { testCommand, testOddsFor } = await import('../src/rulesets/d100/model');
    const { state, view } = await makotoAgainstPixie();
    // Melee (Parry), trained: Melee 45 + 10 = 55
    const decl = { who: 'makoto', score: 'melee' as const, skill: 0, advantages: 1 };
    const command = testCommand(view, decl);
    expect(command).toMatchObject({ type: 'test', who: 'makoto', score: 'melee', target: 55, label: 'Melee (Parry)', advantages: [{ label: 'Situation', count: 1 }] });
    const parsed = d100.commandSchema.parse(command);
    if (parsed.type !== 'test') throw new Error('not a test');
    expect(testOddsFor(view, decl)).toEqual(d100.declaredTestOdds(state, parsed));
    // 55 + 10 = 65: the rolls 01 to 65 succeed, 01 to 10 are Critical
    expect(testOddsFor(view, decl)).toMatchObject({ target: 65, success: 0.65, critical: 0.1 });
    expect(testCommand(view, { who: 'makoto', score: 'agility', skill: 9 })).toEqual({ error: "skill: 9 is not one of Makoto's skills" });
  });

  it('offers the spends the moment allows: a Reroll only of the spender\'s own test just made, Remove Ailment of an ailment it has', async () => {
    const d100 = await import('@personae/d100');
    const { seededDice } = await import('@personae/dice');
    const { fateOffers, fateCommand } = await import('../src/rulesets/d100/model');
    const gm = { role: 'gm' as const, participantId: 'gm' };
    let { state } = await makotoAgainstPixie();
    const run = (command: Record<string, unknown>, dice: number[] = [50]) => {
      const parsed = d100.encounterDecider.parseCommand(command);
      if (!parsed.ok) throw new Error(parsed.error.message);
      let i = 0;
      for (const e of d100.decideEncounter(state, parsed.command, { actor: gm, dice: { ...seededDice(1), die: () => dice[i++] ?? 50 }, now: '1970-01-01T00:00:00.000Z' })) state = d100.evolveEncounter(state, e);
    };
    const offers = () => {
      const view = d100.viewEncounter(state, gm);
      return fateOffers(view, view.characters.find((c) => c.id === 'makoto')!);
    };
    // whole and well: only the Advantages (two by option fatePointAdvantages)
    expect(offers().map((o) => o.spend)).toEqual(['advantage']);
    expect(offers()[0]!.label).toBe("2 Advantages on Makoto's next test");
    run({ type: 'test', who: 'makoto', score: 'agility' }, [90]);
    run({ type: 'inflict-ailment', target: 'makoto', ailment: 'burning' });
    // the last command is the ailment, not Makoto's test: no Reroll
    expect(offers().map((o) => o.spend)).toEqual(['advantage', 'remove-ailment']);
    run({ type: 'test', who: 'makoto', score: 'agility' }, [90]);
    const now = offers();
    expect(now.map((o) => o.spend)).toEqual(['advantage', 'reroll', 'remove-ailment']);
    const reroll = now.find((o) => o.spend === 'reroll')!;
    expect(fateCommand('makoto', reroll)).toEqual({ type: 'spend-fate', who: 'makoto', spend: 'reroll', test: 'test' });
    // what the page sends is what the table takes: the Reroll rolls the test again
    run(fateCommand('makoto', reroll), [20]);
    expect(state.fighters.makoto!.fate.current).toBe(2);
    // one Reroll per test: the last command is now the Reroll itself
    expect(offers().map((o) => o.spend)).toEqual(['advantage', 'remove-ailment']);
    run(fateCommand('makoto', offers().find((o) => o.spend === 'remove-ailment')!));
    expect(state.fighters.makoto!.ailments).toEqual([]);
    run({ type: 'spend-fate', who: 'makoto', spend: 'advantage' });
    // the last point spent: nothing more is offered
    expect(state.fighters.makoto!.fate.current).toBe(0);
    expect(offers()).toEqual([]);
  });

  it('Block Heavy Wound is declared ahead: the field shows the count standing and goes up to the Fate Points; what it sends the table takes', async () => {
    const d100 = await import('@personae/d100');
    const { seededDice } = await import('@personae/dice');
    const { conditionNotes, fateBlockCommand, fateBlockField } = await import('../src/rulesets/d100/model');
    const gm = { role: 'gm' as const, participantId: 'gm' };
    let { state } = await makotoAgainstPixie();
    const makoto = () => d100.viewEncounter(state, gm).characters.find((c) => c.id === 'makoto')!;
    expect(fateBlockField(makoto())).toEqual({ label: 'Block Heavy wounds it incurs', value: 0, max: 3 });
    const parsed = d100.encounterDecider.parseCommand(fateBlockCommand('makoto', 2));
    if (!parsed.ok) throw new Error(parsed.error.message);
    for (const e of d100.decideEncounter(state, parsed.command, { actor: gm, dice: seededDice(1), now: '1970-01-01T00:00:00.000Z' })) state = d100.evolveEncounter(state, e);
    expect(fateBlockField(makoto())).toMatchObject({ value: 2, max: 3 });
    expect(conditionNotes(makoto(), (id) => id)).toContain('blocks up to 2 Heavy wound(s) with Fate Points');
  });
});

describe("d100 log: the encounter's start as a player receives it with a hidden character left out", () => {
  it('names the characters shown in their order, the Surprised among them, and no roll-off where none is shown', () => {
    const order = [
      { id: 'a', initiative: 4, score: 40, fate: 0, rollOff: [] },
      { id: 'c', initiative: 3, score: 30, fate: 0, rollOff: [] },
    ];
    const text = describeD100Event({ type: 'encounter-started', data: { group: 1, order, dice: [], surprised: ['c'] } }, (id) => id.toUpperCase());
    expect(text).toBe('initiative: (Surprised: C) A 4, C 3');
  });
});

describe('d100 Confused panel: whom the owed attack is on (the ailments passage, Confused; option confusedBands)', () => {
  const name = (id: string) => id.toUpperCase();
  it('the nearest at 4+ DoF, one of several the GM names, itself at 5+, and under confusedBands=both the nearest then itself', () => {
    expect(confusedAttackText({ who: 'b', candidates: ['c'] }, name)).toBe('the nearest character: C');
    expect(confusedAttackText({ who: 'b', candidates: ['a', 'c'] }, name)).toBe('the nearest character: one of A, C, which the GM names');
    expect(confusedAttackText({ who: 'b', candidates: ['b'] }, name)).toBe('itself');
    expect(confusedAttackText({ who: 'b', candidates: ['a'], thenItself: true }, name)).toBe('the nearest character: A, then on itself');
  });
});

describe('d100 builder drafts: a weapon\'s range and ammunition, and the size (docs/d100/sheet.md)', () => {
  const pistol = { name: 'Pistol', class: 'pistol' as const, element: 'missile', damage: 4, tier: 1 };
  it('blank numbers are left out of the sheet; set ones reach the sheet check, which reads them', () => {
    const d = { ...newD100Draft(), name: 'Junpei', size: 0, weapons: [{ ...pistol, range: 30, clip: 6, reload: 2, spareLoads: 3 }, { ...newD100Draft().weapons[0]!, clip: undefined }] };
    const sheet = draftSheet(d);
    expect(sheet).not.toHaveProperty('size');
    expect(sheet.weapons).toEqual([{ ...pistol, range: 30, clip: 6, reload: 2, spareLoads: 3 }, { name: 'Knife', class: 'melee', element: 'melee', damage: 4, tier: 1 }]);
    expect(checkDraft(d).ok).toBe(true);
    expect(draftSheet({ ...d, size: -2 }).size).toBe(-2);
    expect(checkDraft({ ...d, size: -2 }).ok).toBe(true);
  });
  it("the sheet check's own problems land on the field: a clip on a melee weapon, a reload without a clip, a size past 4", () => {
    const d = { ...newD100Draft(), name: 'Junpei' };
    expect(checkDraft({ ...d, weapons: [{ ...d.weapons[0]!, clip: 6 }] }).problems).toEqual([expect.objectContaining({ field: 'weapons.0.clip', message: 'weapons.0.clip: only a Ballistic weapon (pistol, basic, heavy) is reloaded, not the melee weapon "Knife"' })]);
    expect(checkDraft({ ...d, weapons: [{ ...pistol, reload: 2 }] }).problems).toEqual([expect.objectContaining({ field: 'weapons.0.clip', message: 'weapons.0.clip: "Pistol" gives a reload or spare loads but no clip (the shots one load holds)' })]);
    expect(checkDraft({ ...d, size: 5 }).problems).toEqual([expect.objectContaining({ field: 'size', value: 5 })]);
  });
  it('a Burst rating, a long-ranged Ballistic weapon and a magic weapon\'s Critical ailment reach the sheet; left unset they are left out', () => {
    const bufu = { name: 'Bufu', class: 'magic' as const, element: 'ice', damage: 6, tier: 1 };
    const d = { ...newD100Draft(), name: 'Junpei', weapons: [{ ...pistol, burst: 2, longRange: true }, { ...bufu, criticalAilment: 'frozen' }, { ...pistol, name: 'Spare', burst: undefined, longRange: undefined }] };
    expect(draftSheet(d).weapons).toEqual([{ ...pistol, burst: 2, longRange: true }, { ...bufu, criticalAilment: 'frozen' }, { ...pistol, name: 'Spare' }]);
    expect(checkDraft(d).ok).toBe(true);
  });
  it("the sheet check's problems for them land on their fields: a Burst on a melee weapon, a long-ranged magic weapon, an ailment not in the table", () => {
    const d = { ...newD100Draft(), name: 'Junpei' };
    const knife = d.weapons[0]!;
    expect(checkDraft({ ...d, weapons: [{ ...knife, burst: 2 }] }).problems).toEqual([expect.objectContaining({ field: 'weapons.0.burst', message: 'weapons.0.burst: the Burst quality belongs to ranged weapons, not to the melee weapon "Knife"' })]);
    expect(checkDraft({ ...d, weapons: [{ ...knife, class: 'magic' as const, longRange: true }] }).problems).toEqual([expect.objectContaining({ field: 'weapons.0.longRange' })]);
    expect(checkDraft({ ...d, weapons: [{ ...pistol, burst: 0 }] }).problems).toEqual([expect.objectContaining({ field: 'weapons.0.burst' })]);
    expect(checkDraft({ ...d, weapons: [{ ...knife, criticalAilment: 'sleepy' }] }).problems).toEqual([expect.objectContaining({ field: 'weapons.0.criticalAilment' })]);
  });
});

describe('d100 Reload, Scatter and a resisted ailment from the encounter page', () => {
  it('the fighter panel counts the loaded shots; Reload, Scatter and Inflict send what the table takes, and their dice boxes are the pools they roll', async () => {
    const d100 = await import('@personae/d100');
    const { givenDice } = await import('@personae/dice');
    const { ammunitionNotes, inflictCommand, mayScatter, reloadChoices, reloadCommand } = await import('../src/rulesets/d100/model');
    const { poolBoxes } = await import('../src/rulesets/d100/dice');
    const gm = { role: 'gm' as const, participantId: 'gm', displayName: null };
    const p1 = { role: 'player' as const, participantId: 'p1' };
    let state = d100.initialEncounter();
    const run = (command: Record<string, unknown>, dice: number[] = [], actor: typeof gm | typeof p1 = gm) => {
      const parsed = d100.encounterDecider.parseCommand(command);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const source = givenDice(dice);
      for (const e of d100.decideEncounter(state, parsed.command, { actor, dice: { kind: 'seeded', die: (sides) => source.die(sides) }, now: '' })) state = d100.evolveEncounter(state, e);
    };
    const scores = (agility: number) => ({ ...newD100Draft().scores, ballistic: 40, agility });
    // the sheets as the builder sends them: A (p1) acts first, Agility 40 against 20
    const a = { ...newD100Draft(), name: 'A', scores: scores(40), weapons: [{ name: 'Pistol', class: 'pistol' as const, element: 'missile', damage: 4, tier: 1, clip: 1, reload: 2, spareLoads: 1 }] };
    const b = { ...newD100Draft(), name: 'B', kind: 'shadow' as const, side: 'shadows', scores: scores(20) };
    run({ type: 'add-character', id: 'a', sheet: draftSheet(a), controller: 'p1' });
    run({ type: 'add-character', id: 'b', sheet: draftSheet(b) });
    run({ type: 'start' });
    const view = () => d100.viewEncounter(state, gm);
    const shown = (id: string) => view().characters.find((c) => c.id === id)!;
    expect(ammunitionNotes(shown('a'))).toEqual(['Pistol 1/1 shots, 1 spare load']);
    expect(ammunitionNotes(shown('b'))).toEqual([]);
    // full: nothing to reload; no attack made yet: nothing to scatter
    expect(reloadChoices(shown('a'))).toEqual([]);
    expect(mayScatter(view())).toBe(false);
    // Ballistic 40 rolls 30, B evades with 50, body 50: the one shot is fired
    run({ type: 'attack', attacker: 'a', defender: 'b', weapon: 'Pistol' }, [30, 50, 50], p1);
    expect(ammunitionNotes(shown('a'))).toEqual(['Pistol 0/1 shots, 1 spare load']);
    expect(reloadChoices(shown('a'))).toEqual([{ value: 'Pistol', label: 'Pistol (0/1 shots)' }]);
    // the GM may rule the attack just made scatters, once
    expect(mayScatter(view())).toBe(true);
    run({ type: 'scatter' });
    expect(mayScatter(view())).toBe(false);
    run({ type: 'end-turn' });
    run({ type: 'end-turn' });
    // a hurried Reload rolls the reloader's own die; the plain one rolls none
    expect(poolBoxes(view(), gm, reloadCommand('a', 'Pistol', 'ballistics')).map((x) => x.name)).toEqual(['actor']);
    expect(poolBoxes(view(), gm, reloadCommand('a', 'Pistol', '')).map((x) => x.name)).toEqual([]);
    expect(reloadCommand('a', 'Pistol', '')).toEqual({ type: 'reload', who: 'a', weapon: 'Pistol' });
    run(reloadCommand('a', 'Pistol', ''), [], p1);
    expect(ammunitionNotes(shown('a'))).toEqual(['Pistol 0/1 shots, 1 spare load, reloading (1 Action left)']);
    expect(reloadChoices(shown('a'))).toEqual([{ value: 'Pistol', label: 'Pistol (Reload under way, 1 Action left)' }]);
    // the resistance test is the target's die; without resist the command is as before
    expect(inflictCommand('b', 'burning', false)).toEqual({ type: 'inflict-ailment', target: 'b', ailment: 'burning' });
    expect(poolBoxes(view(), gm, inflictCommand('b', 'burning', true), (n) => n.startsWith('target:')).map((x) => x.name)).toEqual(['target:b']);
    run(inflictCommand('b', 'burning', true), [5]);
    expect(shown('b').ailments).toEqual([]);
    run(inflictCommand('b', 'burning', false));
    expect(shown('b').ailments.map((x) => x.name)).toEqual(['burning']);
  });
});

describe('d100 overrides of a resistance test and a hurry test (docs/d100/scenario-format.md, inflict-ailment and reload)', () => {
  it("the GM's element, Score and target go with resist only, and the table tests with them; a hurried Reload takes its own target", async () => {
    const d100 = await import('@personae/d100');
    const { givenDice } = await import('@personae/dice');
    const { inflictCommand, reloadCommand } = await import('../src/rulesets/d100/model');
    const gm = { role: 'gm' as const, participantId: 'gm', displayName: null };
    let state = d100.initialEncounter();
    const run = (command: Record<string, unknown>, dice: number[] = []) => {
      const parsed = d100.encounterDecider.parseCommand(command);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const source = givenDice(dice);
      const events = d100.decideEncounter(state, parsed.command, { actor: gm, dice: { kind: 'seeded', die: (sides) => source.die(sides) }, now: '' });
      for (const e of events) state = d100.evolveEncounter(state, e);
      return events as readonly { type: string; data: Record<string, unknown> }[];
    };
    const scores = { ...newD100Draft().scores, ballistic: 40, agility: 40 };
    const pistol = { name: 'Pistol', class: 'pistol' as const, element: 'missile', damage: 4, tier: 1, clip: 1, reload: 3 };
    run({ type: 'add-character', id: 'a', sheet: draftSheet({ ...newD100Draft(), name: 'A', scores, weapons: [pistol] }) });
    run({ type: 'add-character', id: 'b', sheet: draftSheet({ ...newD100Draft(), name: 'B', kind: 'shadow', side: 'shadows', scores: { ...scores, agility: 30 }, affinities: { ice: 'weak' } }) });
    run({ type: 'start' });
    // blank overrides are left out; without resist none is sent, as the table refuses them there
    expect(inflictCommand('b', 'frozen', true, { element: '', score: undefined, resistTarget: undefined })).toEqual({ type: 'inflict-ailment', target: 'b', ailment: 'frozen', resist: true });
    expect(inflictCommand('b', 'frozen', false, { element: 'ice', score: 'agility', resistTarget: 70 })).toEqual({ type: 'inflict-ailment', target: 'b', ailment: 'frozen' });
    expect(() => run({ type: 'inflict-ailment', target: 'b', ailment: 'frozen', element: 'ice' })).toThrow(expect.objectContaining({ code: 'no-resistance' }));
    // a hurried Reload's target in place of the sheet's; none without the hurry test
    run({ type: 'attack', attacker: 'a', defender: 'b', weapon: 'Pistol' }, [30, 50, 50]);
    run({ type: 'end-turn' });
    run({ type: 'end-turn' });
    expect(reloadCommand('a', 'Pistol', '', 80)).toEqual({ type: 'reload', who: 'a', weapon: 'Pistol' });
    const [reloading] = run(reloadCommand('a', 'Pistol', 'ballistics', 80), [10]);
    expect(reloading!.data.hurry).toMatchObject({ skill: 'ballistics', target: 80, roll: 10, success: true });
    // Agility 30, Weak to ice: -20
    const [tested] = run(inflictCommand('b', 'frozen', true, { element: 'ice', score: 'agility' }), [95]);
    expect(tested!.data.resistance).toMatchObject({ score: 'agility', element: 'ice', target: 10, roll: 95, success: false });
    const [given] = run(inflictCommand('a', 'frozen', true, { resistTarget: 70 }), [95]);
    expect(given!.data.resistance).toMatchObject({ target: 70, roll: 95 });
  });
});

describe("d100 attack form: the weapon's range against the distance on the map (\"How Attacks Work\", Step One; U24)", () => {
  it('says the range, the metres once both are placed, and that a Ballistic attack beyond it is refused, as the table then refuses it', async () => {
    const d100 = await import('@personae/d100');
    const { attackRange } = await import('../src/rulesets/d100/model');
    const gm = { role: 'gm' as const, participantId: 'gm', displayName: null };
    let state = d100.initialEncounter();
    const run = (command: Record<string, unknown>) => {
      const parsed = d100.encounterDecider.parseCommand(command);
      if (!parsed.ok) throw new Error(parsed.error.message);
      for (const e of d100.decideEncounter(state, parsed.command, { actor: gm, dice: { kind: 'seeded', die: () => 1 }, now: '' })) state = d100.evolveEncounter(state, e);
    };
    const weapons = [
      { name: 'Pistol', class: 'pistol' as const, element: 'missile', damage: 4, tier: 1, range: 30 },
      { name: 'Spear', class: 'thrown' as const, element: 'melee', damage: 4, tier: 1, range: 10 },
      { name: 'Knife', class: 'melee' as const, element: 'melee', damage: 4, tier: 1 },
    ];
    run({ type: 'add-character', id: 'a', sheet: draftSheet({ ...newD100Draft(), name: 'A', scores: { ...newD100Draft().scores, agility: 40 }, weapons }) });
    run({ type: 'add-character', id: 'b', sheet: draftSheet({ ...newD100Draft(), name: 'B', kind: 'shadow', side: 'shadows' }) });
    run({ type: 'start' });
    const shown = (id: string) => d100.viewEncounter(state, gm).characters.find((c) => c.id === id)!;
    const [pistol, spear, knife] = weapons;
    expect(attackRange(shown('a'), shown('b'), knife)).toBeNull();
    expect(attackRange(shown('a'), shown('b'), pistol)).toEqual({ range: 30, metres: null, beyond: false, text: 'Range 30 m (not measured: both must be on the map)' });
    run({ type: 'place', target: 'a', x: 0, y: 0, elevation: 0 });
    run({ type: 'place', target: 'b', x: 20, y: 0, elevation: 0 });
    expect(attackRange(shown('a'), shown('b'), pistol)).toMatchObject({ metres: 20, beyond: false, text: 'Range 30 m; B is 20 m away' });
    run({ type: 'place', target: 'b', x: 31, y: 4, elevation: 0 });
    expect(attackRange(shown('a'), shown('b'), pistol)).toMatchObject({ metres: 31, beyond: true, text: 'Range 30 m; B is 31 m away: beyond it, the table refuses a Ballistic attack' });
    expect(() => run({ type: 'attack', attacker: 'a', defender: 'b', weapon: 'Pistol' })).toThrow(expect.objectContaining({ code: 'out-of-range' }));
    // a thrown weapon's range is shown; the table does not measure it
    expect(attackRange(shown('a'), shown('b'), spear)).toMatchObject({ beyond: false, text: 'Range 10 m; B is 31 m away (the table measures the range of Ballistic attacks only)' });
  });
});
