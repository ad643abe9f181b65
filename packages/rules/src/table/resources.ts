import { cite } from '@personae/core';
import { CORE_2011, endScene, rarityOf, resourceCap, type CharacterSheet } from '../character';
import { RuleError } from '../encounter';

/**
 * Resources at the table (personae-core-2011.txt "Resources"): what a character's Resource Cap lets
 * it buy, a purchase that lowers the Cap, and temporary boosts that last a number of scenes.
 */
export const RESOURCES = cite(CORE_2011, 'Resources');

/** A sheet after a change, with the words the table log gives it. */
export interface SheetChange {
  readonly sheet: CharacterSheet;
  readonly reason: string;
}

/**
 * A purchase: an item whose cost is above the Resource Cap cannot be bought; one at or below it can.
 * The documents give a purchase "a chance" of lowering the Cap but no way to find it, so the group
 * decides it and the GM says by how much (`lowersCap`); the loss comes off what the Resource talents
 * give, never below nothing.
 */
export function purchase(sheet: CharacterSheet, item: string, cost: number, lowersCap: number | undefined): SheetChange {
  const cap = resourceCap(sheet);
  if (cost > cap.total) {
    const parts = cap.temporary > 0 ? ` (${cap.permanent} from Resource talents + ${cap.temporary} temporary)` : '';
    throw new RuleError(
      'over-resource-cap',
      `${sheet.name} cannot buy ${item}: its cost ${cost} (${rarityOf(cost)}) is above the Resource Cap of ${cap.total}${parts}`,
      'cost',
      RESOURCES,
    );
  }
  const bought = `buys ${item} (cost ${cost}, ${rarityOf(cost)}; Resource Cap ${cap.total})`;
  if (!lowersCap) return { sheet, reason: bought };
  const lost = (sheet.resourceCapLost ?? 0) + lowersCap;
  const next = { ...sheet, resourceCapLost: lost };
  return { sheet: next, reason: `${bought}; the purchase lowers the Cap by ${lowersCap}, to ${resourceCap(next).total}` };
}

/** A temporary increase of the Resource Cap, tied to a number of scenes (a windfall, a boon). */
export function boost(sheet: CharacterSheet, amount: number, scenes: number, reason: string | undefined): SheetChange {
  const next = { ...sheet, resourceBoosts: [...sheet.resourceBoosts, { amount, scenes, ...(reason ? { reason } : {}) }] };
  return { sheet: next, reason: `Resource Cap +${amount} for ${scenes} scene${scenes === 1 ? '' : 's'}${reason ? ` (${reason})` : ''}, now ${resourceCap(next).total}` };
}

/** A scene ends: each temporary boost has one scene fewer left; those used up are gone. Null when nothing changes. */
export function sceneEnded(sheet: CharacterSheet): SheetChange | null {
  if (sheet.resourceBoosts.length === 0) return null;
  const next = endScene(sheet);
  const gone = sheet.resourceBoosts.length - next.resourceBoosts.length;
  return { sheet: next, reason: `the scene ends: temporary Resource Cap boosts count down${gone ? ` (${gone} spent)` : ''}, Resource Cap now ${resourceCap(next).total}` };
}
