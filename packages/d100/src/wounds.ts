import type { D100Options } from './options';

/**
 * Wound tracks (d100-combat-rules.txt, wound tracks passage before "Inflicting Multiple Wounds"):
 * Light wounds equal the Toughness Bonus, Heavy wounds half of it rounded down (at least 1), one
 * Deadly wound. A wound goes to the lowest track that has any left.
 */
export const SEVERITIES = ['light', 'heavy', 'deadly'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface WoundTracks {
  readonly max: Readonly<Record<Severity, number>>;
  /** Wounds still to lose on each track. */
  readonly left: Readonly<Record<Severity, number>>;
}

/** Stress for losing one wound of each track. */
export const STRESS_PER_WOUND: Readonly<Record<Severity, number>> = { light: 1, heavy: 5, deadly: 10 };

export function woundTracksFor(toughnessBonus: number): WoundTracks {
  const max = { light: Math.max(0, toughnessBonus), heavy: Math.max(1, Math.floor(toughnessBonus / 2)), deadly: 1 };
  return { max, left: { ...max } };
}

export function isOut(tracks: WoundTracks): boolean {
  return tracks.left.deadly === 0;
}

/** The track a wound of `severity` lands on: that one, or the next with any left; null when none is. */
export function landingTrack(tracks: WoundTracks, severity: Severity): Severity | null {
  for (let i = SEVERITIES.indexOf(severity); i < SEVERITIES.length; i++) if (tracks.left[SEVERITIES[i]!] > 0) return SEVERITIES[i]!;
  return null;
}

export function loseWound(tracks: WoundTracks, track: Severity): WoundTracks {
  return { max: tracks.max, left: { ...tracks.left, [track]: tracks.left[track] - 1 } };
}

export function above(severity: Severity): Severity {
  return severity === 'light' ? 'heavy' : 'deadly';
}

/** One wound as it lands: the track that lost a box, or a Heavy wound a Fate Point blocked. */
export interface WoundLoss {
  readonly track: Severity;
  readonly savage: boolean;
  /** A Heavy wound blocked with a Fate Point (d100-combat-rules.txt, "Fate Points"): nothing lost. */
  readonly blocked: boolean;
  readonly stress: number;
}

export interface WoundsApplied {
  readonly tracks: WoundTracks;
  readonly losses: readonly WoundLoss[];
  readonly stress: number;
  readonly fateSpent: number;
}

/**
 * Lays `normal` wounds and then `savage` Savage wounds on the tracks (d100-combat-rules.txt, "Savage
 * Attacks"). Each normal wound lands on the lowest track with a box left. Each Savage wound is one
 * severity above the track the last normal wound reached (option `savageSeverity`), passing on to
 * the next track when that one is empty. Up to `fateBlocks` Heavy wounds are blocked, one Fate Point
 * each. A character with no box left anywhere loses nothing more.
 */
export function applyWounds(tracks: WoundTracks, normal: number, savage: number, options: Pick<D100Options, 'savageSeverity'>, fateBlocks = 0): WoundsApplied {
  let t = tracks;
  const losses: WoundLoss[] = [];
  let blocksLeft = fateBlocks;
  let last: Severity = 'light';
  const lay = (severity: Severity, isSavage: boolean): void => {
    const track = landingTrack(t, severity);
    if (track === null) return;
    if (!isSavage) last = track;
    if (track === 'heavy' && blocksLeft > 0) {
      blocksLeft--;
      losses.push({ track, savage: isSavage, blocked: true, stress: 0 });
      return;
    }
    t = loseWound(t, track);
    losses.push({ track, savage: isSavage, blocked: false, stress: STRESS_PER_WOUND[track] });
  };
  for (let i = 0; i < normal; i++) lay('light', false);
  const savageSeverity: Severity = options.savageSeverity === 'above-light' ? 'heavy' : above(last);
  for (let i = 0; i < savage; i++) lay(savageSeverity, true);
  return { tracks: t, losses, stress: losses.reduce((s, l) => s + l.stress, 0), fateSpent: fateBlocks - blocksLeft };
}

/** Restores up to `n` Light wounds (Fate Points "Restore Light Wounds", Absorb). */
export function restoreLight(tracks: WoundTracks, n: number): WoundTracks {
  return { max: tracks.max, left: { ...tracks.left, light: Math.min(tracks.max.light, tracks.left.light + Math.max(0, n)) } };
}

/** Restores up to `light` Light and `heavy` Heavy wounds (a GM's healing or rest); no track passes its maximum. */
export function restoreWounds(tracks: WoundTracks, light: number, heavy: number): { tracks: WoundTracks; heavyRestored: number } {
  const h = Math.min(tracks.max.heavy, tracks.left.heavy + Math.max(0, heavy));
  const t = restoreLight(tracks, light);
  return { tracks: { max: t.max, left: { ...t.left, heavy: h } }, heavyRestored: h - tracks.left.heavy };
}
