import { describe, expect, it } from 'vitest';
import { logAt, logEntries, undoPosition, type Actor } from '@personae/core';
import { seededDice } from '@personae/dice';
import { applyEvent, decideEncounter, evolveEncounter, initialEncounter, optionsOf, parseEncounterCommand, viewEncounter, type LucidityCommandInput, type LucidityEvent, type LucidityTableState } from '../src';
import { decideRecorded, parseRecorded } from './recorded';

const GM: Actor = { role: 'gm', participantId: 'gm' };
const dice = seededDice(9);

function apply(state: LucidityTableState, raw: LucidityCommandInput): LucidityTableState {
  const parsed = parseRecorded(raw);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideRecorded(state, parsed.command, { actor: GM, dice, now: '2026-01-01T00:00:00Z' }).reduce(evolveEncounter, state);
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
        s = apply(s, step === 'undo' || step === 'redo' ? { type: step, seen: s.log.length } : step === 'end' ? { type: 'end-turn' } : { type: 'damage', target: i % 2 ? 'a' : 'b', amount: 1 + (i % 3) });
      } catch (e) {
        if (!/nothing to (undo|redo)/.test((e as Error).message)) throw e;
      }
      if (s !== before && (step === 'undo' || step === 'redo')) fast++;
      expect(s.game).toEqual(foldedInEffect(s));
    }
    expect(fast).toBeGreaterThan(50);
  });

  it('the next undo and redo are the latest entry in effect and the latest undone, as the undo marks define them', () => {
    let s = initialEncounter();
    s = apply(s, { type: 'add', id: 'a', side: 'party', statBlock: { name: 'A', health: 40, lucidity: 14, energy: 5 } });
    s = apply(s, { type: 'add', id: 'b', side: 'foe', statBlock: { name: 'B', health: 60, defense: 10 } });
    const pattern = ['act', 'undo', 'undo', 'redo', 'act', 'act', 'undo', 'redo', 'redo', 'undo', 'undo', 'undo', 'redo', 'act'];
    const target = (cmd: 'undo' | 'redo') => {
      try {
        const e = decideRecorded(s, { type: cmd, seen: s.log.length }, { actor: GM, dice, now: '' });
        return (e[0] as Extract<LucidityEvent, { type: 'undone' | 'redone' }>).data.target;
      } catch {
        return null;
      }
    };
    for (let i = 0; i < 60; i++) {
      const position = undoPosition(logEntries(s.marks));
      expect(target('undo')).toBe(position.active.at(-1) ?? null);
      expect(target('redo')).toBe(position.redoable.at(-1) ?? null);
      expect(viewEncounter(s, GM).canUndo).toBe(position.active.length > 0);
      const step = pattern[i % pattern.length]!;
      if (step === 'act') s = apply(s, { type: 'damage', target: i % 2 ? 'a' : 'b', amount: 1 });
      else if (target(step as 'undo' | 'redo') !== null) s = apply(s, { type: step as 'undo' | 'redo', seen: s.log.length });
    }
  });

  it('views kept up as the log grows equal views of the same log folded afresh, through reveals and undos', () => {
    const player: Actor = { role: 'player', participantId: 'p1' };
    const refolded = (state: LucidityTableState) => (JSON.parse(JSON.stringify(logEntries(state.log))) as LucidityEvent[]).reduce(evolveEncounter, initialEncounter());
    const view = (state: LucidityTableState, who: Actor) => JSON.stringify(viewEncounter(state, who));
    let s = initialEncounter();
    s = apply(s, { type: 'add', id: 'a', side: 'party', statBlock: { name: 'A', health: 400, lucidity: 14, energy: 5 } });
    s = apply(s, { type: 'add', id: 'lurker', side: 'foe', hidden: true, statBlock: { name: 'Marsh Lurker', health: 600, defense: 10 } });
    s = apply(s, { type: 'start', dice: { a: 20, lurker: 10 } });
    const steps: LucidityCommandInput[] = [
      { type: 'damage', target: 'lurker', amount: 1 },
      { type: 'damage', target: 'a', amount: 1 },
      { type: 'end-turn' },
      { type: 'reveal', id: 'lurker' },
      { type: 'damage', target: 'lurker', amount: 2 },
      { type: 'undo' },
      { type: 'undo' },
      { type: 'damage', target: 'lurker', amount: 1 },
      { type: 'redo' },
    ];
    const shown: string[] = [];
    for (let i = 0; i < 90; i++) {
      const step = steps[i % steps.length]!;
      try {
        s = apply(s, step.type === 'undo' || step.type === 'redo' ? { ...step, seen: s.log.length } : step);
      } catch (e) {
        if (!/nothing to (undo|redo)|not hidden/.test((e as Error).message)) throw e;
      }
      const fresh = refolded(s);
      expect(view(s, player)).toBe(view(fresh, player));
      expect(view(s, GM)).toBe(view(fresh, GM));
      shown.push(view(s, player));
    }
    // The reveal and its undo change what the player reads of the same earlier entries.
    expect(shown.some((v) => v.includes('Marsh Lurker'))).toBe(true);
    expect(shown.some((v) => !v.includes('Marsh Lurker'))).toBe(true);
  });
});
