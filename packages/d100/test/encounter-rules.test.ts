import { describe, expect, it } from 'vitest';
import { givenDice } from '@personae/dice';
import {
  batonAdvantages,
  bloodLossTest,
  checkBatonPass,
  DEFAULT_OPTIONS,
  fatigue,
  initiativeOrder,
  makeFighter,
  resolveAllOutAttack,
  resolveTest,
  scoreDecay,
  spendRestoreLight,
  fateAdvantages,
  resolveOptions,
  type Fighter,
} from '../src';

const scores = (over: Record<string, number> = {}) => ({
  melee: 45, ballistic: 40, magic: 50, strength: 35, toughness: 40, agility: 30, intelligence: 30, perception: 30, willpower: 30, fellowship: 30, ...over,
});
const staggered = (f: Fighter): Fighter => ({ ...f, ailments: [{ name: 'staggered', turns: null, elapsed: 0, since: 0 }] });

describe('initiative (d100-combat-rules.txt, "Combat Structure", Step Three)', () => {
  it('the higher of Agility and Perception Bonus plus starting Advantages; ties to the higher Score, then more Fate Points', () => {
    const a = makeFighter({ id: 'a', scores: scores({ agility: 42 }) }); // 4
    const b = makeFighter({ id: 'b', scores: scores({ perception: 47 }) }); // 4, score 47
    const c = makeFighter({ id: 'c', scores: scores({ agility: 35 }), realisation: 30 }); // 3 + 1 starting Advantage = 4, score 35
    const d = makeFighter({ id: 'd', scores: scores({ agility: 35 }), realisation: 50 }); // 4 with Advantage, score 35, 5 Fate
    const order = initiativeOrder([a, b, c, d], givenDice([]), { c: 1, d: 1 });
    expect(order.map((e) => e.id)).toEqual(['b', 'a', 'd', 'c']);
  });
  it('a tie the seed leaves open is rolled off on d10, higher first', () => {
    const a = makeFighter({ id: 'a', scores: scores() });
    const b = makeFighter({ id: 'b', scores: scores() });
    const order = initiativeOrder([a, b], givenDice([3, 3, 2, 9]));
    expect(order.map((e) => [e.id, e.rollOff])).toEqual([['b', [3, 9]], ['a', [3, 2]]]);
  });
});

describe('All Out Attack (d100-combat-rules.txt, "All Out Attack")', () => {
  const p1 = makeFighter({ id: 'p1', scores: scores() });
  const p2 = makeFighter({ id: 'p2', scores: scores() });
  const e1 = staggered(makeFighter({ id: 'e1', side: 'enemy', scores: scores({ toughness: 60 }) }));
  it('wounds each enemy once per participant plus the best degrees, capped at twice the participants', () => {
    // targets 45 + 10 = 55: roll 12 -> 4 DoS, roll 40 -> 1 DoS; 2 participants + min(4, 4) = 6 wounds each
    const r = resolveAllOutAttack([{ fighter: p1, target: 45, roll: 12 }, { fighter: { ...p2, stress: 5 }, target: 45, roll: 40 }], [e1], DEFAULT_OPTIONS);
    expect(r.woundsEach).toBe(6);
    expect(r.enemies[0]!.tracks.left).toEqual({ light: 0, heavy: 3, deadly: 1 });
    expect(r.enemies[0]!.ailments).toEqual([]);
    expect(r.participants[1]!.stress).toBe(3);
  });
  it('"Fate Points", Block Heavy Wound: an enemy blocks the Heavy wounds its player declared, one Fate Point each, counting the declaration down', () => {
    // Toughness 40: Light 4, Heavy 2; 6 wounds: 4 Light, then 2 Heavy, the first blocked (declared 1), the second lost
    const base = staggered(makeFighter({ id: 'e2', side: 'enemy', scores: scores({ toughness: 40 }), realisation: 30 }));
    const e2 = { ...base, conditions: { ...base.conditions, blockHeavy: 1 } };
    const r = resolveAllOutAttack([{ fighter: p1, target: 45, roll: 12 }, { fighter: p2, target: 45, roll: 40 }], [e2], DEFAULT_OPTIONS);
    expect(r.enemies[0]!.tracks.left).toEqual({ light: 0, heavy: 1, deadly: 1 });
    expect(r.enemies[0]!.fate.current).toBe(2);
    expect(r.enemies[0]!.conditions.blockHeavy).toBe(0);
    expect(r.fateSpent).toEqual({ e2: 1 });
    // undeclared: both Heavy wounds lost, no point spent
    const plain = resolveAllOutAttack([{ fighter: p1, target: 45, roll: 12 }, { fighter: p2, target: 45, roll: 40 }], [base], DEFAULT_OPTIONS);
    expect([plain.enemies[0]!.tracks.left.heavy, plain.enemies[0]!.fate.current, plain.fateSpent]).toEqual([0, 3, {}]);
  });
  it('needs two participants and every enemy Staggered', () => {
    expect(() => resolveAllOutAttack([{ fighter: p1, target: 45, roll: 12 }], [e1], DEFAULT_OPTIONS)).toThrow(/at least two participants/);
    const up = makeFighter({ id: 'e2', name: 'Pixie', side: 'enemy', scores: scores() });
    expect(() => resolveAllOutAttack([{ fighter: p1, target: 45, roll: 12 }, { fighter: p2, target: 45, roll: 40 }], [e1, up], DEFAULT_OPTIONS)).toThrow(/not Staggered: Pixie/);
  });
});

