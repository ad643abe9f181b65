import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { faceFit, poolDice } from '@personae/core';
import { fairnessRows, personaeTable, type DiceTally, type TableCommandInput, type TableState, type Viewer } from '../../src/index';

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };
const bob: Viewer = { role: 'player', participantId: 'p-bob' };

/** A die that shows 10 a quarter of the time and 1 to 9 evenly otherwise, from a seeded stream. */
function loadedDie(seed: number): () => number {
  const d = seededDice(seed);
  return () => (d.die(4) === 4 ? 10 : d.die(9));
}

function fairDie(seed: number): () => number {
  const d = seededDice(seed);
  return () => d.die(10);
}

function play(rolls: number, dieOf: Record<string, () => number>): TableState {
  let state = personaeTable.initialState();
  const dice = seededDice(1);
  for (let i = 0; i < rolls; i++) {
    for (const [who, die] of Object.entries(dieOf)) {
      const viewer = who === 'ann' ? ann : bob;
      const raw: TableCommandInput = { type: 'roll', actor: { name: who, dice: 3, modifiers: [] }, reactor: { name: 'Guard', dice: 3, modifiers: [] } };
      const parsed = personaeTable.parseCommand(raw);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const entered = poolDice({ actor: [die(), die(), die()] }, dice);
      for (const e of personaeTable.decide(state, parsed.command, { actor: viewer, dice: entered, now: '2026-11-25T20:00:00.000Z', settings: { physicalDice: true } })) state = personaeTable.evolve(state, e);
    }
  }
  return state;
}

describe('the fairness check of physical dice', () => {
  it("flags a player's loaded die and passes another player's fair one, with how much data each rests on", () => {
    const state = play(60, { ann: loadedDie(7), bob: fairDie(8) });
    const rows = personaeTable.viewState(state, gm).diceFairness!;
    const a = rows.find((r) => r.participantId === ann.participantId)!;
    const b = rows.find((r) => r.participantId === bob.participantId)!;
    expect(a.faces.dice).toBe(180);
    expect(a.faces.enoughData).toBe(true);
    expect(a.faces.suspicious).toBe(true);
    expect(a.faces.pValue).toBeLessThan(0.001);
    // More 10s win more often than the exact odds say.
    expect(a.outcomes.challenges).toBe(60);
    expect(a.outcomes.z).toBeGreaterThan(2);
    expect(b.faces.dice).toBe(180);
    expect(b.faces.suspicious).toBe(false);
    expect(Math.abs(b.outcomes.z)).toBeLessThan(3);
    // The tally is the test of the faces as entered.
    const entered = state.log.shared.filter((e) => e.by === bob.participantId && e.result).flatMap((e) => e.result!.actor.roll.rolled);
    expect(b.faces.chiSquare).toBeCloseTo(faceFit(entered, 10).chiSquare, 10);
  });

  it('is in the GM\'s view only', () => {
    const state = play(5, { ann: fairDie(3) });
    expect(personaeTable.viewState(state, gm).diceFairness).toHaveLength(1);
    expect(personaeTable.viewState(state, ann).diceFairness).toBeNull();
    expect(JSON.stringify(personaeTable.viewState(state, ann))).not.toContain('chiSquare');
    // Too little data: never called suspicious.
    expect(personaeTable.viewState(state, gm).diceFairness![0]!.faces).toMatchObject({ dice: 15, enoughData: false, suspicious: false });
  });

  it('calls a fair die suspicious at about the stated error rate (1%), over 1,000 simulated players', () => {
    const die = fairDie(2026);
    let flagged = 0;
    const runs = 1000;
    for (let i = 0; i < runs; i++) {
      const faces = new Array<number>(10).fill(0);
      for (let k = 0; k < 200; k++) faces[die() - 1]!++;
      const tally: DiceTally = { faces, challenges: 0, successes: 0, expected: 0, variance: 0 };
      if (fairnessRows({ p: tally }, 0.01)[0]!.faces.suspicious) flagged++;
    }
    // Binomial(1000, 0.01): mean 10, standard deviation about 3.1.
    expect(flagged).toBeGreaterThanOrEqual(2);
    expect(flagged).toBeLessThanOrEqual(20);
  });
});
