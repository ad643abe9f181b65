import { describe, expect, it } from 'vitest';
import { refusalOf } from '@personae/core';
import { seededDice } from '@personae/dice';
import { sheet } from '../helpers/sheets';
import { personaeTable, SHEET_MAX_BYTES, type TableCommandInput, type TableState, type Viewer } from '../../src/index';

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };
const participants = new Set(['p-gm', 'p-ann']);

let state: TableState;
function run(viewer: Viewer, raw: TableCommandInput): void {
  const parsed = personaeTable.parseCommand(raw);
  if (!parsed.ok) throw Object.assign(new Error(parsed.error.message), { code: parsed.error.code });
  for (const e of personaeTable.decide(state, parsed.command, { actor: viewer, dice: seededDice(3), now: '2026-11-25T21:00:00.000Z', participants })) {
    state = personaeTable.evolve(state, JSON.parse(JSON.stringify(e)));
  }
}
function refused(viewer: Viewer, raw: TableCommandInput, code: string, field?: string): void {
  const before = JSON.stringify(state);
  expect(() => run(viewer, raw)).toThrow(expect.objectContaining({ code, ...(field ? { field } : {}) }));
  expect(JSON.stringify(state)).toBe(before);
}

/** Ann's dwarf, without the history of the example file (a player brings a new character). */
function freshDwarf(): Record<string, any> {
  const s = sheet('dwarf-iron-constitution.yaml');
  delete s.history;
  return s;
}

function setUp(): string {
  state = personaeTable.initialState();
  run(ann, { type: 'add-character', sheet: freshDwarf() });
  return Object.keys(state.characters)[0]!;
}

describe("a player's sheet follows the character rules", () => {
  it('a sheet that breaks the creation rules is refused, naming the rule and field', () => {
    const id = setUp();
    const s = freshDwarf();
    s.attributes = { competence: 9, prowess: 9, cunning: 9, power: 9, knowledge: 9, stature: 9 };
    const before = JSON.stringify(state);
    let caught: unknown;
    try {
      run(ann, { type: 'update-sheet', id, sheet: s });
    } catch (e) {
      caught = e;
    }
    const refusal = refusalOf(caught);
    expect(refusal?.field).toMatch(/^sheet\.attributes/);
    expect(refusal?.rule?.document).toBe('personae-core-2011.txt');
    expect(refusal?.message).toMatch(/personae-core-2011\.txt/);
    expect(JSON.stringify(state)).toBe(before);
    // The GM may write any sheet (adversaries need not follow creation rules).
    run(gm, { type: 'update-sheet', id, sheet: s });
    expect(state.characters[id]!.sheet.attributes.stature).toBe(9);
  });

  it('a player cannot award development points by editing the history, nor undo the GM\'s award', () => {
    const id = setUp();
    const s = freshDwarf();
    s.history = [{ type: 'award', id: 1, points: 99 }];
    refused(ann, { type: 'update-sheet', id, sheet: s }, 'history-protected', 'sheet.history');
    refused(ann, { type: 'add-character', sheet: s }, 'history-protected', 'sheet.history');
    run(gm, { type: 'advance', id, command: { type: 'award', points: 4 } });
    refused(ann, { type: 'advance', id, command: { type: 'undo' } }, 'gm-only');
    run(ann, { type: 'advance', id, command: { type: 'spend', purchase: { kind: 'hit' } } });
    run(ann, { type: 'advance', id, command: { type: 'undo' } });
    refused(ann, { type: 'advance', id, command: { type: 'undo' } }, 'gm-only');
    run(gm, { type: 'advance', id, command: { type: 'undo' } });
    const banked = freshDwarf();
    banked.criticals = 9;
    refused(ann, { type: 'update-sheet', id, sheet: { ...banked, history: state.characters[id]!.sheet.history } }, 'criticals-protected');
  });

  it('owners must be at the table; prototype-key ids are ordinary unknown ids', () => {
    const id = setUp();
    refused(gm, { type: 'add-character', sheet: freshDwarf(), owner: 'p-nobody' }, 'unknown-participant', 'owner');
    refused(gm, { type: 'set-owner', id, owner: 'p-nobody' }, 'unknown-participant', 'owner');
    for (const bad of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      refused(gm, { type: 'set-owner', id: bad, owner: null }, 'unknown-character');
      refused(gm, { type: 'remove-character', id: bad }, 'unknown-character');
      refused(ann, { type: 'update-sheet', id: bad, sheet: freshDwarf() }, 'unknown-character');
    }
    run(gm, { type: 'set-owner', id, owner: 'p-gm' });
    expect(() => personaeTable.viewState(state, ann)).not.toThrow();
  });

  it('names and sheets have limits', () => {
    setUp();
    refused(gm, { type: 'add-character', sheet: { ...freshDwarf(), name: 'N'.repeat(101) } }, 'name-too-long', 'sheet.name');
    refused(gm, { type: 'add-character', sheet: { ...freshDwarf(), notes: 'x'.repeat(SHEET_MAX_BYTES) } }, 'sheet-too-large', 'sheet');
  });
});
