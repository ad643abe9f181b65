import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { appendLog, keyedGet, keyedValues, logEntries, personaeTable, type TableEvent, type TableLog, type TableState } from '../../src/index';
import { EMPTY_LOG, emptyKeyed, keyedSet } from '../../src/table/log';

const gm = { role: 'gm' as const, participantId: 'p-gm' };
const side = (name: string) => ({ name, dice: 2, modifiers: [] });

/** Decides and folds `count` free rolls, every one hidden (so each is sealed until revealed). */
function hiddenRolls(count: number): { states: TableState[]; events: TableEvent[] } {
  const dice = seededDice(3);
  let state = personaeTable.initialState();
  const states = [state];
  const events: TableEvent[] = [];
  for (let i = 0; i < count; i++) {
    const parsed = personaeTable.parseCommand({ type: 'roll', actor: side('Ann'), reactor: side('Bob'), hidden: true });
    if (!parsed.ok) throw new Error(parsed.error.message);
    for (const e of personaeTable.decide(state, parsed.command, { actor: gm, dice, now: '2026-11-26T00:00:00.000Z' })) {
      state = personaeTable.evolve(state, e);
      states.push(state);
      events.push(e);
    }
  }
  return { states, events };
}

describe('the table log and the sealed rolls grow without copying', () => {
  it('appending to the newest log reuses its array; an older state keeps reading only its own entries', () => {
    let log: TableLog<number> = EMPTY_LOG;
    const states: TableLog<number>[] = [];
    for (let i = 0; i < 5; i++) states.push((log = appendLog(log, i)));
    expect(new Set(states.map((s) => s.shared)).size).toBe(1);
    expect(logEntries(states[2]!)).toEqual([0, 1, 2]);
    // A branch from an older state copies its prefix and leaves the newer states alone.
    const branch = appendLog(states[1]!, 9);
    expect(logEntries(branch)).toEqual([0, 1, 9]);
    expect(logEntries(states[4]!)).toEqual([0, 1, 2, 3, 4]);
  });

  it('the empty log is never written to, so two tables never share entries', () => {
    const a = appendLog(EMPTY_LOG as TableLog<string>, 'a');
    const b = appendLog(EMPTY_LOG as TableLog<string>, 'b');
    expect(EMPTY_LOG.shared).toHaveLength(0);
    expect(logEntries(a)).toEqual(['a']);
    expect(logEntries(b)).toEqual(['b']);
  });

  it('values by key: the newest state changes in place, older states read what they held', () => {
    const s0 = emptyKeyed<number>();
    const s1 = keyedSet(s0, 'x', 1);
    const s2 = keyedSet(s1, 'y', 2);
    const s3 = keyedSet(s2, 'x', null);
    expect(s3.shared).toBe(s1.shared);
    expect(keyedValues(s3)).toEqual([2]);
    expect(keyedGet(s2, 'x')).toBe(1);
    expect(keyedValues(s1)).toEqual([1]);
    expect(keyedValues(s0)).toEqual([]);
    // Changing an older state starts a copy; the newer states are untouched.
    const other = keyedSet(s1, 'z', 3);
    expect(keyedValues(other)).toEqual([1, 3]);
    expect(keyedValues(s3)).toEqual([2]);
    expect(keyedGet(s3, 'constructor')).toBeUndefined();
  });

  it('a hidden roll adds its sealed roll to the shared map instead of copying every earlier one', () => {
    const { states } = hiddenRolls(30);
    const last = states[states.length - 1]!;
    expect(keyedValues(last.sealed)).toHaveLength(30);
    // Every state of the fold shares one map and one log array: each event added O(1).
    expect(new Set(states.slice(1).map((s) => s.sealed.shared)).size).toBe(1);
    expect(new Set(states.slice(1).map((s) => s.log.shared)).size).toBe(1);
    // An earlier state still holds exactly the rolls sealed before it.
    expect(keyedValues(states[10]!.sealed)).toHaveLength(5);
  });

  it('revealing from an older state (a replay) leaves the newest state as it was', () => {
    const { states } = hiddenRolls(3);
    const last = states[states.length - 1]!;
    const older = states[2]!;
    const [hash] = keyedValues(older.sealed).map((s) => s.hash);
    const reveal = personaeTable.parseCommand({ type: 'reveal', hash });
    if (!reveal.ok) throw new Error(reveal.error.message);
    let branch = older;
    for (const e of personaeTable.decide(older, reveal.command, { actor: gm, dice: seededDice(1), now: '2026-11-26T00:00:00.000Z' })) branch = personaeTable.evolve(branch, e);
    expect(keyedValues(branch.sealed)).toEqual([]);
    expect(keyedValues(last.sealed)).toHaveLength(3);
  });
});
