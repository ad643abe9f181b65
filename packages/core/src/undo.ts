import { RuleError } from './errors';

/**
 * Undo and redo over an append-only log. Nothing is ever removed: an undo is itself an event naming
 * the entry it takes back, a redo names the undo it reverses, and the state is the fold of the entries
 * still in effect.
 */
export interface UndoMark {
  readonly seq: number;
  /** 'action' for an ordinary entry that may be undone; 'undo' / 'redo' for the marks themselves. */
  readonly kind: 'action' | 'undo' | 'redo' | 'fixed';
  /** For 'undo': the action it takes back; for 'redo': the undo it reverses. */
  readonly target?: number;
}

export interface UndoPosition {
  /** Actions in effect, oldest first. */
  readonly active: readonly number[];
  /** Undone actions that a redo would bring back, most recently undone last. */
  readonly redoable: readonly number[];
}

export function undoPosition(marks: readonly UndoMark[]): UndoPosition {
  const active: number[] = [];
  const redoable: number[] = [];
  for (const m of marks) {
    if (m.kind === 'action') {
      active.push(m.seq);
      redoable.length = 0;
    } else if (m.kind === 'undo' && m.target !== undefined) {
      const i = active.lastIndexOf(m.target);
      if (i >= 0) active.splice(i, 1);
      redoable.push(m.target);
    } else if (m.kind === 'redo' && m.target !== undefined) {
      const i = redoable.lastIndexOf(m.target);
      if (i >= 0) redoable.splice(i, 1);
      active.push(m.target);
    }
  }
  return { active, redoable };
}

/**
 * Undo and redo name the version of the table they were asked from (`seen`: the number of events the
 * issuer's view held): what the issuer saw is what they take back, never an action that arrived after
 * they looked, and of two undos asked from the same view only the first applies.
 */
export function requireSeen(version: number, seen: number | undefined, what: 'undo' | 'redo'): void {
  if (seen === undefined) throw new RuleError('seen-required', `${what} names the table version it was asked from (seen)`, 'seen');
  if (seen !== version) {
    throw new RuleError('stale', `the table is at version ${version}, but the ${what} was asked from version ${seen}: look at the table again before you ${what}`, 'seen');
  }
}
