import { poolDice } from '@personae/core';
import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { givenDice, seededDice } from '@personae/dice';
import { decideEncounter, evolveEncounter, initialEncounter, parseEncounterCommand, viewEncounter, type LucidityCommandInput } from '@personae/lucidity';
import { canInspire, rollDraftScores, rollOddsFor, typedDicePools, type LucidityView } from '../src/rulesets/lucidity/model';

// Dice typed in from physical dice on the Lucidity page ("Buffs and Breaks": the d6s of the side left
// after cancelling). The server checks them again; the page names a typing mistake before sending.
/** A bard (party) and a wolf (foe) added by the GM and the encounter started; the initiative d20s typed in: the bard's 20, the wolf's 1. */
function bardMeetsWolf(bard: Record<string, unknown>, wolf: Record<string, unknown>) {
  const gm: Actor = { role: 'gm', participantId: 'gm' };
  let s = initialEncounter();
  for (const raw of [
    { type: 'add', id: 'bard', side: 'party', statBlock: bard },
    { type: 'add', id: 'wolf', side: 'foe', statBlock: wolf },
    { type: 'start' },
  ] as LucidityCommandInput[]) {
    const parsed = parseEncounterCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const dice = poolDice(raw.type === 'start' ? { 'initiative:bard': [20], 'initiative:wolf': [1] } : {}, seededDice(1));
    s = decideEncounter(s, parsed.command, { actor: gm, dice, now: '2026-01-01T00:00:00Z' }).reduce(evolveEncounter, s);
  }
  return s;
}

describe('Lucidity page: physical dice typed in', () => {
  const empty = { d20: '', d6: '', damage: '' };
  it('empty boxes leave every die to the server', () => {
    expect(typedDicePools(empty, 1, true)).toEqual({ pools: {} });
  });
  it('a d20, buff d6s when buffs are left, and damage dice for an attack', () => {
    expect(typedDicePools({ d20: '14', d6: '5, 2', damage: '6' }, 2, true)).toEqual({ pools: { d20: [14], buffs: [5, 2], damage: [6] } });
  });
  it('the d6s are break dice when breaks are left; a roll takes no damage dice', () => {
    expect(typedDicePools({ d20: '3', d6: '4', damage: '6' }, -1, false)).toEqual({ pools: { d20: [3], breaks: [4] } });
  });
  it('names the box and the value it refuses', () => {
    expect(typedDicePools({ ...empty, d20: '21' }, 0, false)).toEqual({ error: 'd20: "21" is not a d20 result (1 to 20)' });
    expect(typedDicePools({ ...empty, d20: '4 5' }, 0, false)).toEqual({ error: 'd20: one d20 result, not 2' });
    expect(typedDicePools({ ...empty, d6: '7' }, -2, false)).toEqual({ error: 'break d6s: "7" is not a d6 result (1 to 6)' });
    expect(typedDicePools({ ...empty, d6: '3' }, 0, false)).toEqual({ error: 'buff d6s: the buffs and breaks cancel out, so no d6 is rolled' });
  });
});

describe('Lucidity builder: rolled scores ("Generating Attributes": 4d6, the lowest dropped, 7 times)', () => {
  it('puts the seven scores on the attributes in order, showing the dice', () => {
    // STR 6 5 4 1 -> 15; DEX 3 3 3 3 -> 9; CON 6 6 6 6 -> 18; KNO 1 1 1 1 -> 3; AWA 2 4 6 1 -> 12; WIL 5 5 1 2 -> 12; CHA 4 4 4 2 -> 12
    const faces = [6, 5, 4, 1, 3, 3, 3, 3, 6, 6, 6, 6, 1, 1, 1, 1, 2, 4, 6, 1, 5, 5, 1, 2, 4, 4, 4, 2];
    const r = rollDraftScores(givenDice(faces));
    expect(r.scores).toEqual({ STR: 15, DEX: 9, CON: 18, KNO: 3, AWA: 12, WIL: 12, CHA: 12 });
    expect(r.shown.startsWith('STR 6+5+4+1 - 1 = 15; DEX 3+3+3+3 - 3 = 9')).toBe(true);
  });
});

describe('Lucidity page: the odds of a roll with and without Inspirator ("Creating Traits")', () => {
  const GM: Actor = { role: 'gm', participantId: 'gm' };
  function view(traits: string[]): LucidityView {
    const s = bardMeetsWolf({ name: 'Bard', traits, health: 8, attributes: { CHA: 3, AWA: 1 } }, { name: 'Wolf', health: 8 });
    return viewEncounter(s, GM) as unknown as LucidityView;
  }
  it('d20 + AWA 1 against 15: 6/20 without (d20 of 15 or more), 9/20 with CHA +3 (12 or more); offered only to a character with Inspirator unused', () => {
    const v = view(['Inspirator']);
    const q = { actor: 'bard', attribute: 'AWA' as const, skill: '', target: 15, buffs: 0, breaks: 0 };
    expect(rollOddsFor(v, q)).toBeCloseTo(6 / 20, 15);
    expect(rollOddsFor(v, { ...q, inspire: true })).toBeCloseTo(9 / 20, 15);
    expect(canInspire(v.combatants.find((c) => c.id === 'bard')!.combatant)).toBe(true);
    expect(canInspire(view([]).combatants.find((c) => c.id === 'bard')!.combatant)).toBe(false);
  });
});

