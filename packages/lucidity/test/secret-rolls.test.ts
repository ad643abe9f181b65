import { describe, expect, it } from 'vitest';
import { checkRevealedDice, fairnessRows, faceFit, poolDice, type Actor, type DiceTally, type EnteredPools } from '@personae/core';
import { seededDice } from '@personae/dice';
import { lucidityDiceOf, lucidityRuleset } from '../src';

const GM: Actor = { role: 'gm', participantId: 'gm' };
const ANN: Actor = { role: 'player', participantId: 'ann' };
const BOB: Actor = { role: 'player', participantId: 'bob' };
const hero = (name: string, controller: string) => ({ name, health: 10, lucidity: 14, energy: 5, attributes: { STR: 1, CON: 1, CHA: 2 }, weapons: [{ name: 'Axe', damage: '1d8' }], controller });
const lurker = { name: 'Marsh Lurker', health: 5, weapons: [{ name: 'Bite', damage: '1d6' }] };

function table() {
  const d = lucidityRuleset.table!({});
  let state = d.initialState();
  const host = seededDice(5);
  const send = (actor: Actor, raw: unknown, entered: EnteredPools = {}) => {
    const parsed = d.parseCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const out = d.decide(state, parsed.command, { actor, dice: poolDice(entered, host), now: '2026-11-26T12:00:00.000Z', settings: { physicalDice: true } });
    for (const e of out) state = d.evolve(state, e);
    return out as any[];
  };
  return { d, send, get state() { return state; } };
}

describe('secret rolls at a Lucidity table', () => {
  it("commits to a hidden combatant's attack, whose d20 players never see, and reveals it verifiably at the end of the round", () => {
    const t = table();
    const { controller: _c, ...a } = hero('Ana', 'ann');
    t.send(GM, { type: 'add', id: 'ana', side: 'party', controller: 'ann', statBlock: a });
    t.send(GM, { type: 'add', id: 'lurker', side: 'foe', hidden: true, statBlock: lurker });
    t.send(GM, { type: 'secret-reveal', reveal: 'round' });
    t.send(GM, { type: 'start' });
    while (t.state.game.game.order[t.state.game.game.turn] !== 'lurker') t.send(GM, { type: 'end-turn' });
    const out = t.send(GM, { type: 'attack', actor: 'lurker', target: 'ana' });
    expect(out.map((e) => e.type)).toEqual(['attacked', 'roll-committed']);
    const [attacked, committed] = out;
    // The target's player learns what it took, not the d20 or the damage dice.
    const seen = t.d.redactEvent(attacked, ANN, t.state) as any;
    expect(seen.data.roll.d20).toBe(0);
    expect(seen.data.damageDice).toEqual([]);
    expect(committed.dice).toEqual(lucidityDiceOf(attacked));
    expect(committed.dice[0]).toBe(attacked.data.roll.d20);
    expect(t.d.redactEvent(committed, ANN, t.state)).toEqual({ type: 'roll-committed', hash: committed.hash, reveal: 'round', by: 'gm' });
    expect(JSON.stringify(t.d.viewState(t.state, ANN))).not.toContain(committed.salt);

    let ended = t.send(GM, { type: 'end-turn' });
    while (!ended.some((e) => e.type === 'turn-ended' && e.data.newRound)) ended = t.send(GM, { type: 'end-turn' });
    const revealed = ended.find((e) => e.type === 'roll-revealed' && e.hash === committed.hash);
    expect(revealed).toMatchObject({ when: 'round', salt: committed.salt, dice: committed.dice });
    expect(checkRevealedDice(committed.hash, revealed, revealed.rolls.flatMap(lucidityDiceOf))).toEqual({ ok: true });
    const tampered = { ...revealed.rolls[0], data: { ...revealed.rolls[0].data, roll: { ...revealed.rolls[0].data.roll, d20: (revealed.rolls[0].data.roll.d20 % 20) + 1 } } };
    expect(checkRevealedDice(committed.hash, revealed, [tampered].flatMap(lucidityDiceOf)).ok).toBe(false);
    expect(checkRevealedDice(committed.hash, { ...revealed, salt: revealed.salt.replace(/^./, (c: string) => (c === '0' ? '1' : '0')) }, undefined).ok).toBe(false);
  });
});

/** A d20 that shows 20 a quarter of the time, 1 to 19 evenly otherwise. */
function loadedD20(seed: number): () => number {
  const d = seededDice(seed);
  return () => (d.die(4) === 4 ? 20 : d.die(19));
}

function fairD20(seed: number): () => number {
  const d = seededDice(seed);
  return () => d.die(20);
}

describe('the fairness check of typed d20s', () => {
  it("flags a player's loaded d20 and passes another's fair one, in the GM's view only", () => {
    const t = table();
    for (const [id, who] of [['ana', 'ann'], ['bo', 'bob']] as const) {
      const { controller: _c, ...sheet } = hero(id, who);
      t.send(GM, { type: 'add', id, side: 'party', controller: who, statBlock: sheet });
    }
    const dice = { ann: loadedD20(7), bob: fairD20(8) };
    const typed: Record<string, number[]> = { ann: [], bob: [] };
    for (let i = 0; i < 120; i++) {
      for (const [who, actor, id] of [['ann', ANN, 'ana'], ['bob', BOB, 'bo']] as const) {
        const d20 = dice[who]();
        typed[who]!.push(d20);
        t.send(actor, { type: 'roll', actor: id, attribute: 'STR', target: 12 }, { d20: [d20] });
      }
    }
    const rows = (t.d.viewState(t.state, GM) as any).diceFairness;
    const a = rows.find((r: any) => r.participantId === 'ann');
    const b = rows.find((r: any) => r.participantId === 'bob');
    expect(a.faces).toMatchObject({ sides: 20, dice: 120, enoughData: true, suspicious: true });
    expect(a.outcomes.challenges).toBe(120);
    expect(a.outcomes.z).toBeGreaterThan(2);
    expect(b.faces).toMatchObject({ sides: 20, dice: 120, enoughData: true, suspicious: false });
    expect(Math.abs(b.outcomes.z)).toBeLessThan(3);
    expect(b.faces.chiSquare).toBeCloseTo(faceFit(typed.bob!, 20).chiSquare, 10);
    expect((t.d.viewState(t.state, ANN) as any).diceFairness).toBeNull();
  });

  it('calls a fair d20 suspicious at about the stated error rate (1%), over 1,000 simulated players', () => {
    const die = fairD20(2026);
    let flagged = 0;
    for (let i = 0; i < 1000; i++) {
      const faces = new Array<number>(20).fill(0);
      for (let k = 0; k < 200; k++) faces[die() - 1]!++;
      const tally: DiceTally = { faces, challenges: 0, successes: 0, expected: 0, variance: 0 };
      if (fairnessRows({ p: tally }, 0.01)[0]!.faces.suspicious) flagged++;
    }
    expect(flagged).toBeGreaterThanOrEqual(2);
    expect(flagged).toBeLessThanOrEqual(20);
  });
});
