import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { poolDice, type EnteredPools } from '@personae/core';
import { describeEvent, personaeTable, replay, tableLog, type TableEvent, type TableState, type Viewer } from '../../src/index';
import { ALDRIC, CULTIST, Table } from './helpers';

// Clear and glancing successes are personae-v4-srd-playing.txt's ("Clear Success, Glancing Success, and
// Steering"); personae-core-2011.txt "The Challenge" knows success and failure only (option grades).

function glancingWin(preset: 'core-2011' | 'srd-v4') {
  const t = new Table([ALDRIC, CULTIST], {}, preset);
  t.run({ type: 'escalate', actor: 'aldric', to: 'non-violent' });
  // A success the highest pair does not decide: a glancing one in srd-v4's words.
  t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice: { actor: [6, 2], reactor: [7, 1] } });
  const i = t.log.findIndex((e) => e.type === 'challenge-resolved');
  return { t, event: t.log[i]! };
}

describe('grade words follow the options in force (personae-core-2011.txt "The Challenge"; option grades)', () => {
  it('under core-2011 no line of a challenge calls a success clear or glancing; under srd-v4 they do', () => {
    const core = glancingWin('core-2011');
    expect(core.event.type === 'challenge-resolved' && core.event.result.grade).toBe('glancing');
    const coreText = words(core.t);
    expect(coreText).toMatch(/Outcome for Aldric: success/);
    expect(coreText).not.toMatch(/glancing|clear success/i);

    const v4 = glancingWin('srd-v4');
    const v4Text = words(v4.t);
    expect(v4Text).toMatch(/a glancing success/);
    expect(v4Text).toMatch(/Outcome for Aldric: glancing success/);
  });
});

/** The log in words, each event read against the table as it was just before it. */
function words(t: Table): string {
  return t.log.flatMap((e, i) => describeEvent(e, i === 0 ? null : replay(t.log.slice(0, i)).now)).join('\n');
}

describe('a log entry keeps the words of the options in force when it was written', () => {
  const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
  it('switching the preset does not relabel an earlier roll', () => {
    let state: TableState = personaeTable.initialState();
    const run = (raw: Parameters<typeof personaeTable.parseCommand>[0], pools: EnteredPools = {}) => {
      const parsed = personaeTable.parseCommand(raw);
      if (!parsed.ok) throw new Error(parsed.error.message);
      for (const e of personaeTable.decide(state, parsed.command, { actor: gm, dice: poolDice(pools, seededDice(1)), now: '2026-11-26T03:00:00.000Z' })) {
        state = personaeTable.evolve(state, JSON.parse(JSON.stringify(e)) as TableEvent);
      }
    };
    run({ type: 'configure', preset: 'srd-v4' });
    const roll = { type: 'roll', actor: { name: 'A', dice: 2 }, reactor: { name: 'B', dice: 2 } };
    run(roll, { actor: [6, 2], reactor: [6, 1] });
    run({ type: 'configure', preset: 'core-2011' });
    run(roll, { actor: [6, 2], reactor: [6, 1] });
    const rolls = tableLog(state).filter((e) => e.result);
    expect(rolls.map((e) => e.graded)).toEqual([true, false]);
    expect(rolls[0]!.lines.join('\n')).toMatch(/Outcome for A: glancing success/);
    expect(rolls[1]!.lines.join('\n')).toMatch(/Outcome for A: success/);
    expect(rolls[1]!.lines.join('\n')).not.toMatch(/glancing|clear/);
  });
});
