import { RuleError } from '@personae/core';
import { MAX_MODIFIER, type Attribute, type Attributes } from './attributes';
import { seed } from './citation';
import type { LucidityOptions } from './options';

// lucidity-primary-character.txt, "Advancement": the XP total each level needs.
const XP_TABLE: readonly number[] = [0, 10, 30, 60, 100, 150];
/** The highest level under levelsAbove6=extrapolate. */
export const MAX_EXTRAPOLATED_LEVEL = 20;

/** The XP total a level needs; null when the table (and option levelsAbove6) has no such level. */
export function xpForLevel(level: number, opts: Pick<LucidityOptions, 'levelsAbove6'>): number | null {
  if (!Number.isInteger(level) || level < 1) return null;
  if (level <= XP_TABLE.length) return XP_TABLE[level - 1]!;
  if (opts.levelsAbove6 === 'none' || level > MAX_EXTRAPOLATED_LEVEL) return null;
  // The table's steps grow by 10 (10, 20, 30, 40, 50): keep growing them.
  let xp = XP_TABLE[XP_TABLE.length - 1]!;
  let step = 50;
  for (let l = XP_TABLE.length + 1; l <= level; l++) {
    step += 10;
    xp += step;
  }
  return xp;
}

export function maxLevel(opts: Pick<LucidityOptions, 'levelsAbove6'>): number {
  return opts.levelsAbove6 === 'none' ? XP_TABLE.length : MAX_EXTRAPOLATED_LEVEL;
}

/** The level an XP total reaches. */
export function levelForXp(xp: number, opts: Pick<LucidityOptions, 'levelsAbove6'>): number {
  if (!Number.isInteger(xp) || xp < 0) throw new RuleError('lucidity.xp', `xp: a whole number from 0, not ${xp}`, 'xp', seed('Advancement'));
  let level = 1;
  for (let l = 2; l <= maxLevel(opts); l++) if (xp >= xpForLevel(l, opts)!) level = l;
  return level;
}

/** +1 to one attribute on gaining a level, never above +3 by this route ("Advancement"). */
export function raiseAttribute(attrs: Attributes, attribute: Attribute, field = 'advancement'): Attributes {
  const now = attrs[attribute];
  if (now + 1 > MAX_MODIFIER) {
    throw new RuleError('lucidity.level-raise', `${field}: ${attribute} is +${now}; a level-up cannot bring an attribute above +${MAX_MODIFIER}`, field, seed('Advancement'));
  }
  return { ...attrs, [attribute]: now + 1 };
}
