import { describe, expect, it } from 'vitest';
import { givenDice } from '@personae/dice';
import { DEFAULT_OPTIONS, inflictAilment, makeFighter, resolveAttack, resolveOptions, type AttackSpec, type Fighter } from '../src';

const scores = (over: Partial<Record<string, number>> = {}) => ({
  melee: 45, ballistic: 40, magic: 50, strength: 35, toughness: 40, agility: 30, intelligence: 30, perception: 30, willpower: 30, fellowship: 30, ...over,
});
const hero = makeFighter({ id: 'hero', scores: scores(), realisation: 30 });
const shadow = (over: Partial<Parameters<typeof makeFighter>[0]> = {}): Fighter =>
  makeFighter({ id: 'shadow', side: 'enemy', scores: scores(), armour: { body: 2 }, ...over });
const sword: AttackSpec = { kind: 'melee', element: 'melee', damage: 5, attackTarget: 45, evasionTarget: 30 };

describe('How Attacks Work (d100-combat-rules.txt), worked by hand', () => {
  it('Step Five: 5 weapon + 3 SB + 2 DoS = 10 against TB 4 + 2 Armour = 6: one Light wound, 1 Stress', () => {
    // attack 23 vs 45: 2 DoS; evasion 41 vs 30: fails; location 50: body
    const r = resolveAttack(hero, shadow(), sword, givenDice([23, 41, 50]), DEFAULT_OPTIONS);
    expect(r.hit).toBe(true);
    expect(r.outcome).toMatchObject({ damage: 10, defense: 6, wounds: ['damage over Defense'], stress: 1 });
    expect(r.defender.tracks.left).toEqual({ light: 3, heavy: 2, deadly: 1 });
    expect(r.defender.stress).toBe(1);
    expect(r.oneMore).toBe(false);
  });

  it('the defender\'s degrees of success come off the damage, and more degrees win the opposed test', () => {
    // attack 23 vs 45: 2 DoS; evasion 05 vs 30: 3 DoS: the defender wins, no hit
    expect(resolveAttack(hero, shadow(), sword, givenDice([23, 5]), DEFAULT_OPTIONS).hit).toBe(false);
    // attack 13 vs 45: 3 DoS; evasion 15 vs 30: 2 DoS -> hit, damage 5 + 3 + 3 - 2 = 9 vs 6: one wound
    const r = resolveAttack(hero, shadow(), sword, givenDice([13, 15, 50]), DEFAULT_OPTIONS);
    expect(r.outcome).toMatchObject({ damage: 9, defense: 6 });
  });

  it('"Inflicting Multiple Wounds": a head hit 6 over Defense deals base, High Damage and Headshot wounds', () => {
    // location 05: head, no armour: Defense 4; damage 10: 6 over
    const r = resolveAttack(hero, shadow(), sword, givenDice([23, 41, 5]), DEFAULT_OPTIONS);
    expect(r.outcome!.wounds).toEqual(['damage over Defense', 'High Damage', 'Headshot/Weakspot']);
    expect(r.defender.tracks.left.light).toBe(1);
  });

  it('"Critical Hits": a roll of 10 or less deals an extra wound and a physical one Staggers, earning a One More', () => {
    // attack 07 vs 45: 4 DoS; evasion fails; body: damage 5 + 3 + 4 = 12 vs 6: 6 over -> base, High Damage, Critical
    const r = resolveAttack(hero, shadow(), sword, givenDice([7, 80, 50]), DEFAULT_OPTIONS);
    expect(r.critical).toBe(true);
    expect(r.outcome!.wounds).toEqual(['damage over Defense', 'High Damage', 'Critical Hit']);
    expect(r.defender.ailments.map((a) => a.name)).toEqual(['staggered']);
    expect(r.oneMore).toBe(true);
  });

  it('"Critical Hits": a critical roll that loses the opposed test is a miss and no Critical Hit', () => {
    // attack 10 vs 45: a critical roll, 3 DoS; evasion 05 vs 60: 6 DoS: the defender wins
    const r = resolveAttack(hero, shadow(), { ...sword, evasionTarget: 60 }, givenDice([10, 5]), DEFAULT_OPTIONS);
    expect(r.attack.critical).toBe(true);
    expect(r).toMatchObject({ hit: false, critical: false });
  });

  it('a Fumble misses without an evasion roll', () => {
    const r = resolveAttack(hero, shadow(), { ...sword, attackTarget: 120 }, givenDice([97]), DEFAULT_OPTIONS);
    expect(r).toMatchObject({ fumble: true, hit: false, evasion: null });
  });

  it('"Elemental Affinities" Weak: TB ignored, an extra wound, Staggered and a One More', () => {
    const agi: AttackSpec = { kind: 'magic', element: 'fire', damage: 4, attackTarget: 50, evasionTarget: 30 };
    // attack 30 vs 50: 2 DoS; damage 6 vs Armour 2 only: 4 over -> base + Weakness
    const r = resolveAttack(hero, shadow({ affinities: { fire: 'weak' } }), agi, givenDice([30, 90, 50]), DEFAULT_OPTIONS);
    expect(r.outcome).toMatchObject({ affinity: 'weak', damage: 6, defense: 2, wounds: ['damage over Defense', 'Weakness'], staggered: true });
    expect(r.oneMore).toBe(true);
  });

  it('Resist adds 5 TB; Block takes nothing; Absorb heals a Light wound per Tier', () => {
    const agi: AttackSpec = { kind: 'magic', element: 'fire', damage: 8, attackTarget: 50, evasionTarget: null };
    // attack 30: 2 DoS, damage 10 vs 4 + 5 + 2 = 11: no wound
    expect(resolveAttack(hero, shadow({ affinities: { fire: 'resist' } }), agi, givenDice([30, 50]), DEFAULT_OPTIONS).outcome).toMatchObject({ defense: 11, wounds: [] });
    expect(resolveAttack(hero, shadow({ affinities: { fire: 'block' } }), agi, givenDice([30, 50]), DEFAULT_OPTIONS).defender.tracks.left.light).toBe(4);
    const hurt = { ...shadow({ affinities: { fire: 'absorb' } }), tracks: { max: { light: 4, heavy: 2, deadly: 1 }, left: { light: 1, heavy: 2, deadly: 1 } } };
    expect(resolveAttack(hero, hurt, { ...agi, tier: 2 }, givenDice([30, 50]), DEFAULT_OPTIONS).defender.tracks.left.light).toBe(3);
  });

  it('Repel turns the attack on the attacker, rolling a location for it', () => {
    const agi: AttackSpec = { kind: 'magic', element: 'fire', damage: 8, attackTarget: 50, evasionTarget: null };
    // attack 30: 2 DoS, damage 10 vs the hero's TB 4 (no armour) at the body: 6 over -> 2 wounds on the hero
    const r = resolveAttack(hero, shadow({ affinities: { fire: 'repel' } }), agi, givenDice([30, 50, 50]), DEFAULT_OPTIONS);
    expect(r.repelled).toBe(true);
    expect(r.attacker.tracks.left.light).toBe(2);
    expect(r.defender.tracks.left.light).toBe(4);
  });

  it('"Technical Hits": an element listed for the ailment adds a wound, Staggers, ignores Resist and clears the ailment', () => {
    const burning = inflictAilment([], 'burning', { turnsStarted: 0 }, () => false, DEFAULT_OPTIONS);
    if (!burning.ok) throw new Error('burning');
    const target = { ...shadow({ affinities: { wind: 'resist' } }), ailments: burning.ailments };
    const garu: AttackSpec = { kind: 'magic', element: 'wind', damage: 4, attackTarget: 50, evasionTarget: null };
    // attack 30: 2 DoS, damage 6; Resist ignored: Defense 4 + 2 = 6: no wound over Defense -> a Technical Hit still Staggers
    const r = resolveAttack(hero, target, garu, givenDice([30, 50]), DEFAULT_OPTIONS);
    expect(r.outcome).toMatchObject({ technical: 'burning', affinity: 'normal', defense: 6, staggered: true });
    expect(r.defender.ailments.map((a) => a.name)).toEqual(['staggered']);
    // with more damage, the Technical Hit adds its wound
    const s = resolveAttack(hero, target, { ...garu, damage: 6 }, givenDice([30, 50]), DEFAULT_OPTIONS);
    expect(s.outcome!.wounds).toEqual(['damage over Defense', 'Technical Hit']);
  });

  it('Defend: no Stagger and no extra wound from a Critical Hit', () => {
    const target = { ...shadow(), conditions: { ...shadow().conditions, defending: true } };
    const r = resolveAttack(hero, target, { ...sword, evasionTarget: null }, givenDice([7, 50]), DEFAULT_OPTIONS);
    expect(r.outcome!.wounds).toEqual(['damage over Defense', 'High Damage']);
    expect(r.outcome!.staggered).toBe(false);
  });

  it('Helpless: the attack hits without evasion and is Savage, and Heavy wounds give Injuries at the location', () => {
    const target = { ...shadow({ armour: {} }), conditions: { ...shadow().conditions, helpless: true } };
    // attack 60 fails (0 DoS) but hits; damage 5 + 3 + 6 mods = 14 vs TB 4: 10 over -> base + High Damage; Savage: Helpless + Very High Damage
    const r = resolveAttack(hero, target, { ...sword, damageModifiers: [{ slug: 'x', label: 'Heavy blade', value: 6 }] }, givenDice([60, 50]), DEFAULT_OPTIONS);
    expect(r.outcome).toMatchObject({ damage: 14, defense: 4, savage: ['Helpless', 'Very High Damage'] });
    expect(r.defender.tracks.left).toEqual({ light: 2, heavy: 0, deadly: 1 });
    expect(r.outcome!.injuries.map((i) => i.name)).toEqual(['cracked', 'puncture']);
    expect(r.defender.injuries).toEqual([{ location: 'body', name: 'puncture', level: 3 }]);
    expect(r.defender.conditions.bloodLoss).toBe(true);
    expect(r.defender.stress).toBe(12);
  });

  it('"Wounds and Personas": the Persona takes the wounds first; breaking it costs 10 Stress', () => {
    const evoker = makeFighter({ id: 'e', side: 'enemy', scores: scores(), persona: { name: 'Orpheus', wounds: 2 } });
    const r = resolveAttack(hero, evoker, { ...sword, evasionTarget: null }, givenDice([23, 5]), DEFAULT_OPTIONS);
    // head: Defense 4, damage 10: 3 wounds; the Persona has 2: broken, the third is spent (personaOverflow none)
    expect(r.outcome).toMatchObject({ personaWounds: 2, personaBroken: true, stress: 12 });
    expect(r.defender.tracks.left.light).toBe(4);
    const carry = resolveAttack(hero, evoker, { ...sword, evasionTarget: null }, givenDice([23, 5]), resolveOptions('seed', { personaOverflow: 'carry' }));
    expect(carry.defender.tracks.left.light).toBe(3);
  });

  it('a Called Attack takes two Disadvantages and picks the location', () => {
    const r = resolveAttack(hero, shadow(), { ...sword, called: 'head' }, givenDice([13, 90]), DEFAULT_OPTIONS);
    expect(r.attack.target).toBe(25);
    expect(r.outcome!.location.location).toBe('head');
  });

  it('ailments give the attacker an Advantage each (Stunned one more)', () => {
    const st = inflictAilment([], 'stunned', { turnsStarted: 0 }, () => false, DEFAULT_OPTIONS);
    if (!st.ok) throw new Error('stunned');
    const r = resolveAttack(hero, { ...shadow(), ailments: st.ailments }, sword, givenDice([23, 41, 50]), DEFAULT_OPTIONS);
    expect(r.attack.target).toBe(65);
    expect(r.outcome!.damage).toBe(5 + 3 + 4 + 2); // DoS 6 - 2 = 4, net Advantage 2
  });
});
