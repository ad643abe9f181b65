import { seed } from './rules';

/**
 * Going Stealthy (d100-combat-rules.txt, "Special Movement Actions"; "Hindered Movement"): a
 * character no enemy has in Line of Sight may enter stealth. Moving in stealth is Hindered, or at full
 * speed with two Disadvantages on the stealth test; the seed names that test but never says when it
 * is made or what stealth gives, so the engine tests on each stealthy Move (Stealth, else Agility) and
 * option stealthAttack decides what an attack from stealth gains.
 */
export const STEALTH_CITATION = seed('Special Movement Actions');

/** Disadvantages on the stealth test of a Move at full speed ("Hindered Movement", Stealth). */
export const FULL_SPEED_DISADVANTAGES = 2;

/** A stealthy Move's stealth test, as the event records it. */
export interface StealthTest {
  readonly target: number;
  readonly roll: number;
  readonly success: boolean;
  readonly fullSpeed: boolean;
  /** The Fate Point Advantages it took ("Fate Points"), when the Move made no terrain test before it. */
  readonly fate?: number;
}
