import { CHALLENGE_EVENTS } from './apply/challenges';
import { CLOCK_EVENTS } from './apply/clock';
import { CRITICAL_EVENTS } from './apply/criticals';
import { EFFECT_EVENTS } from './apply/effects';
import { HEALTH_EVENTS } from './apply/health';
import type { Apply, Appliers } from './apply/shared';
import { setUp, TABLE_EVENTS } from './apply/table';
import { TURN_EVENTS } from './apply/turns';
import type { EncounterEvent, EventBody, EventType } from './events';
import { EMPTY_STATE, type EncounterState, type PastNode, type Snapshot } from './state';

/**
 * evolve(state, event) -> state: apply one event. Pure and total: it never rolls a die and never
 * refuses; every decision was made by `decide` and written into the event.
 */
export function evolve(state: EncounterState, event: EncounterEvent): EncounterState {
  if (event.seq !== state.sequence + 1) {
    throw new RangeError(`event #${event.seq} cannot follow event #${state.sequence}`);
  }
  const past = state.past ?? ROOT;
  if (event.type === 'undone' || event.type === 'redone') {
    const target = find(past, event.toSequence);
    if (!target) throw new RangeError(`event #${event.seq}: there is no event #${event.toSequence} to return to`);
    const redo = event.type === 'undone' ? [...state.redo, state.sequence] : state.redo.slice(0, -1);
    const node: PastNode = { sequence: event.seq, action: event.action, now: target.now, undoTo: target.undoTo, previous: past };
    return { sequence: event.seq, now: target.now, undoTo: target.undoTo, redo, past: node };
  }
  const now = applyEvent(state.now, event);
  const undoTo = event.action - 1;
  const node: PastNode = { sequence: event.seq, action: event.action, now, undoTo, previous: past };
  return { sequence: event.seq, now, undoTo, redo: [], past: node };
}

const ROOT: PastNode = { sequence: 0, action: 0, now: null, undoTo: null, previous: null };

/** The node of event `sequence`, walking back from the latest. */
export function find(node: PastNode | null, sequence: number): PastNode | undefined {
  for (let n = node; n; n = n.previous) {
    if (n.sequence === sequence) return n;
    if (n.sequence < sequence) return undefined;
  }
  return sequence === 0 ? ROOT : undefined;
}

/** Fold a whole log from the empty state. */
export function fold(events: readonly EncounterEvent[], from: EncounterState = EMPTY_STATE): EncounterState {
  let state = from;
  for (const e of events) state = evolve(state, e);
  return state;
}

/**
 * One function per event type, gathered from the modules that own them: the compiler checks that
 * every event but the set-up (which starts from nothing) has one.
 */
const APPLY: Appliers<Exclude<EventType, 'set-up'>> = {
  ...TABLE_EVENTS,
  ...CLOCK_EVENTS,
  ...TURN_EVENTS,
  ...CHALLENGE_EVENTS,
  ...HEALTH_EVENTS,
  ...CRITICAL_EVENTS,
  ...EFFECT_EVENTS,
  // Handled by evolve with the log's past; on a bare snapshot they change nothing.
  undone: (now) => now,
  redone: (now) => now,
};

/** Apply a domain event to the snapshot. */
export function applyEvent(before: Snapshot | null, event: EventBody): Snapshot {
  if (event.type === 'set-up') return setUp(event);
  if (!before) throw new RangeError(`a "${event.type}" event needs a table that has been set up`);
  return (APPLY[event.type] as Apply<typeof event.type>)(before, event);
}
