import { RuleError } from '@personae/core';
import { EQUIPMENT_CITATION, type Weapon } from './equipment';
import type { Fighter } from './fighter';
import { reloadActions } from './movement';
import type { D100Sheet } from './sheet';
import type { TestResult } from './test';

/**
 * Ammunition (d100-combat-rules.txt, "Equipment Actions (Consumables, Reloading)", Reload; "Fumble"):
 * a Ballistic weapon whose sheet gives a `clip` has its shots counted. Each attack with it fires one;
 * a Fumble jams it and loses all it holds; an empty weapon is reloaded before it fires again. Reload
 * takes the weapon's `reload` Actions, one per Action spent on it, and a spare load when it is done.
 */
export const RELOAD_CITATION = EQUIPMENT_CITATION;

/** The skills that may hurry a Reload: Ballistics (weapon class) or Survival (Equipment). */
export const HURRY_SKILLS = ['ballistics', 'survival'] as const;
export type HurrySkill = (typeof HURRY_SKILLS)[number];

/** Shots left in the weapon: the fighter's count once it has fired, else a full clip. */
export function shotsIn(f: Pick<Fighter, 'loaded'>, w: Weapon): number {
  return f.loaded?.[w.name] ?? w.clip ?? 0;
}

/** Spare loads left for the weapon, or null when the sheet does not count them. */
export function spareLoadsOf(f: Pick<Fighter, 'spareLoads'>, w: Weapon): number | null {
  return f.spareLoads?.[w.name] ?? w.spareLoads ?? null;
}

/** The weapon named, that must count its ammunition. */
export function reloadable(sheet: D100Sheet, name: string, field: string): Weapon & { clip: number } {
  const w = sheet.weapons.find((x) => x.name === name);
  if (!w) throw new RuleError('unknown-weapon', `${field}: ${sheet.name} has no weapon "${name}"`, field, RELOAD_CITATION);
  if (w.clip === undefined) throw new RuleError('not-reloadable', `${field}: ${sheet.name}'s ${name} has no clip on the sheet, so the table does not count its ammunition`, field, RELOAD_CITATION);
  return w as Weapon & { clip: number };
}

/** The fighter's shot counts after an attack with the weapon: one fewer, or none after a Fumble (it jams). */
export function afterShot(f: Pick<Fighter, 'loaded'>, w: Weapon, fumble: boolean): Readonly<Record<string, number>> {
  return { ...f.loaded, [w.name]: fumble ? 0 : Math.max(0, shotsIn(f, w) - 1) };
}

/** Actions a Reload begun now takes in all: the weapon's, less what a passed hurry test saves (at least 1). */
export function reloadTotal(w: Weapon, hurry: TestResult | null): number {
  return reloadActions(w.reload ?? 1, hurry ?? undefined);
}

/** The fighter once an Action went on reloading the weapon: still under way, or full with a spare load used. */
export function afterReloadAction(f: Fighter, w: Weapon & { clip: number }, left: number): Fighter {
  if (left > 0) return { ...f, reloading: { weapon: w.name, left } };
  const spare = spareLoadsOf(f, w);
  const { reloading: _done, ...rest } = f;
  return { ...rest, loaded: { ...f.loaded, [w.name]: w.clip }, ...(spare !== null ? { spareLoads: { ...f.spareLoads, [w.name]: spare - 1 } } : {}) };
}
