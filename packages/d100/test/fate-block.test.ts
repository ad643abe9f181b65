import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { describeD100Event, groupsOf, initialEncounter, viewEncounter, type EncounterState } from '../src';
import { GM, refusal, run } from './drive';

/**
 * "Fate Points" (d100-combat-rules.txt), Block Heavy Wound: a character spends its own Fate Point as it
 * incurs a Heavy wound to block it. The wound comes on someone else's turn, so whoever plays the
 * character declares ahead how many it will spend (`fate-block`); the attacker never spends them.
 */
const P1: Actor = { role: 'player', participantId: 'p1' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
/** Bo (played by p1): Realisation 30, so 3 Fate Points; Toughness 40, so Defense 4 and 4 Light wounds. The Shadow (the GM's) acts second. */
const SHEETS: Record<string, Record<string, unknown>> = {
  bo: { name: 'Bo', side: 'pc', scores: base, realisation: 30, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] },
  shadow: { name: 'Shadow', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 20 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
};

function table(): EncounterState {
  let s = run(initialEncounter(), { type: 'add-character', id: 'bo', sheet: SHEETS.bo, controller: 'p1' });
  s = run(s, { type: 'add-character', id: 'shadow', sheet: SHEETS.shadow });
  return run(s, { type: 'start' });
}

/** Bo with its Light track spent, on the Shadow's turn: the next wound is a Heavy one. */
function lightSpent(): EncounterState {
  const s = run(table(), { type: 'end-turn' });
  expect(s.current).toBe('shadow');
  const bo = s.fighters.bo!;
  return { ...s, fighters: { ...s.fighters, bo: { ...bo, tracks: { ...bo.tracks, left: { ...bo.tracks.left, light: 0 } } } } };
}
/** Round on to the Shadow's next turn. */
const shadowAgain = (s: EncounterState) => run(run(s, { type: 'end-turn' }), { type: 'end-turn' });

/** The Shadow hits Bo: 47 against Melee 50 hits, no evasion, the body (50); damage 1 with what the attack adds comes to 5 against Defense 4, one wound. */
const HIT = { type: 'attack', attacker: 'shadow', defender: 'bo', damage: 1, attackTarget: 50, evasionTarget: null };
const hit = (s: EncounterState) => run(s, HIT, [47, 50]);
const lastLine = (s: EncounterState) => describeD100Event(groupsOf(s).at(-1)!.at(-1)!, (id) => s.fighters[id]!.name);

describe('"Fate Points": Block Heavy Wound, declared by whoever plays the character', () => {
  it('worked case: Bo declares 2; a Heavy wound from the GM\'s Shadow is blocked, a Fate Point spent, the Heavy track unchanged', () => {
    const s = run(lightSpent(), { type: 'fate-block', who: 'bo', heavy: 2 }, [], P1);
    expect(s.fighters.bo!.conditions.blockHeavy).toBe(2);
    const heavyBefore = s.fighters.bo!.tracks.left.heavy;
    const after = hit(s);
    const bo = after.fighters.bo!;
    expect(bo.tracks.left.heavy).toBe(heavyBefore);
    expect(bo.tracks.left.light).toBe(0);
    expect(bo.fate.current).toBe(2);
    expect(bo.conditions.blockHeavy).toBe(1);
    expect(bo.injuries).toEqual([]);
    expect(groupsOf(after).at(-1)!.at(-1)).toMatchObject({ type: 'attack-resolved', data: { summary: { hit: true, damage: 5, defense: 4, wounds: ['damage over Defense'], fateSpent: 1 } } });
    expect(lastLine(after)).toContain('Bo spends a Fate Point to block a Heavy wound');
  });

  it('the declaration counts down: two hits blocked, the third costs a Heavy wound and no Fate Point', () => {
    let s = run(lightSpent(), { type: 'fate-block', who: 'bo', heavy: 2 }, [], P1);
    const heavyBefore = s.fighters.bo!.tracks.left.heavy;
    s = hit(s);
    s = hit(shadowAgain(s));
    expect(s.fighters.bo!.conditions.blockHeavy).toBe(0);
    expect(s.fighters.bo!.fate.current).toBe(1);
    expect(s.fighters.bo!.tracks.left.heavy).toBe(heavyBefore);
    s = hit(shadowAgain(s));
    expect(s.fighters.bo!.tracks.left.heavy).toBe(heavyBefore - 1);
    expect(s.fighters.bo!.fate.current).toBe(1);
    expect(lastLine(s)).not.toContain('Fate Point');
  });

  it('undeclared, or declared 0, nothing is blocked and no Fate Point is spent', () => {
    const declared = run(run(lightSpent(), { type: 'fate-block', who: 'bo', heavy: 1 }, [], P1), { type: 'fate-block', who: 'bo', heavy: 0 }, [], P1);
    for (const s of [lightSpent(), declared]) {
      const after = hit(s);
      expect(after.fighters.bo!.tracks.left.heavy).toBe(s.fighters.bo!.tracks.left.heavy - 1);
      expect(after.fighters.bo!.fate.current).toBe(3);
    }
  });

  it('shown in the views with the Fate Points', () => {
    const s = run(table(), { type: 'fate-block', who: 'bo', heavy: 1 }, [], P1);
    for (const viewer of [P1, GM]) expect(viewEncounter(s, viewer).characters.find((c) => c.id === 'bo')).toMatchObject({ fatePoints: 3, conditions: { blockHeavy: 1 } });
    expect(lastLine(s)).toBe('Bo will spend up to 1 Fate Point(s) blocking Heavy wounds it incurs');
  });

  it('a player may not declare for a character they do not play, nor more than its Fate Points, nor the same twice; refusals change nothing', () => {
    const s = table();
    const before = JSON.stringify(s);
    expect(refusal(s, { type: 'fate-block', who: 'shadow', heavy: 1 }, [], P1)).toMatchObject({ code: 'not-your-character', field: 'who', message: 'who: you do not play Shadow' });
    expect(refusal(s, { type: 'fate-block', who: 'bo', heavy: 4 }, [], P1)).toMatchObject({ code: 'not-enough-fate-points', field: 'heavy', section: 'Fate Points' });
    expect(refusal(s, { type: 'fate-block', who: 'bo', heavy: 0 }, [], P1)).toMatchObject({ code: 'already-declared', field: 'heavy' });
    expect(JSON.stringify(s)).toBe(before);
    // the GM declares for its own characters, and may for any
    expect(run(s, { type: 'fate-block', who: 'bo', heavy: 1 }).fighters.bo!.conditions.blockHeavy).toBe(1);
  });

  it("an attacker may not spend the defender's Fate Points: a player's fateBlocks on the GM's character is refused, the GM's on its own accepted", () => {
    const s = table();
    expect(refusal(s, { type: 'attack', attacker: 'bo', defender: 'shadow', fateBlocks: 1 }, [10, 90, 50], P1)).toMatchObject({ code: 'not-your-fate-points', field: 'fateBlocks', section: 'Fate Points' });
    expect(refusal(s, { type: 'attack', attacker: 'bo', defender: 'shadow' }, [10, 90, 50], P1)).toBe('accepted');
    const onShadow = run(lightSpent(), { type: 'attack', attacker: 'shadow', defender: 'bo', fateBlocks: 1, damage: 1, attackTarget: 50, evasionTarget: null }, [47, 50]);
    expect(onShadow.fighters.bo!.fate.current).toBe(2);
  });

  it('the spend-fate command points to the declaration', () => {
    expect(refusal(table(), { type: 'spend-fate', who: 'bo', spend: 'block-heavy' }, [], P1)).toMatchObject({ code: 'block-heavy-declared', field: 'spend', message: expect.stringContaining('fate-block'), section: 'Fate Points' });
  });
});

/**
 * "Defending and Protecting" (Protect): the hit on a protected ally lands on its protector, so a Heavy
 * wound blocked there is blocked with the protector's Fate Points, spent only by whoever plays the
 * protector. Bo (p1) attacks; the GM has handed p1 the Imp as well, and the Shadow stays the GM's.
 */
describe('"Fate Points" on a protected ally\'s hit: the protector, who takes the hit, spends them', () => {
  const IMP = { name: 'Imp', kind: 'shadow', side: 'shadows', scores: { ...base, agility: 10, perception: 10 }, realisation: 30, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] };
  /** Bo's turn; `guard` protects `ward`, and the guard's Light track is spent, so its next wound is a Heavy one. */
  function guarded(guard: 'imp' | 'shadow', ward: 'imp' | 'shadow'): EncounterState {
    let s = run(initialEncounter(), { type: 'add-character', id: 'bo', sheet: SHEETS.bo, controller: 'p1' });
    s = run(s, { type: 'add-character', id: 'shadow', sheet: { ...SHEETS.shadow, realisation: 30 } });
    s = run(s, { type: 'add-character', id: 'imp', sheet: IMP, controller: 'p1' });
    s = run(s, { type: 'start' });
    expect(s.current).toBe('bo');
    const g = s.fighters[guard]!;
    return { ...s, fighters: { ...s.fighters, [guard]: { ...g, tracks: { ...g.tracks, left: { ...g.tracks.left, light: 0 } }, conditions: { ...g.conditions, protecting: ward } } } };
  }
  /** Bo's Sword: 10 hits with 4 DoS, the evasion fails on 90, the body (50). */
  const attack = (defender: string, extra: Record<string, unknown> = {}) => ({ type: 'attack', attacker: 'bo', defender, fateBlocks: 1, ...extra });

  it("refused when the hit would land on a protector the sender does not play, though they play the defender", () => {
    const s = guarded('shadow', 'imp');
    expect(refusal(s, attack('imp'), [10, 90, 50], P1)).toMatchObject({ code: 'not-your-fate-points', field: 'fateBlocks', section: 'Fate Points' });
    // a Called Attack past the protector lands on the Imp, whose points p1 may spend
    expect(refusal(s, attack('imp', { called: 'body', ignoreProtector: true }), [10, 90], P1)).toBe('accepted');
  });

  it('accepted when the sender plays the protector but not the defender; the protector\'s Fate Point blocks the Heavy wound', () => {
    const s = guarded('imp', 'shadow');
    const after = run(s, attack('shadow'), [10, 90, 50], P1);
    const e = groupsOf(after).at(-1)!.at(-1)!;
    expect(e).toMatchObject({ type: 'attack-resolved', data: { protector: 'imp', summary: { hit: true, protectedBy: 'imp', fateSpent: 1 } } });
    expect(after.fighters.imp!.fate.current).toBe(2);
    expect(after.fighters.shadow!.fate.current).toBe(3);
    expect(after.fighters.shadow!.tracks).toEqual(s.fighters.shadow!.tracks);
  });
});

