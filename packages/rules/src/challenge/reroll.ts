import { sortDescendingInPlace, type DiceSource } from '@personae/dice';
import type { RerollKeep } from './reroll-keep';

/**
 * Rerolls from special abilities (personae-core-2011.txt "What Special Abilities Can Do", "The
 * Framework of Advancement"): reroll some dice before the result is read, keeping the second result
 * or the better one, and touching the highest die only if the ability allows it.
 */
export interface RerollSpec {
  readonly dice: number;
  readonly keep: RerollKeep;
  readonly mayTouchHighest: boolean;
  readonly source: string;
  /** Positions (1-based, in the sorted pool) to reroll; by default the engine picks (see below). */
  readonly positions?: readonly number[];
}

export interface RerollRecord {
  readonly source: string;
  /** "own": the roller's ability; "forced": the opponent's ability made the roller reroll. */
  readonly kind: 'own' | 'forced';
  readonly position: number;
  readonly old: number;
  readonly new: number;
  readonly kept: number;
}

export class RerollError extends Error {
  override readonly name = 'RerollError';
}

/**
 * Which dice an ability rerolls when the player does not say: one's own reroll takes the lowest dice
 * (they have the most to gain and the least to lose); a forced reroll takes the opponent's highest dice
 * the ability may touch. A forced reroll's "better" result is the one better for the ability's owner
 * (the lower).
 */
export function rerollPositions(sorted: readonly number[], spec: RerollSpec, kind: 'own' | 'forced'): number[] {
  const first = spec.mayTouchHighest ? 0 : 1;
  const eligible: number[] = [];
  for (let i = first; i < sorted.length; i++) eligible.push(i);
  if (spec.positions) {
    for (const p of spec.positions) {
      if (!Number.isInteger(p) || p < 1 || p > sorted.length) {
        throw new RerollError(`${spec.source}: position ${p} is not a die of this ${sorted.length}-die pool`);
      }
      if (p - 1 < first) throw new RerollError(`${spec.source}: may not reroll the highest die`);
    }
    if (spec.positions.length > spec.dice) throw new RerollError(`${spec.source}: rerolls ${spec.dice} die/dice, ${spec.positions.length} chosen`);
    return spec.positions.map((p) => p - 1);
  }
  const n = Math.min(spec.dice, eligible.length);
  return kind === 'own' ? eligible.slice(eligible.length - n) : eligible.slice(0, n);
}

/** Apply one reroll ability to a sorted pool; returns the new sorted pool and what happened. */
export function applyReroll(sorted: readonly number[], spec: RerollSpec, kind: 'own' | 'forced', dice: DiceSource): { sorted: number[]; records: RerollRecord[] } {
  const positions = rerollPositions(sorted, spec, kind);
  const next = sorted.slice();
  const records: RerollRecord[] = [];
  for (const i of positions) {
    const old = sorted[i]!;
    const fresh = dice.die(10);
    const kept = spec.keep === 'second' ? fresh : kind === 'own' ? Math.max(old, fresh) : Math.min(old, fresh);
    next[i] = kept;
    records.push({ source: spec.source, kind, position: i + 1, old, new: fresh, kept });
  }
  return { sorted: sortDescendingInPlace(next), records };
}

/** Armor that ignores some of the attacker's dice (personae-core-2011.txt "Armor"), after rerolls. */
export function ignoreDice(sorted: readonly number[], count: number, which: 'highest' | 'lowest'): { kept: number[]; ignored: number[] } {
  const n = Math.min(count, sorted.length);
  if (which === 'highest') return { kept: sorted.slice(n), ignored: sorted.slice(0, n) };
  return { kept: sorted.slice(0, sorted.length - n), ignored: sorted.slice(sorted.length - n) };
}
