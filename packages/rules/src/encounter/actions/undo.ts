import type { CommandOf } from '../commands';
import { RuleError } from '../errors';
import type { EncounterEvent } from '../events';
import { find } from '../evolve';
import type { EncounterState } from '../state';

// Undo and redo: events that return the state to an earlier event's, so the log stays append-only.

export function undo(state: EncounterState, command: CommandOf<'undo'>): EncounterEvent[] {
  if (!state.now) throw new RuleError('nothing-to-undo', 'nothing has happened yet');
  const target = command.toSequence ?? state.undoTo;
  if (target === null || target === undefined || target < 1) {
    throw new RuleError('nothing-to-undo', target === 0 ? 'the set-up itself cannot be undone' : 'there is no earlier action to return to', 'toSequence');
  }
  if (target >= state.sequence) throw new RuleError('undo-target', `event #${target} is not before the latest event (#${state.sequence})`, 'toSequence');
  const next = find(state.past, target + 1);
  if (!find(state.past, target) || !next) throw new RuleError('undo-target', `there is no event #${target}`, 'toSequence');
  if (next.action !== target + 1) {
    throw new RuleError('undo-target', `event #${target} is in the middle of an action: return to the end of an action (event #${next.action - 1} or later)`, 'toSequence');
  }
  const seq = state.sequence + 1;
  return [{ type: 'undone', toSequence: target, seq, action: seq }];
}

export function redo(state: EncounterState): EncounterEvent[] {
  const target = state.redo[state.redo.length - 1];
  if (target === undefined) throw new RuleError('nothing-to-redo', 'there is no undone action to redo');
  const seq = state.sequence + 1;
  return [{ type: 'redone', toSequence: target, seq, action: seq }];
}
