import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { modifier } from '@personae/core';
import { applyWounds, DEFAULT_OPTIONS, hitLocation, landHit, makeFighter, resolveOptions, SEVERITIES, woundTracksFor, type Fighter, type WoundTracks } from '../src';

const tracks = (light: number, heavy: number, max = woundTracksFor(4).max): WoundTracks => ({ max, left: { light, heavy, deadly: 1 } });

describe('wound tracks (d100-combat-rules.txt, wound tracks passage before "Inflicting Multiple Wounds")', () => {
  it('a character with TB 4 has 4 Light, 2 Heavy and 1 Deadly wound (the seed\'s example)', () => {
    expect(woundTracksFor(4).max).toEqual({ light: 4, heavy: 2, deadly: 1 });
    expect(woundTracksFor(1).max).toEqual({ light: 1, heavy: 1, deadly: 1 });
    expect(woundTracksFor(7).max).toEqual({ light: 7, heavy: 3, deadly: 1 });
  });
  it('a Light wound costs 1 Stress, a Heavy 5, the Deadly 10, each track passing on when empty', () => {
    const r = applyWounds(tracks(1, 1), 3, 0, DEFAULT_OPTIONS);
    expect(r.losses.map((l) => l.track)).toEqual(['light', 'heavy', 'deadly']);
    expect(r.stress).toBe(16);
    expect(r.tracks.left).toEqual({ light: 0, heavy: 0, deadly: 0 });
  });
});

describe('Savage attacks (d100-combat-rules.txt, "Savage Attacks")', () => {
  it('2 Light and 1 Heavy left, a 1-wound Savage hit: 1 Light and 1 Heavy lost, 1 Light left', () => {
    const r = applyWounds(tracks(2, 1), 1, 1, DEFAULT_OPTIONS);
    expect(r.tracks.left).toEqual({ light: 1, heavy: 0, deadly: 1 });
  });
  it('only 1 Heavy left: the normal wound is Heavy and the Savage one Deadly', () => {
    const r = applyWounds(tracks(0, 1), 1, 1, DEFAULT_OPTIONS);
    expect(r.losses.map((l) => [l.track, l.savage])).toEqual([['heavy', false], ['deadly', true]]);
  });
  it('Helpless and 10 over Defense: 2 Light (basic and High Damage) and 2 Heavy (Helpless and Very High Damage)', () => {
    const r = applyWounds(tracks(4, 2), 2, 2, DEFAULT_OPTIONS);
    expect(r.losses.map((l) => l.track)).toEqual(['light', 'light', 'heavy', 'heavy']);
  });
  it('savageSeverity=above-light makes every Savage wound Heavy', () => {
    const r = applyWounds(tracks(0, 2), 1, 1, { savageSeverity: 'above-light' });
    expect(r.losses.map((l) => l.track)).toEqual(['heavy', 'heavy']);
  });
});

describe('Fate Points: Block Heavy Wound (d100-combat-rules.txt, "Fate Points")', () => {
  it('a blocked Heavy wound costs nothing, one Fate Point each', () => {
    const r = applyWounds(tracks(0, 2), 2, 0, DEFAULT_OPTIONS, 1);
    expect(r.fateSpent).toBe(1);
    expect(r.tracks.left.heavy).toBe(1);
    expect(r.stress).toBe(5);
  });
});

describe('wounds never skip a track (property)', () => {
  it('after any wounds, a track has lost boxes only when every lower track is empty', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 4 }), fc.constantFrom('above-last-normal', 'above-light' as const), (tb, normal, savage, savageSeverity) => {
        const start = woundTracksFor(tb);
        const r = applyWounds(start, normal, savage, { savageSeverity });
        // normal wounds alone never skip: a heavier box only goes once every lighter one has
        const normalOnly = applyWounds(start, normal, 0, { savageSeverity });
        const lost = (t: WoundTracks, s: (typeof SEVERITIES)[number]) => t.max[s] - t.left[s];
        if (lost(normalOnly.tracks, 'heavy') > 0) expect(normalOnly.tracks.left.light).toBe(0);
        if (lost(normalOnly.tracks, 'deadly') > 0) expect(normalOnly.tracks.left.heavy).toBe(0);
        // every loss lands on its own track or a heavier one, and no box goes below zero
        for (const s of SEVERITIES) expect(r.tracks.left[s]).toBeGreaterThanOrEqual(0);
        expect(r.losses.length).toBeLessThanOrEqual(normal + savage);
        const capacity = SEVERITIES.reduce((n, s) => n + start.max[s], 0);
        expect(SEVERITIES.reduce((n, s) => n + lost(r.tracks, s), 0)).toBe(r.losses.length);
        // normal wounds are never lost while any box is left; Savage ones only climb, so they may find none
        expect(SEVERITIES.reduce((n, s) => n + lost(normalOnly.tracks, s), 0)).toBe(Math.min(normal, capacity));
      }),
    );
  });
});

