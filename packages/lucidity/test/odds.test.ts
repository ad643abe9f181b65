import { describe, expect, it } from 'vitest';
import { modifier, type Actor } from '@personae/core';
import { givenDice, seededDice } from '@personae/dice';
import {
  attackOdds,
  beats,
  criticalDamage,
  declaredAttackOdds,
  decideEncounter,
  declaredRollOdds,
  evolveEncounter,
  initialEncounter,
  optionsOf,
  parseEncounterCommand,
  resolveAttack,
  resolveOptions,
  lucidityChance,
  rollChance,
  rollD20,
  rollLucidity,
  rollTraitEffects,
  type LucidityCommandInput,
  type LucidityOptions,
  type LucidityTableState,
} from '../src';
import { decideRecorded, parseRecorded } from './recorded';

const opts = resolveOptions();
const noCrits = resolveOptions('standard', { criticalSuccess: 'none' });

/** Every list of `n` d6 results. */
const d6Lists = (n: number): number[][] => (n === 0 ? [[]] : d6Lists(n - 1).flatMap((rest) => [1, 2, 3, 4, 5, 6].map((x) => [x, ...rest])));

/**
 * The attack decided die by die, independently of attackOdds: rollD20 for the hit (a natural 20 that
 * does not exceed Defense hits with the least Penetration, Defense + 1), then resolveAttack.
 */
function enumerateAttack(mod: number, defense: number, faces: number, dmgBonus: number, protection: number, buffs: number, breaks: number, o: LucidityOptions) {
  const net = buffs - breaks;
  const lists = d6Lists(Math.abs(net));
  const n = 20 * lists.length * faces;
  let hit = 0;
  const taken = new Map<number, number>();
  for (let d = 1; d <= 20; d++)
    for (const ds of lists)
      for (let f = 1; f <= faces; f++) {
        const r = rollD20({ d20: d, modifiers: [modifier('m', 'modifier', mod)], buffs, breaks, ...(net > 0 ? { buffDice: ds } : { breakDice: ds }), target: defense }, o);
        const attack = r.success ? (r.critical ? defense + 1 : r.total) : Math.min(r.total, defense);
        const res = resolveAttack({ attack, defense, damage: f + dmgBonus, protection }, o);
        if (res.hit) hit += 1 / n;
        taken.set(res.damageTaken, (taken.get(res.damageTaken) ?? 0) + 1 / n);
      }
  return { hit, taken };
}

describe('exact attack odds ("How Combat Works", "Buffs and Breaks", "Hitting 0 Health")', () => {
  it('a natural 20 hits whatever the Defense under criticalSuccess=natural-20: d20+0 against Defense 25 hits 1 time in 20', () => {
    expect(attackOdds({ modifier: 0, defense: 25, damage: '6', protection: 0 }, opts).hit).toBeCloseTo(1 / 20, 15);
    expect(attackOdds({ modifier: 0, defense: 25, damage: '6', protection: 0 }, noCrits).hit).toBe(0);
  });
  it('that natural 20 has Penetration 1: damage 6 against Protection 4 leaves Protection 3, 3 damage taken', () => {
    const o = attackOdds({ modifier: 0, defense: 25, damage: '6', protection: 4 }, opts);
    expect(o.damageTaken.map((r) => r.damage)).toEqual([0, 3]);
    expect(o.damageTaken[1]!.chance).toBeCloseTo(1 / 20, 15);
  });
  it('the seed names no natural 1: d20+10 against Defense 10 hits on every face, a 1 included (total 11)', () => {
    expect(attackOdds({ modifier: 10, defense: 10, damage: '1', protection: 0 }, opts).hit).toBeCloseTo(1, 15);
  });
  const cases: [number, number, number, number, number, number, number][] = [
    // modifier, defense, damage die faces, damage bonus, protection, buffs, breaks
    [0, 22, 6, 0, 2, 0, 0],
    [3, 18, 8, 1, 4, 1, 0],
    [-2, 15, 4, 2, 6, 0, 2],
    [5, 24, 6, 0, 3, 2, 1],
    [4, 12, 10, 0, 9, 1, 1],
  ];
  for (const [mod, defense, faces, bonus, protection, buffs, breaks] of cases) {
    for (const [name, o] of [
      ['standard', opts],
      ['criticalSuccess=none', noCrits],
      ['protectionPipeline=double-deduction', resolveOptions('standard', { protectionPipeline: 'double-deduction' })],
    ] as const) {
      it(`d20${mod >= 0 ? '+' : ''}${mod} vs Defense ${defense}, 1d${faces}+${bonus} vs Protection ${protection}, ${buffs} buff(s) ${breaks} break(s), ${name}: equals every die enumerated`, () => {
        const exact = attackOdds({ modifier: mod, defense, damage: `1d${faces}+${bonus}`, protection, buffs, breaks }, o);
        const brute = enumerateAttack(mod, defense, faces, bonus, protection, buffs, breaks, o);
        expect(exact.hit).toBeCloseTo(brute.hit, 12);
        expect(exact.damageTaken.map((r) => r.damage)).toEqual([...brute.taken.keys()].sort((a, b) => a - b));
        for (const r of exact.damageTaken) expect(r.chance).toBeCloseTo(brute.taken.get(r.damage)!, 12);
      });
    }
  }
  it('the final turn ("guaranteed critical success") always hits with at least Penetration 1', () => {
    const o = attackOdds({ modifier: 0, defense: 40, damage: '4', protection: 1, buffs: 0, breaks: 3, guaranteed: true }, opts);
    expect(o.hit).toBe(1);
    expect(o.damageTaken).toEqual([{ damage: 4, chance: 1 }]);
  });
});

