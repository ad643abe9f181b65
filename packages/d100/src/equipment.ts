import { RuleError } from '@personae/core';
import type { AilmentName } from './ailments';
import type { Fighter, Position } from './fighter';
import { injuriesAfterRestoring } from './injuries';
import type { D100Options } from './options';
import { seed } from './rules';
import type { D100Sheet } from './sheet';
import { restoreWounds } from './wounds';

/**
 * Equipment Actions (d100-combat-rules.txt, "Equipment Actions (Consumables, Reloading)"): Equip
 * Item draws a carried weapon into hand, optionally putting another away, free for a one-handed item
 * and an Action for a two-handed one; Use Consumable uses a consumable on the user or an ally within
 * 5 metres. A consumable's effect is data on the sheet.
 */
export const EQUIPMENT_CITATION = seed('Equipment Actions (Consumables, Reloading)');

/** How far a consumable reaches: an ally within 5 metres. */
export const CONSUMABLE_REACH = 5;

export type Weapon = D100Sheet['weapons'][number];
export type ConsumableEffect = D100Sheet['consumables'][number]['effect'];

/**
 * The weapon an attack uses: the one it names, else the first in hand. A weapon put away (`stowed`)
 * must be drawn with Equip Item first. Undefined when the character has none in hand and names none.
 */
export function weaponOf(sheet: D100Sheet, f: Pick<Fighter, 'stowed'>, name: string | undefined): Weapon | undefined {
  const stowed = f.stowed ?? sheet.stowed;
  if (name === undefined) return sheet.weapons.find((w) => !stowed.includes(w.name));
  const w = sheet.weapons.find((x) => x.name === name);
  if (!w) throw new RuleError('unknown-weapon', `weapon: ${sheet.name} has no weapon "${name}"`, 'weapon', seed('How Attacks Work'));
  if (stowed.includes(name)) throw new RuleError('weapon-stowed', `weapon: ${sheet.name}'s ${name} is put away; Equip Item draws it first`, 'weapon', EQUIPMENT_CITATION);
  return w;
}

/**
 * The weapons one hand holds, for what makes a character drop them (Confused): of the weapons in hand
 * (a magic one is a Power, held in neither), a two-handed one is in both hands and the one-handed ones
 * go right, left, right... in the sheet's order, the right being the hand an attack uses unless told.
 */
export function heldIn(sheet: D100Sheet, f: Pick<Fighter, 'stowed'>, hand: 'right' | 'left'): string[] {
  const stowed = f.stowed ?? sheet.stowed;
  let oneHanded = 0;
  return sheet.weapons.filter((w) => !stowed.includes(w.name) && w.class !== 'magic' && (w.hands === 2 || (oneHanded++ % 2 === 0 ? 'right' : 'left') === hand)).map((w) => w.name);
}

/** What drawing `item` (and putting `stow` away) costs in the turn: free one-handed, an Action two-handed. */
export function equipCost(sheet: D100Sheet, f: Pick<Fighter, 'stowed'>, item: string, stow: string | undefined): 'free' | 'action' {
  const stowed = f.stowed ?? sheet.stowed;
  const w = sheet.weapons.find((x) => x.name === item);
  if (!w) throw new RuleError('unknown-weapon', `item: ${sheet.name} carries no weapon "${item}"`, 'item', EQUIPMENT_CITATION);
  if (!stowed.includes(item)) throw new RuleError('already-equipped', `item: ${sheet.name}'s ${item} is already in hand`, 'item', EQUIPMENT_CITATION);
  if (stow !== undefined) {
    if (!sheet.weapons.some((x) => x.name === stow)) throw new RuleError('unknown-weapon', `stow: ${sheet.name} carries no weapon "${stow}"`, 'stow', EQUIPMENT_CITATION);
    if (stowed.includes(stow)) throw new RuleError('not-equipped', `stow: ${sheet.name}'s ${stow} is not in hand`, 'stow', EQUIPMENT_CITATION);
  }
  return w.hands === 2 ? 'action' : 'free';
}

/** The weapons put away after drawing `item` and stowing `stow`. */
export function afterEquip(stowed: readonly string[], item: string, stow: string | undefined): string[] {
  return [...stowed.filter((n) => n !== item), ...(stow !== undefined ? [stow] : [])];
}

/** How many of each consumable a character has left. */
export function consumablesLeft(sheet: D100Sheet, f: Pick<Fighter, 'consumables'>): Record<string, number> {
  return { ...Object.fromEntries(sheet.consumables.map((c) => [c.name, c.count])), ...f.consumables };
}

/** Metres between two placed characters on the square grid (a diagonal is 1 m), elevation counted. */
export function distance(a: Position, b: Position): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.elevation - b.elevation));
}

/**
 * A consumable's effect on the character it is used on: wounds restored (Light, then Heavy, with the
 * Injuries that go with them, as for any restoring), Stress relieved, Spirit and Exertion restored up to
 * their pools, the ailments it cures ended.
 */
export function applyConsumable(f: Fighter, effect: ConsumableEffect, options: D100Options): Fighter {
  const r = restoreWounds(f.tracks, effect.light ?? 0, effect.heavy ?? 0);
  const injuries = injuriesAfterRestoring(f.injuries, r.heavyRestored, r.tracks.left.heavy === r.tracks.max.heavy, options);
  const pool = (k: 'spirit' | 'exertion') => ({ ...f.resources[k], current: Math.min(f.resources[k].max, f.resources[k].current + (effect[k] ?? 0)) });
  const cures: readonly AilmentName[] = effect.cures ?? [];
  return { ...f, tracks: r.tracks, injuries, stress: Math.max(0, f.stress - (effect.stress ?? 0)), resources: { spirit: pool('spirit'), exertion: pool('exertion') }, ailments: f.ailments.filter((a) => !cures.includes(a.name)) };
}
