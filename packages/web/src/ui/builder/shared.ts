import type { Draft, Problem } from '../../lib/draft';
import { ATTRIBUTES, ATTRIBUTE_LABELS, type CharacterSheet, type Gear } from '../../lib/rules';

/** Change the draft's sheet in place (the builder hands each step a fresh copy). */
export type Edit = (fn: (s: CharacterSheet) => void) => void;
/** The problems reported at one path of the sheet. */
export type At = (path: string) => Problem[];
export type SetDraft = (fn: (d: Draft) => Draft) => void;

export const ATTRIBUTE_OPTIONS = ATTRIBUTES.map((a) => ({ value: a, label: ATTRIBUTE_LABELS[a] }));

/** After adding an item, put the keyboard on its first field. */
export function focusSoon(id: string): void {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

/** A new item of gear of one kind, with the commonest details filled in. */
export function blankGear(type: Gear['type'], name = ''): Gear {
  if (type === 'weapon') return { type, name, size: 'one-handed', range: 'melee', group: 'blades' };
  if (type === 'shield') return { type, name, weight: 'light' };
  return { type, name };
}
