import { describe, expect, it } from 'vitest';
import { logAt, logEntries, undoPosition, type Actor } from '@personae/core';
import { seededDice } from '@personae/dice';
import { applyEvent, decideEncounter, evolveEncounter, initialEncounter, optionsOf, parseEncounterCommand, type LucidityCommandInput, type LucidityTableState } from '../src';

const GM: Actor = { role: 'gm', participantId: 'gm' };
const dice = seededDice(9);

function apply(state: LucidityTableState, raw: LucidityCommandInput): LucidityTableState {
  const parsed = parseEncounterCommand(raw);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideEncounter(state, parsed.command, { actor: GM, dice, now: '2026-01-01T00:00:00Z' }).reduce(evolveEncounter, state);
}

/** The game as the undo rule defines it: the entries still in effect, folded in order from the start. */
function foldedInEffect(s: LucidityTableState) {
  let game = initialEncounter().game;
  for (const seq of [...undoPosition(logEntries(s.marks)).active].sort((a, b) => a - b)) game = applyEvent(game, logAt(s.log, seq - 1)!, optionsOf(s));
  return game;
}

describe('a long Lucidity log: undo and redo without folding everything again', () => {
  it('after every command of a long mix of actions, undos and redos the game is the fold of the entries in effect', () => {
    let s = initialEncounter();
    s = apply(s, { type: 'add', id: 'a', side: 'party', statBlock: { name: 'A', health: 40, lucidity: 14, energy: 5 } });
    s = apply(s, { type: 'add', id: 'b', side: 'foe', statBlock: { name: 'B', health: 60, defense: 10 } });
    s = apply(s, { type: 'start', dice: { a: 20, b: 10 } });
    // A fixed pattern: runs of undos and redos of different lengths between actions.
    const pattern = ['act', 'act', 'undo', 'act', 'undo', 'undo', 'redo', 'act', 'undo', 'redo', 'redo', 'act', 'act', 'act', 'undo', 'undo', 'undo', 'redo', 'end', 'act'];
    let fast = 0;
    for (let i = 0; i < 200; i++) {
      const step = pattern[i % pattern.length]!;
      const before = s;
      try {
        s = apply(s, step === 'undo' ? { type: 'undo' } : step === 'redo' ? { type: 'redo' } : step === 'end' ? { type: 'end-turn' } : { type: 'damage', target: i % 2 ? 'a' : 'b', amount: 1 + (i % 3) });
      } catch (e) {
        if (!/nothing to (undo|redo)/.test((e as Error).message)) throw e;
      }
      if (s !== before && (step === 'undo' || step === 'redo')) fast++;
      expect(s.game).toEqual(foldedInEffect(s));
    }
    expect(fast).toBeGreaterThan(50);
  });
});
