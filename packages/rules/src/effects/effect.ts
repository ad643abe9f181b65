import type { z } from 'zod';
import type { RerollSpec } from '../challenge/reroll';
import type { Labeled } from './labeled';
import type { ScopeKind, SideRole } from './scope';

/** The challenge a side is built for, as an effect sees it. */
export interface EffectContext {
  readonly role: SideRole;
  readonly kind: ScopeKind;
  /** Answering an attack challenge (armor counts only then). */
  readonly answeringAttack: boolean;
}

/** What the effects in force add to one side, each part labelled with its source. */
export interface SideParts {
  readonly bonusDice: Labeled[];
  readonly modifiers: Labeled[];
  readonly rerolls: RerollSpec[];
  readonly forceRerolls: RerollSpec[];
  /** Extra hits a successful attack or harmful power inflicts. */
  readonly extraHits: Labeled[];
  readonly steer: Labeled[];
  /** Dice of the attacker this side's armor sets aside, after rerolls. */
  readonly ignoreOpponentDice: Labeled[];
}

export function emptySideParts(): SideParts {
  return { bonusDice: [], modifiers: [], rerolls: [], forceRerolls: [], extraHits: [], steer: [], ignoreOpponentDice: [] };
}

/** The options an effect's upgrade count depends on. */
export interface UpgradeOptions {
  readonly rerollDefault: 'second' | 'better';
}

/**
 * One type of ability effect: its schema beside its behaviour. `describe` says what it does in words
 * (the one wording the sheet checks, the CLI and the web app use); `upgrades` is what its size takes
 * under personae-core-2011.txt "The Framework of Advancement"; `changesRoll` says whether it does
 * anything for this side of this challenge, and `apply` adds it to the side; `odds` says what it does
 * to the chance of success.
 */
export interface EffectType<E extends { readonly type: string }> {
  readonly type: E['type'];
  readonly schema: z.ZodType<E, any>;
  /** A short name for menus ("+ dice"). */
  readonly label: string;
  describe(effect: E): string;
  upgrades(effect: E, options: UpgradeOptions): number;
  /** The size the builder edits (dice, amount, hits, steps); absent when the effect has none. */
  readonly size?: { readonly get: (effect: E) => number; readonly max: number };
  changesRoll(effect: E, ctx: EffectContext): boolean;
  apply(effect: E, source: string, ctx: EffectContext, side: SideParts): void;
  readonly odds: 'pool' | 'result' | 'rerolls' | 'armor' | 'grade' | 'none';
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
