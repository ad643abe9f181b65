import type { AilmentName } from './ailments';
import { altitudeOf, type Conditions } from './fighter';

/**
 * Who rolls what as turns pass (d100-combat-rules.txt, "Combat Structure", Steps Four and Five): the
 * next character to take a turn, the tests a turn's start or end makes by itself, and a falling
 * flyer's crash as the round ends. The engine rolls them; a table shows its dice boxes for them only.
 */

/** What these read of a character, alike in the engine's fighters and in the characters a view shows. */
export interface TurnTaker {
  readonly id: string;
  readonly out: boolean;
  readonly conditions: Conditions;
  readonly ailments: readonly { readonly name: AilmentName }[];
  readonly persona: { readonly wounds: number | null } | null;
}

/**
 * The next character in initiative order still in the fight, after `who` (from the top when null);
 * null at the end of the round. The Surprised lose their first turn (Step Two) and an unconscious
 * character takes none ("Fatigue and Exhaustion").
 */
export function nextIn(order: readonly string[], who: string | null, find: (id: string) => Pick<TurnTaker, 'out' | 'conditions'> | undefined): string | null {
  for (let i = who === null ? 0 : order.indexOf(who) + 1; i < order.length; i++) {
    const c = find(order[i]!);
    if (c && !c.out && !c.conditions.surprised && !c.conditions.unconscious) return order[i]!;
  }
  return null;
}

export type TurnStartTest = 'bloodLoss' | 'confused' | 'miasma';

/**
 * The tests the start of a character's turn makes, in the order they are rolled: Blood Loss ("Blood
 * Loss"), Confused's Intelligence test (the ailments passage), and an Evoker's Willpower test with no
 * living Persona in the Sea of Chaos ("Unprotected from Miasma", `miasma` the growth rate).
 */
export function turnStartTests(c: TurnTaker, evoker: boolean, miasma: number): TurnStartTest[] {
  const living = c.persona !== null && (c.persona.wounds ?? 0) > 0;
  return [...(c.conditions.bloodLoss ? ['bloodLoss' as const] : []), ...(c.ailments.some((a) => a.name === 'confused') ? ['confused' as const] : []), ...(miasma > 0 && evoker && !living ? ['miasma' as const] : [])];
}

/** Frozen: a test at the end of each of its turns to break free (the ailments passage). */
export function testsAtTurnEnd(c: TurnTaker): boolean {
  return c.ailments.some((a) => a.name === 'frozen');
}

/** A falling flyer at Low reaches Ground as the round ends and crashes, with a location roll (the flight passage after "Difficult Terrain"). */
export function crashesAtRoundEnd(c: TurnTaker): boolean {
  return !!c.conditions.falling && altitudeOf(c) === 'low' && !c.out;
}

/**
 * The characters whose `turn:` dice an end of the current turn draws, as a table shows it: the one
 * ending its turn when it tests then, the flyers crashing when the round ends, and the next to start
 * when its start makes a test. An unconscious character's count of rounds goes down as the round ends.
 */
export function endTurnRollers(table: { readonly order: readonly string[]; readonly current: string | null; readonly characters: readonly (TurnTaker & { readonly sheet?: { readonly kind?: string } | undefined })[]; readonly miasma?: number }): string[] {
  const find = (id: string) => table.characters.find((c) => c.id === id);
  const current = table.current === null ? undefined : find(table.current);
  if (!current) return [];
  const rollers = testsAtTurnEnd(current) ? [current.id] : [];
  let next = nextIn(table.order, current.id, find);
  if (next === null) {
    rollers.push(...table.characters.filter(crashesAtRoundEnd).map((c) => c.id));
    next = nextIn(table.order, null, (id) => {
      const c = find(id);
      return c && { out: c.out, conditions: { ...c.conditions, surprised: false, unconscious: Math.max(0, (c.conditions.unconscious ?? 0) - 1) } };
    });
  }
  const starter = next === null ? undefined : find(next);
  if (starter && turnStartTests(starter, starter.sheet?.kind === 'evoker', table.miasma ?? 0).length) rollers.push(starter.id);
  return [...new Set(rollers)];
}