describe('Lucidity page: the attack odds without each choice and with each one still open ("Buffs and Breaks")', () => {
  const GM: Actor = { role: 'gm', participantId: 'gm' };
  /** A bard with Inspirator, a dagger and a club, against a wolf (Defense 13, Protection 1). */
  function bardAgainstWolf() {
    const s = bardMeetsWolf(
      { name: 'Bard', traits: ['Inspirator'], health: 8, lucidity: 6, attributes: { CHA: 3, DEX: 1, STR: 2 }, weapons: [{ name: 'Dagger', damage: '1d4', attribute: 'DEX' }, { name: 'Club', damage: '1d6', attribute: 'STR' }] },
      { name: 'Wolf', health: 8, defense: 13, protection: 1 },
    );
    const v = viewEncounter(s, GM) as unknown as LucidityView;
    return { s, v };
  }
  it("are the library's exact odds of the attack as changed, worked out from the encounter itself", async () => {
    const { attackChoiceOddsFor } = await import('../src/rulesets/lucidity/model');
    const { declaredAttackOdds, resolveOptions } = await import('@personae/lucidity');
    const { s, v } = bardAgainstWolf();
    const q = { actor: 'bard', target: 'wolf', weapon: 'Dagger', buffs: 1, breaks: 2 };
    const exact = (changes: Partial<typeof q> & { inspire?: boolean; useLucidity?: boolean }) => declaredAttackOdds(s.game, { ...q, ...changes }, resolveOptions('standard'));
    const choices = attackChoiceOddsFor(v, q);
    expect(choices.map((c) => c.label)).toEqual(['without the buff', 'with one more buff', 'without the 2 breaks', 'with Inspirator', 'with a Lucidity roll in place of the d20', 'with Club instead', 'with Unarmed strike instead']);
    const at = (label: string) => choices.find((c) => c.label === label)!.odds;
    expect(at('without the buff')).toEqual(exact({ buffs: 0 }));
    expect(at('with one more buff')).toEqual(exact({ buffs: 2 }));
    expect(at('without the 2 breaks')).toEqual(exact({ breaks: 0 }));
    expect(at('with Inspirator')).toEqual(exact({ inspire: true }));
    expect(at('with Club instead')).toEqual(exact({ weapon: 'Club' }));
    expect(at('with a Lucidity roll in place of the d20')).toEqual(exact({ useLucidity: true }));
    expect(exact({ useLucidity: true })!.lucidityTarget).toBeDefined();
    // The attack declared with the Lucidity roll offers the d20 attack back.
    const lucid = attackChoiceOddsFor(v, { ...q, useLucidity: true });
    expect(lucid.find((c) => c.label === 'without the Lucidity roll (the d20 attack)')!.odds).toEqual(exact({}));
    // Inspirator adds CHA 3 to the d20: the attack hits more often with it.
    expect((at('with Inspirator') as { hit: number }).hit).toBeGreaterThan(exact({})!.hit);
  });

  it("compare the rule sets: the attack under the table's rules and each preset, as the library works it out", async () => {
    const { presetAttackOddsFor, lucidityChartGroups } = await import('../src/rulesets/lucidity/model');
    const { declaredAttackOdds, resolveOptions, PRESETS } = await import('@personae/lucidity');
    const { s, v } = bardAgainstWolf();
    const q = { actor: 'bard', target: 'wolf', weapon: 'Club', buffs: 0, breaks: 0 };
    const entries = presetAttackOddsFor(v, q)!;
    expect(entries.map((e) => e.label)).toEqual(['this table (standard)', ...PRESETS]);
    for (const [i, preset] of PRESETS.entries()) expect(entries[i + 1]!.odds).toEqual(declaredAttackOdds(s.game, q, resolveOptions(preset)));
    // as-written takes Protection off twice: never more damage than the standard reading.
    const atLeast = lucidityChartGroups(entries, 'damage-at-least');
    for (const g of atLeast) expect(g.values[2]!).toBeLessThanOrEqual(g.values[1]! + 1e-12);
    const [hit, any] = lucidityChartGroups(entries, 'outcomes');
    expect(hit!.values).toEqual(entries.map((e) => e.odds.hit));
    expect(any!.values[1]).toBeCloseTo(atLeast[0]!.values[1]!, 12);
  });
});