describe('Baton Pass (d100-combat-rules.txt, "Baton Pass")', () => {
  it('1 Advantage, plus one at Social Link ranks 4, 7 and 10', () => {
    expect([1, 3, 4, 7, 10].map(batonAdvantages)).toEqual([1, 1, 2, 3, 4]);
  });
  it('no one gives or receives twice in a chain; the Receiver must be a Confidant ally', () => {
    expect(() => checkBatonPass(['a', 'b'], 'b', 'a', 3, true)).toThrow(/already given or received/);
    expect(() => checkBatonPass(['a'], 'a', 'c', 0, true)).toThrow(/Social Link rank 1/);
    expect(() => checkBatonPass(['a'], 'a', 'c', 2, false)).toThrow(/not an ally/);
    expect(() => checkBatonPass(['a'], 'a', 'c', 2, true)).not.toThrow();
  });
});

describe('Fate Points (d100-combat-rules.txt, "Fate Points")', () => {
  it('the pool equals the Realisation Bonus; Restore Light Wounds restores that many', () => {
    const f = makeFighter({ id: 'f', scores: scores(), realisation: 32 });
    expect(f.fate).toEqual({ current: 3, max: 3 });
    const hurt = { ...f, tracks: { ...f.tracks, left: { light: 0, heavy: 2, deadly: 1 } } };
    const healed = spendRestoreLight(hurt);
    expect(healed.tracks.left.light).toBe(3);
    expect(healed.fate.current).toBe(2);
    expect(() => spendRestoreLight({ ...f, fate: { current: 0, max: 3 } })).toThrow(/no Fate Point left/);
  });
  it('a Fate Point buys two Advantages (option fatePointAdvantages)', () => {
    expect(fateAdvantages(DEFAULT_OPTIONS)).toBe(2);
    expect(fateAdvantages(resolveOptions('seed', { fatePointAdvantages: 'one-advantage' }))).toBe(1);
  });
});

