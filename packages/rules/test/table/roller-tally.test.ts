import { describe, expect, it } from 'vitest';
import { poolDice } from '@personae/core';
import { givenDice, type DiceSource } from '@personae/dice';
import { sheet } from '../helpers/sheets';
import { personaeTable, tableLog, type TableCommandInput, type TableState, type Viewer } from '../../src/index';

// A challenge a character issues from the table's roller counts toward its development tally like
// one issued in an encounter (personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering").

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };
const bob: Viewer = { role: 'player', participantId: 'p-bob' };

/** Dice as the server's own source rolls them (not entered by the player). */
const server = (dice: number[]): DiceSource => ({ ...givenDice(dice), kind: 'seeded' });
/** The player's 8 and 2 typed into the pool "actor"; the rest the server's. */
const entered = (rest: number[], actor = [8, 2]) => poolDice({ actor }, server(rest));

class Table {
  state: TableState = personaeTable.initialState();
  run(viewer: Viewer, raw: TableCommandInput, dice: DiceSource = server([])) {
    const parsed = personaeTable.parseCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const events = personaeTable.decide(this.state, parsed.command, { actor: viewer, dice, now: '2026-11-26T12:00:00.000Z', settings: { physicalDice: true } });
    for (const e of events) this.state = personaeTable.evolve(this.state, JSON.parse(JSON.stringify(e)));
    return events;
  }
  tally(id: string) {
    return personaeTable.viewState(this.state, gm).development.characters.find((r) => r.id === id)!.tally;
  }
}

function table(preset: 'core-2011' | 'srd-v4' = 'core-2011') {
  const t = new Table();
  t.run(gm, { type: 'configure', preset, options: {} });
  t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
  t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml') });
  const [dwarf, merchant] = Object.keys(t.state.characters) as [string, string];
  return { t, dwarf, merchant };
}

/** 8 + 3 against 4 + 1: the actor wins on the highest die. */
const win = (character?: string): TableCommandInput => ({
  type: 'roll',
  actor: { name: 'Dwarf', dice: 2, modifiers: [{ value: 3, source: 'Stature' }] },
  reactor: { name: 'Bandit', dice: 2, modifiers: [{ value: 1, source: 'Cunning' }] },
  purpose: 'shove the bandit',
  ...(character ? { character } : {}),
});

describe('challenges from the roller in the development tally', () => {
  it('a roll a character issues is tallied, with a line in the log', () => {
    const { t, dwarf } = table();
    const events = t.run(ann, win(dwarf), entered([4, 3]));
    expect(events.map((e) => (e.type === 'encounter' ? e.event.type : e.type))).toEqual(['rolled', 'roll-tallied']);
    expect(t.tally(dwarf)).toMatchObject({ successes: 1, failures: 0 });
    expect(tableLog(t.state).at(-1)!.lines.join(' ')).toMatch(/challenge from the roller \(shove the bandit\) goes into its development tally: a success/);
  });

  it('a roll that names no character tallies nothing', () => {
    const { t, dwarf } = table();
    t.run(ann, win(), entered([4, 3]));
    expect(t.tally(dwarf)).toMatchObject({ successes: 0, failures: 0 });
  });

  it('unopposed rolls count too, and failures are tallied', () => {
    const { t, dwarf } = table();
    // 2 + 0 against the GM's 9 + 2 (Normal).
    t.run(ann, { type: 'roll', actor: { name: 'Dwarf', dice: 2 }, difficulty: 'normal', character: dwarf }, entered([9], [2, 1]));
    expect(t.tally(dwarf)).toMatchObject({ successes: 0, failures: 1 });
  });

  it('undo takes the tally back', () => {
    const { t, dwarf } = table();
    t.run(ann, win(dwarf), entered([4, 3]));
    t.run(ann, { type: 'encounter', command: { type: 'undo', actor: dwarf }, seen: t.state.seq });
    expect(t.tally(dwarf)).toMatchObject({ successes: 0, failures: 0 });
  });

  it("only the character's controller may tally for it; a refusal changes nothing", () => {
    const { t, dwarf, merchant } = table();
    const before = JSON.stringify(t.state);
    expect(() => t.run(bob, win(dwarf), entered([4, 3]))).toThrow(/not|own|control/i);
    expect(() => t.run(ann, win(merchant), entered([4, 3]))).toThrow(/not|own|control/i);
    expect(JSON.stringify(t.state)).toBe(before);
  });

  it('srd-v4: a glancing success from the roller is not counted, as in encounters (option developmentCountsOnlyClear)', () => {
    const { t, dwarf } = table('srd-v4');
    // 5 + 1 against 5 + 1 on the first pair, then 4 against 3: a success decided by a tie-break, glancing under srd-v4.
    t.run(ann, { type: 'roll', actor: { name: 'Dwarf', dice: 2, modifiers: [{ value: 1, source: 'x' }] }, reactor: { name: 'Bandit', dice: 2, modifiers: [{ value: 1, source: 'y' }] }, character: dwarf }, entered([5, 3], [5, 4]));
    const result = tableLog(t.state).filter((e) => e.result).at(-1)!.result!;
    expect(result).toMatchObject({ outcome: 'success', grade: 'glancing' });
    expect(t.tally(dwarf)).toMatchObject({ successes: 0, uncounted: 1 });
  });
});
