import type { Actor } from '@personae/core';
import { givenDice, type DiceSource } from '@personae/dice';
import { decideEncounter, encounterDecider, evolveEncounter, type EncounterCommand, type EncounterEvent, type EncounterState } from '../src';

/** Drives an encounter with raw commands as a table would, the dice given (or a dice source) standing in for the server's. */
export const GM: Actor = { role: 'gm', participantId: 'gm' };

export function decide(state: EncounterState, command: Record<string, unknown>, dice: number[] | DiceSource = [], actor: Actor = GM): EncounterEvent[] {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const source = Array.isArray(dice) ? givenDice(dice) : dice;
  return decideEncounter(state, parsed.command as EncounterCommand, { actor, dice: { kind: 'seeded', die: (sides) => source.die(sides) }, now: '' });
}

export function run(state: EncounterState, command: Record<string, unknown>, dice: number[] = [], actor: Actor = GM): EncounterState {
  return decide(state, command, dice, actor).reduce(evolveEncounter, state);
}

/** 'accepted', or the refusal's code, field, message and the seed section it cites. */
export function refusal(state: EncounterState, command: Record<string, unknown>, dice: number[] = [], actor: Actor = GM) {
  try {
    decide(state, command, dice, actor);
    return 'accepted';
  } catch (e) {
    const r = e as { code: string; field?: string; message: string; rule?: { section: string } };
    return { code: r.code, field: r.field, message: r.message, section: r.rule?.section };
  }
}
