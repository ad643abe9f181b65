import type { DiceSource } from '@personae/dice';
import type { EncounterCommand } from './commands';
import { decide } from './decide';
import type { EncounterEvent } from './events';
import { evolve, fold } from './evolve';
import { EMPTY_STATE, type EncounterState } from './state';

/** Decide a command and apply its events: the next state and what happened. */
export function execute(state: EncounterState, command: EncounterCommand, dice: DiceSource): { state: EncounterState; events: EncounterEvent[] } {
  const events = decide(state, command, dice);
  let next = state;
  for (const e of events) next = evolve(next, e);
  return { state: next, events };
}

/** Rebuild the state from a log; never rolls a die. */
export function replay(events: readonly EncounterEvent[]): EncounterState {
  return fold(events, EMPTY_STATE);
}

/** Every event that is still in effect, in order: the log with undone actions left out (what a view shows). */
export function effectiveEvents(events: readonly EncounterEvent[]): EncounterEvent[] {
  // The effective history at each point: a stack of event lists, restored by undo and redo.
  const at = new Map<number, EncounterEvent[]>([[0, []]]);
  let current: EncounterEvent[] = [];
  for (const e of events) {
    if (e.type === 'undone' || e.type === 'redone') current = [...(at.get(e.toSequence) ?? [])];
    else current = [...current, e];
    at.set(e.seq, current);
  }
  return current;
}