describe('special conditions (d100-combat-rules.txt, "Special Conditions")', () => {
  it('"Fatigue and Exhaustion": Stress above Toughness is Fatigued, 20 above is Exhausted', () => {
    const f = makeFighter({ id: 'f', scores: scores() });
    expect(fatigue({ ...f, stress: 40 })).toBe('none');
    expect(fatigue({ ...f, stress: 41 })).toBe('fatigued');
    expect(fatigue({ ...f, stress: 60 })).toBe('exhausted');
  });
  it('"Blood Loss": a failed test costs a wound; out of Light wounds, Toughness decay of 1 + DoF', () => {
    const f = { ...makeFighter({ id: 'f', scores: scores() }), conditions: { ...makeFighter({ id: 'f', scores: scores() }).conditions, bloodLoss: true } };
    const fail = resolveTest(40, 75); // 3 DoF
    expect(bloodLossTest(f, fail, DEFAULT_OPTIONS)).toMatchObject({ lost: 'wound' });
    const dry = { ...f, tracks: { ...f.tracks, left: { light: 0, heavy: 2, deadly: 1 } } };
    const r = bloodLossTest(dry, fail, DEFAULT_OPTIONS);
    expect(r).toMatchObject({ lost: 'decay', decay: 4 });
    expect(r.fighter.conditions.toughnessDecay).toBe(4);
    expect(bloodLossTest(f, resolveTest(40, 20), DEFAULT_OPTIONS).lost).toBe('none');
  });
  it('"Blood Loss" with a Bruised Rib ("Wounds and Injury"): the failed test\'s wound brings one more', () => {
    const base = makeFighter({ id: 'f', scores: scores() }); // TB 4: 4 Light, 2 Heavy
    const rib = [{ location: 'body' as const, name: 'bruised-rib', level: 1 }];
    const fail = resolveTest(40, 75);
    const bleeding: Fighter = { ...base, injuries: rib, conditions: { ...base.conditions, bloodLoss: true } };
    const r = bloodLossTest(bleeding, fail, DEFAULT_OPTIONS);
    expect(r.fighter.tracks.left).toEqual({ light: 2, heavy: 2, deadly: 1 });
    expect(r.fighter.stress).toBe(2);
    // at Toughness 0: the Heavy wound to the body and the rib's, which the Heavy track also takes; Puncture for 0 left
    const drained: Fighter = { ...bleeding, tracks: { ...base.tracks, left: { light: 0, heavy: 2, deadly: 1 } }, conditions: { ...bleeding.conditions, toughnessDecay: 40 } };
    const zero = bloodLossTest(drained, resolveTest(40, 99), DEFAULT_OPTIONS);
    expect(zero.fighter.tracks.left).toEqual({ light: 0, heavy: 0, deadly: 1 });
    expect(zero.fighter.injuries).toEqual([{ location: 'body', name: 'puncture', level: 3 }]);
  });
  it('"Blood Loss" while a Fate Point ignores the Bruised Rib this Round ("Fate Points", Ignore Injury): no extra wound', () => {
    const base = makeFighter({ id: 'f', scores: scores() }); // TB 4: 4 Light, 2 Heavy
    const bleeding: Fighter = { ...base, injuries: [{ location: 'body', name: 'bruised-rib', level: 1 }], injuriesIgnored: ['body'], conditions: { ...base.conditions, bloodLoss: true } };
    const r = bloodLossTest(bleeding, resolveTest(40, 75), DEFAULT_OPTIONS);
    expect(r.fighter.tracks.left).toEqual({ light: 3, heavy: 2, deadly: 1 });
    expect(r.fighter.stress).toBe(1);
  });
  it('"Blood Loss" under bloodLossOutOfWounds=no-wounds-left: a wound on the Heavy track gives the body Injury, or none under bloodLossInjury=none', () => {
    const base = makeFighter({ id: 'f', scores: scores() }); // TB 4: 4 Light, 2 Heavy
    const dry: Fighter = { ...base, tracks: { ...base.tracks, left: { light: 0, heavy: 2, deadly: 1 } }, conditions: { ...base.conditions, bloodLoss: true } };
    const fail = resolveTest(40, 75);
    const body = bloodLossTest(dry, fail, resolveOptions('seed', { bloodLossOutOfWounds: 'no-wounds-left' }));
    expect(body.lost).toBe('wound');
    expect(body.fighter.tracks.left.heavy).toBe(1);
    expect(body.fighter.injuries).toEqual([{ location: 'body', name: 'cracked', level: 2 }]);
    expect(body.fighter.conditions.bloodLoss).toBe(true);
    const none = bloodLossTest(dry, fail, resolveOptions('seed', { bloodLossOutOfWounds: 'no-wounds-left', bloodLossInjury: 'none' }));
    expect(none.fighter.tracks.left.heavy).toBe(1);
    expect(none.fighter.injuries).toEqual([]);
  });
  it('"Blood Loss": at Toughness 0 the Heavy wound goes to the body and gives the body Injury for the Heavy wounds left ("Wounds and Injury")', () => {
    const base = makeFighter({ id: 'f', scores: scores() }); // TB 4: 4 Light, 2 Heavy
    const drained: Fighter = { ...base, tracks: { ...base.tracks, left: { light: 0, heavy: 2, deadly: 1 } }, conditions: { ...base.conditions, bloodLoss: true, toughnessDecay: 40 } };
    const fail = resolveTest(40, 99);
    const first = bloodLossTest(drained, fail, DEFAULT_OPTIONS);
    expect(first.lost).toBe('heavy');
    expect(first.fighter.tracks.left.heavy).toBe(1);
    expect(first.fighter.injuries).toEqual([{ location: 'body', name: 'cracked', level: 2 }]);
    // the next round's Heavy wound leaves none: Puncture replaces Cracked at the body
    const second = bloodLossTest(first.fighter, fail, DEFAULT_OPTIONS);
    expect(second.fighter.tracks.left.heavy).toBe(0);
    expect(second.fighter.injuries).toEqual([{ location: 'body', name: 'puncture', level: 3 }]);
    // an Injury elsewhere stays
    const armHurt = bloodLossTest({ ...drained, injuries: [{ location: 'left-arm', name: 'hand-agony', level: 0 }] }, fail, DEFAULT_OPTIONS);
    expect(armHurt.fighter.injuries.map((i) => i.location)).toEqual(['left-arm', 'body']);
    // with the Heavy track empty the wound is Deadly: out, and no Injury from it
    const last = bloodLossTest(second.fighter, fail, DEFAULT_OPTIONS);
    expect(last.fighter.out).toBe(true);
    expect(last.fighter.injuries).toEqual(second.fighter.injuries);
  });
  it('"Score Decay": never below 1; a decay past it leaves the character non-functional', () => {
    const f = makeFighter({ id: 'f', scores: scores({ toughness: 5 }) });
    const r = scoreDecay(f, 7);
    expect(r.nonFunctional).toBe(true);
    expect(r.fighter.conditions.toughnessDecay).toBe(4);
  });
});