describe('U34 injuryTiming ("Wounds and Injury"): a Bruised Rib an attack gives, inside that attack', () => {
  // B: Toughness 40 (TB 4: Light 4, Heavy 2, Deadly 1), no Light wound left. Damage 10 at the body
  // (roll 50) against Defense 4 beats it by 6: the base wound and High Damage, two Heavy wounds. The
  // first leaves 1 Heavy: Cracked (Bruised Rib's row and worse); the second leaves 0: Puncture.
  const b = (): Fighter => {
    const f = makeFighter({ id: 'b', side: 'enemy', scores: { melee: 40, ballistic: 40, magic: 40, strength: 40, toughness: 40, agility: 40, intelligence: 40, perception: 40, willpower: 40, fellowship: 40 } });
    return { ...f, tracks: { ...f.tracks, left: { light: 0, heavy: 2, deadly: 1 } } };
  };
  const hit = (target: Fighter, injuryTiming: string, damage = 10) =>
    landHit(target, { damageSteps: [modifier('weapon', 'weapon damage', damage)], element: 'melee', tier: 1, kind: 'melee', location: hitLocation(50, DEFAULT_OPTIONS), critical: false, ignoreArmour: false, fateBlocks: 0, reflected: false }, resolveOptions('seed', { injuryTiming }));

  it('after-attack (default): both Heavy wounds land first; the Puncture stays and nothing more is dealt', () => {
    const r = hit(b(), 'after-attack');
    expect(r.outcome.wounds).toEqual(['damage over Defense', 'High Damage']);
    expect(r.target.tracks.left).toEqual({ light: 0, heavy: 0, deadly: 1 });
    expect(r.target.injuries).toEqual([{ location: 'body', name: 'puncture', level: 3 }]);
    expect([r.target.stress, r.target.out]).toEqual([10, false]);
  });

  it('per-wound: the Cracked rib from the first wound adds one more to the attack: the Deadly wound, out', () => {
    const r = hit(b(), 'per-wound');
    expect(r.outcome.wounds).toEqual(['damage over Defense', 'High Damage', 'Bruised Rib (from this attack)']);
    expect(r.target.tracks.left).toEqual({ light: 0, heavy: 0, deadly: 0 });
    expect([r.target.stress, r.target.out]).toEqual([20, true]);
  });

  it('a Bruised Rib adds its wound to a Burst\'s bought wound even when the damage does not beat Defense', () => {
    const bruised = { ...b(), tracks: { ...b().tracks, left: { light: 4, heavy: 2, deadly: 1 } }, injuries: [{ location: 'body' as const, name: 'bruised-rib', level: 1 }] };
    const r = landHit(bruised, { damageSteps: [modifier('weapon', 'weapon damage', 2)], element: 'melee', tier: 1, kind: 'melee', location: hitLocation(50, DEFAULT_OPTIONS), critical: false, ignoreArmour: false, fateBlocks: 0, reflected: false, extraWounds: 1 }, DEFAULT_OPTIONS);
    expect(r.outcome.wounds).toEqual(['Burst Attack', 'Bruised Rib']);
    expect(r.target.tracks.left.light).toBe(2);
  });
  it('per-wound: no wound follows the one that gave it, so nothing is added; an earlier Bruised Rib counts either way', () => {
    // damage 5 beats Defense 4 by 1: one wound, Cracked at once, none after it
    expect(hit(b(), 'per-wound', 5).outcome.wounds).toEqual(['damage over Defense']);
    const bruised = { ...b(), injuries: [{ location: 'body' as const, name: 'bruised-rib', level: 1 }] };
    for (const timing of ['after-attack', 'per-wound']) expect(hit(bruised, timing).outcome.wounds).toEqual(['damage over Defense', 'High Damage', 'Bruised Rib']);
  });
  it('a Bruised Rib a Fate Point ignores this Round ("Fate Points", Ignore Injury) adds no wound', () => {
    const ignored = { ...b(), injuries: [{ location: 'body' as const, name: 'bruised-rib', level: 1 }], injuriesIgnored: ['body' as const] };
    for (const timing of ['after-attack', 'per-wound']) expect(hit(ignored, timing).outcome.wounds).toEqual(['damage over Defense', 'High Damage']);
  });
});