/**
 * "Blood Loss": a failed test costs a wound, and at Toughness 0 a Heavy wound each round; "Fate Points",
 * Block Heavy Wound: a Fate Point blocks a Heavy wound as it is incurred, so the declaration made with
 * fate-block holds for the Heavy wounds Blood Loss brings as for those of hits.
 */
describe('"Fate Points": Block Heavy Wound against the Heavy wounds of Blood Loss', () => {
  /** Bo bleeding, its Light track spent, on the Shadow's turn; `change` edits Bo further. */
  function bleeding(options: Record<string, unknown> = {}, change: (bo: EncounterState['fighters'][string]) => EncounterState['fighters'][string] = (f) => f): EncounterState {
    let s = run(initialEncounter('seed', options), { type: 'add-character', id: 'bo', sheet: SHEETS.bo, controller: 'p1' });
    s = run(run(s, { type: 'add-character', id: 'shadow', sheet: SHEETS.shadow }), { type: 'start' });
    s = run(run(s, { type: 'end-turn' }), { type: 'set-condition', target: 'bo', condition: 'bloodLoss', value: true });
    const bo = s.fighters.bo!;
    return { ...s, fighters: { ...s.fighters, bo: change({ ...bo, tracks: { ...bo.tracks, left: { ...bo.tracks.left, light: 0 } } }) } };
  }
  /** The Shadow ends its turn; Bo's turn starts with its Blood Loss test, 99 failing it. */
  const bleed = (s: EncounterState) => run(s, { type: 'end-turn' }, [99]);
  const turnStart = (s: EncounterState) => groupsOf(s).at(-1)!.find((e) => e.type === 'turn-started')!;

  it('at Toughness 0 the Heavy wound of the round is blocked: a Fate Point spent, the declaration counted down, the Heavy track whole, no Stress', () => {
    const s = run(bleeding({}, (f) => ({ ...f, conditions: { ...f.conditions, toughnessDecay: 40 } })), { type: 'fate-block', who: 'bo', heavy: 1 }, [], P1);
    const after = bleed(s);
    const bo = after.fighters.bo!;
    expect(after.current).toBe('bo');
    expect(bo.tracks.left).toEqual(s.fighters.bo!.tracks.left);
    expect(bo.fate.current).toBe(2);
    expect(bo.conditions.blockHeavy).toBe(0);
    expect(bo.stress).toBe(s.fighters.bo!.stress);
    expect(turnStart(after)).toMatchObject({ data: { bloodLoss: { success: false, fateSpent: 1 } } });
    expect(describeD100Event(turnStart(after), (id) => after.fighters[id]!.name)).toContain('Bo spends a Fate Point to block a Heavy wound');
    // undeclared, the Heavy wound is lost and no Fate Point spent
    const plain = bleed(bleeding({}, (f) => ({ ...f, conditions: { ...f.conditions, toughnessDecay: 40 } })));
    expect(plain.fighters.bo!.tracks.left.heavy).toBe(s.fighters.bo!.tracks.left.heavy - 1);
    expect(plain.fighters.bo!.fate.current).toBe(3);
  });

  it('under bloodLossOutOfWounds=no-wounds-left the wound of a failed test lands on the Heavy track, and is blocked the same way', () => {
    const s = run(bleeding({ bloodLossOutOfWounds: 'no-wounds-left' }), { type: 'fate-block', who: 'bo', heavy: 2 }, [], P1);
    const bo = bleed(s).fighters.bo!;
    expect(bo.tracks.left).toEqual(s.fighters.bo!.tracks.left);
    expect(bo.fate.current).toBe(2);
    expect(bo.conditions.blockHeavy).toBe(1);
  });

  it('a Light wound is never blocked: with Light wounds left the failed test costs one, and no Fate Point', () => {
    const s = run(bleeding({}, (f) => ({ ...f, tracks: { ...f.tracks, left: { ...f.tracks.left, light: 2 } } })), { type: 'fate-block', who: 'bo', heavy: 1 }, [], P1);
    const bo = bleed(s).fighters.bo!;
    expect(bo.tracks.left.light).toBe(1);
    expect(bo.fate.current).toBe(3);
    expect(bo.conditions.blockHeavy).toBe(1);
  });
});

