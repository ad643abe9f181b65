import { RuleError } from '@personae/core';
import type { Fighter } from './fighter';
import { ruleCitation } from './rules';

/**
 * The turn's economy (d100-combat-rules.txt, "Structured Time"): each Turn a character has one Move
 * and one Action, used in any order, and free actions beside them. A One More ("One More") is one
 * extra Move or Action; a Baton Pass hands it to an ally and an All Out Attack spends it.
 */

export type Slot = 'action' | 'move';

/** What a character has spent of its own Turn: the label of what took the Action and the Move, and the hands an All-Weapon Attack has used. */
export type TurnSpent = NonNullable<Fighter['turn']>;

export const NOTHING_SPENT: TurnSpent = { action: null, move: null };

/** What one step of a command costs: the Action, the Move, or both, each with what it was spent on. */
export interface Cost {
  readonly who: string;
  readonly action?: string;
  readonly move?: string;
  /** An All-Weapon Attack with this hand: further ones share the Action that the first spent. */
  readonly allWeapon?: 'right' | 'left';
  /** Charge: a Basic Move already made this Turn is the Charge's own Move. */
  readonly chargeMove?: boolean;
}

/** The turn's clock as the economy reads it: whose Turn it is and who holds a One More. */
export interface Clock {
  readonly current: string | null;
  readonly oneMore: { readonly holder: string } | null;
}

/** How a cost is paid: from the character's own Turn, or with the One More it holds. */
export type Payment = 'own' | 'one-more';

const ALL_WEAPON = 'All-Weapon Attack';
const BASIC_MOVE = 'Basic Move';

export function spentOf(f: Fighter): TurnSpent {
  return f.turn ?? NOTHING_SPENT;
}

/** What is left of a character's Turn and One More, as the table shows it. */
export interface Remaining {
  /** Its own Action and Move are unspent (only on its own Turn). */
  readonly action: boolean;
  readonly move: boolean;
  /** What took them, when spent. */
  readonly actionSpentOn: string | null;
  readonly moveSpentOn: string | null;
  /** It holds a One More: one more Move or Action. */
  readonly oneMore: boolean;
}

export function remaining(clock: Clock, f: Fighter): Remaining {
  const s = spentOf(f);
  const own = clock.current === f.id;
  return { action: own && s.action === null, move: own && s.move === null, actionSpentOn: s.action, moveSpentOn: s.move, oneMore: clock.oneMore?.holder === f.id };
}

function slotFree(clock: Clock, f: Fighter, slot: Slot): boolean {
  return clock.current === f.id && spentOf(f)[slot] === null;
}

function refuseSpent(f: Fighter, slot: Slot, wanted: string): never {
  const s = spentOf(f);
  const what = slot === 'action' ? 'Action' : 'Move';
  const spent = s[slot] !== null ? `has already spent its ${what} this Turn on ${s[slot]}` : 'is not taking its Turn';
  throw new RuleError(`no-${slot}-left`, `type: ${f.name} ${spent} and holds no One More: no ${what} is left for ${wanted} (one Move and one Action per Turn)`, 'type', ruleCitation('structuredTime'));
}

/**
 * How a cost is paid, or a refusal naming what was already spent. The own Action or Move comes first;
 * a One More pays for one Move or one Action, never both. A second All-Weapon Attack with the other hand
 * is part of the Action the first spent.
 */
export function payFor(clock: Clock, f: Fighter, cost: Cost): Payment | null {
  const s = spentOf(f);
  const slots: Slot[] = [...(cost.action ? ['action' as const] : []), ...(cost.move ? ['move' as const] : [])];
  if (!slots.length) return null;
  if (cost.allWeapon && s.action === ALL_WEAPON && clock.current === f.id) {
    if ((s.hands ?? []).includes(cost.allWeapon)) throw new RuleError('hand-used', `hand: ${f.name} has already attacked with its ${cost.allWeapon} hand in this All-Weapon Attack`, 'hand', { document: ruleCitation('structuredTime').document, section: 'Standard Attack and other Attack Actions' });
    return null;
  }
  const moveCovered = cost.chargeMove && clock.current === f.id && s.move === BASIC_MOVE;
  const needed = slots.filter((slot) => !(slot === 'move' && moveCovered));
  if (needed.every((slot) => slotFree(clock, f, slot))) return 'own';
  const holder = clock.oneMore?.holder === f.id;
  const free = needed.filter((slot) => slotFree(clock, f, slot));
  if (holder && needed.length - free.length === 1) return 'one-more';
  const short = needed.find((slot) => !slotFree(clock, f, slot))!;
  return refuseSpent(f, short, cost.action ?? cost.move ?? 'act');
}

/** The character after paying: the slots it spent from its own Turn marked with what took them. */
export function afterPaying(clock: Clock, f: Fighter, cost: Cost): Fighter {
  const s = spentOf(f);
  if (cost.allWeapon && s.action === ALL_WEAPON && clock.current === f.id) return { ...f, turn: { ...s, hands: [...(s.hands ?? []), cost.allWeapon] } };
  const action = cost.action && slotFree(clock, f, 'action') ? cost.action : s.action;
  const charged = cost.chargeMove && s.move === BASIC_MOVE;
  const move = cost.move && (slotFree(clock, f, 'move') || charged) ? cost.move : s.move;
  const hands = cost.allWeapon && action === ALL_WEAPON && s.action !== ALL_WEAPON ? { hands: [cost.allWeapon] } : {};
  return { ...f, turn: { ...s, action, move, ...hands } };
}

/** Whether paying spends the One More: some slot of the cost is no longer the character's own to spend. */
export function spendsOneMore(clock: Clock, f: Fighter, cost: Cost): boolean {
  try {
    return payFor(clock, f, cost) === 'one-more';
  } catch {
    return false;
  }
}

export const ECONOMY_LABELS = { allWeapon: ALL_WEAPON, basicMove: BASIC_MOVE } as const;
