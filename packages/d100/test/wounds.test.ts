import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyWounds, DEFAULT_OPTIONS, SEVERITIES, woundTracksFor, type WoundTracks } from '../src';

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