/**
 * Burning (the ailments passage after "Fate Points"): at the end of each round the sufferer takes a
 * Damage 4 attack dealing a wound; "Fate Points", Block Heavy Wound: that wound, when Heavy, is blocked
 * by the points its player declared, as any hit's.
 */
describe('"Fate Points": Block Heavy Wound against the wound Burning deals at the end of the round', () => {
  /** Bo burning with its Light track spent, on the Shadow's turn (the last of the round); every round's fire wounds (option burning). */
  function burning(): EncounterState {
    let s = run(initialEncounter('seed', { burning: 'automatic-wound' }), { type: 'add-character', id: 'bo', sheet: SHEETS.bo, controller: 'p1' });
    s = run(run(s, { type: 'add-character', id: 'shadow', sheet: SHEETS.shadow }), { type: 'start' });
    s = run(run(s, { type: 'end-turn' }), { type: 'inflict-ailment', target: 'bo', ailment: 'burning' });
    const bo = s.fighters.bo!;
    return { ...s, fighters: { ...s.fighters, bo: { ...bo, tracks: { ...bo.tracks, left: { ...bo.tracks.left, light: 0 } } } } };
  }
  it('declared, the Heavy wound is blocked with a Fate Point; undeclared, it is lost', () => {
    const s = run(burning(), { type: 'fate-block', who: 'bo', heavy: 1 }, [], P1);
    const after = run(s, { type: 'end-turn' });
    expect(after.round).toBe(2);
    expect(after.fighters.bo!.tracks.left).toEqual(s.fighters.bo!.tracks.left);
    expect(after.fighters.bo!.fate.current).toBe(2);
    expect(after.fighters.bo!.conditions.blockHeavy).toBe(0);
    // the lost Heavy wound gives its body Injury (option burningInjury); the die is a Blood Loss test it may bring
    const plain = run(burning(), { type: 'end-turn' }, [10]);
    expect(plain.fighters.bo!.tracks.left.heavy).toBe(s.fighters.bo!.tracks.left.heavy - 1);
    expect(plain.fighters.bo!.injuries.map((i) => i.location)).toEqual(['body']);
    expect(after.fighters.bo!.injuries).toEqual([]);
    expect(plain.fighters.bo!.fate.current).toBe(3);
  });
});