describe('roll odds with the traits that change a roll ("Creating Traits")', () => {
  it('Educated +1, Inspirator +CHA, Rumor-monger/Natural Immunity/Fellowship/Wingman a buff each, Mental Clarity no breaks', () => {
    const all = ['Educated', 'Inspirator', 'Rumor-monger', 'Natural Immunity', 'Fellowship', 'Mental Clarity'];
    expect(rollTraitEffects(all, { attribute: 'KNO', skill: 'Study', rank: 0, purpose: 'information', inspireCha: 2 }, opts)).toEqual({
      modifiers: [expect.objectContaining({ label: 'Educated', value: 1 }), expect.objectContaining({ label: 'Inspirator (CHA)', value: 2 })],
      buffs: ['Rumor-monger'],
      noBreaks: true,
    });
    expect(rollTraitEffects(all, { attribute: 'WIL', purpose: 'disease', wingman: 'WIL' }, opts).buffs).toEqual(['Wingman', 'Natural Immunity', 'Fellowship']);
    // Wingman covers non-attack rolls only; Mental Clarity skill rolls only; Educated skills without a rank only.
    expect(rollTraitEffects(['Educated', 'Mental Clarity'], { attribute: 'AWA', skill: 'Surveillance', rank: 2, wingman: 'AWA', attack: true }, opts)).toEqual({ modifiers: [], buffs: [], noBreaks: true });
    expect(rollTraitEffects(['Mental Clarity'], { attribute: 'AWA' }, opts).noBreaks).toBe(false);
  });
  it('rollChance with noBreaks equals the chance with no breaks: d20+0 against 10 with 1 buff, 3 breaks dropped = 81/120', () => {
    expect(rollChance({ modifier: 0, target: 10, buffs: 1, breaks: 3, noBreaks: true }, opts)).toBeCloseTo(81 / 120, 15);
  });

  const GM: Actor = { role: 'gm', participantId: 'gm' };
  function apply(state: LucidityTableState, raw: LucidityCommandInput): LucidityTableState {
    const parsed = parseRecorded(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return decideRecorded(state, parsed.command, { actor: GM, dice: seededDice(5), now: '2026-01-01T00:00:00Z' }).reduce(evolveEncounter, state);
  }
  function table(traits: string[]): LucidityTableState {
    let s = initialEncounter();
    s = apply(s, { type: 'add', id: 'sage', side: 'party', statBlock: { name: 'Sage', traits, health: 10, attributes: { KNO: 2, WIL: 1, CHA: 1, AWA: 0 }, skills: { Study: 0, Rhetoric: 2 } } });
    s = apply(s, { type: 'add', id: 'friend', side: 'party', statBlock: { name: 'Friend', traits: ['Fellowship'], health: 10 } });
    return apply(s, { type: 'start', dice: { sage: 20, friend: 1 } });
  }
  /** The chance counted by running the roll command on every d20 face and every buff/break d6. */
  function brute(s: LucidityTableState, cmd: Record<string, unknown>, dice: number): number {
    let wins = 0;
    let n = 0;
    for (let d20 = 1; d20 <= 20; d20++)
      for (const ds of d6Lists(dice)) {
        const parsed = parseRecorded({ type: 'roll', actor: 'sage', d20, ...cmd } as LucidityCommandInput);
        if (!parsed.ok) throw new Error(parsed.error.message);
        const [e] = decideRecorded(s, parsed.command, { actor: GM, dice: givenDice(ds), now: '2026-01-01T00:00:00Z' }) as unknown as [{ data: { roll: { success: boolean } } }];
        n++;
        if (e.data.roll.success) wins++;
      }
    return wins / n;
  }
  const rolls: [string, string[], Record<string, unknown>, number][] = [
    // what, traits, roll command, d6s the roll uses after cancelling
    ['Educated on an unranked skill, 1 break', ['Educated'], { attribute: 'KNO', skill: 'Study', target: 14, breaks: 1 }, 1],
    ['Mental Clarity drops 2 breaks of a KNO skill roll', ['Mental Clarity'], { attribute: 'KNO', skill: 'Rhetoric', target: 15, breaks: 2 }, 0],
    ['Inspirator adds CHA', ['Inspirator'], { attribute: 'AWA', target: 12, inspire: true }, 0],
    ['Rumor-monger gathering information: a buff against a break', ['Rumor-monger'], { attribute: 'AWA', target: 11, breaks: 1, purpose: 'information' }, 0],
    ['Natural Immunity against disease, 2 buffs in all', ['Natural Immunity'], { attribute: 'CON', target: 16, buffs: 1, purpose: 'disease' }, 2],
    ["a companion's Fellowship on a WIL roll", [], { attribute: 'WIL', target: 13 }, 1],
    ['Debator rolls KNO for CHA in an argument', ['Debator'], { attribute: 'CHA', target: 13, purpose: 'argument' }, 0],
  ];
  for (const [what, traits, cmd, dice] of rolls) {
    it(`${what}: the declared odds equal every die run through the roll command`, () => {
      const s = table(traits);
      const odds = declaredRollOdds(s.game, { actor: 'sage', ...cmd } as Parameters<typeof declaredRollOdds>[1], optionsOf(s))!;
      expect(odds.chance).toBeCloseTo(brute(s, cmd, dice), 12);
    });
  }
  it('a trait that changes the roll changes its odds: Educated moves d20+2 against 14 from 8/20 to 9/20', () => {
    const cmd = { actor: 'sage', attribute: 'KNO', skill: 'Study', target: 14 } as const;
    expect(declaredRollOdds(table([]).game, cmd, opts)!.chance).toBeCloseTo(8 / 20, 15);
    expect(declaredRollOdds(table(['Educated']).game, cmd, opts)!.chance).toBeCloseTo(9 / 20, 15);
  });
  it('beats follows successOn', () => {
    expect(beats(10, 10, opts)).toBe(false);
    expect(beats(10, 10, resolveOptions('standard', { successOn: 'meet' }))).toBe(true);
  });
});

describe('critical damage (option critEffect, inventory U16: "a guaranteed critical success", "Hitting 0 Health")', () => {
  const maxDamage = resolveOptions('standard', { critEffect: 'max-damage' });
  const doubleDice = resolveOptions('standard', { critEffect: 'double-dice' });
  it('the expression of a critical hit: none keeps it, max-damage takes each die at its highest, double-dice rolls them twice', () => {
    expect(criticalDamage('1d8+2', opts)).toBe('1d8+2');
    expect(criticalDamage('2d6-1', maxDamage)).toBe('12-1');
    expect(criticalDamage('1d8+2', doubleDice)).toBe('2d8+2');
    expect(() => criticalDamage('2x6', maxDamage)).toThrow(/not a damage expression/);
  });
  it('d20+0 against Defense 5 with 1d6: the natural 20 deals 6 under max-damage, so P(6) = 14/20 x 1/6 + 1/20', () => {
    const o = attackOdds({ modifier: 0, defense: 5, damage: '1d6', protection: 0 }, maxDamage);
    expect(o.hit).toBeCloseTo(15 / 20, 15);
    expect(o.damageTaken.find((r) => r.damage === 6)!.chance).toBeCloseTo(14 / 120 + 1 / 20, 15);
    expect(o.damageTaken.find((r) => r.damage === 1)!.chance).toBeCloseTo(14 / 120, 15);
  });
  it('double-dice: the natural 20 rolls 2d6, so 12 damage has chance 1/20 x 1/36', () => {
    const o = attackOdds({ modifier: 0, defense: 5, damage: '1d6', protection: 0 }, doubleDice);
    expect(o.damageTaken.find((r) => r.damage === 12)!.chance).toBeCloseTo(1 / 20 / 36, 15);
    expect(o.expectedDamage).toBeCloseTo((14 / 20) * 3.5 + (1 / 20) * 7, 12);
  });
  it('at the table: a natural 20 under max-damage deals the weapon\'s highest, and the declared odds agree with every die', () => {
    const GM: Actor = { role: 'gm', participantId: 'gm' };
    const step = (state: LucidityTableState, raw: LucidityCommandInput, dice = seededDice(2)) => {
      const parsed = parseRecorded(raw);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return decideRecorded(state, parsed.command, { actor: GM, dice, now: '2026-01-01T00:00:00Z' });
    };
    let s = initialEncounter('standard', { critEffect: 'max-damage' });
    for (const raw of [
      { type: 'add', id: 'a', side: 'party', statBlock: { name: 'A', health: 10, attributes: { STR: 1 }, weapons: [{ name: 'Axe', damage: '1d8+1' }] } },
      { type: 'add', id: 'b', side: 'foe', statBlock: { name: 'B', health: 30, defense: 12, protection: 2 } },
      { type: 'start', dice: { a: 20, b: 1 } },
    ] as LucidityCommandInput[])
      s = step(s, raw).reduce(evolveEncounter, s);
    const [hit] = step(s, { type: 'attack', actor: 'a', target: 'b', d20: 20 }) as unknown as [{ data: { damage: number; damageDice: number[]; penetration: number; damageTaken: number } }];
    // 20 + STR 1 = 21 against 12: Penetration 9; damage 8 + 1 = 9 with no die rolled; Protection 2 - 9 -> 0: 9 taken.
    expect(hit.data).toMatchObject({ damage: 9, damageDice: [], penetration: 9, damageTaken: 9 });
    const declared = declaredAttackOdds(s.game, { actor: 'a', target: 'b' }, optionsOf(s))!;
    const taken = new Map<number, number>();
    for (let d20 = 1; d20 <= 20; d20++)
      for (let f = 1; f <= 8; f++) {
        const [e] = step(s, { type: 'attack', actor: 'a', target: 'b', d20 }, givenDice([f])) as unknown as [{ data: { damageTaken: number } }];
        taken.set(e.data.damageTaken, (taken.get(e.data.damageTaken) ?? 0) + 1 / 160);
      }
    for (const r of declared.damageTaken) expect(r.chance).toBeCloseTo(taken.get(r.damage)!, 12);
  });
});

describe('exact Lucidity roll odds ("Lucidity", "Buffs and Breaks")', () => {
  for (const [current, attribute, buffs, breaks] of [
    [10, 2, 0, 0],
    [4, -1, 2, 0],
    [14, 3, 0, 2],
    [0, 0, 1, 0],
    [20, 1, 1, 2],
  ] as const) {
    it(`Current Lucidity ${current}, attribute ${attribute}, ${buffs} buff(s), ${breaks} break(s): equals rollLucidity on every die`, () => {
      const net = buffs - breaks;
      let wins = 0;
      let n = 0;
      for (let d20 = 1; d20 <= 20; d20++)
        for (const ds of d6Lists(Math.abs(net))) {
          n++;
          if (rollLucidity({ d20, current, attribute, buffs, breaks, ...(net > 0 ? { buffDice: ds } : { breakDice: ds }) }, opts).success) wins++;
        }
      expect(lucidityChance({ current, attribute, buffs, breaks }, opts)).toBeCloseTo(wins / n, 12);
    });
  }
});
