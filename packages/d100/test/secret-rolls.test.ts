import { describe, expect, it } from 'vitest';
import { checkRevealedDice, fairnessRows, faceFit, poolDice, type Actor, type DiceTally, type EnteredPools } from '@personae/core';
import { seededDice } from '@personae/dice';
import { d100DiceOf, d100Ruleset, percentileDigits, resolveTest } from '../src';

const GM: Actor = { role: 'gm', participantId: 'gm' };
const ANN: Actor = { role: 'player', participantId: 'ann' };
const BOB: Actor = { role: 'player', participantId: 'bob' };
const scores = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 40, willpower: 30, fellowship: 30 };
const pc = (name: string) => ({ name, side: 'pc', arcanaLevel: 4, scores, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] });
const shade = { name: 'Shade', kind: 'shadow', side: 'shadows', arcana: 'Tower', hidden: true, scores: { ...scores, agility: 20 }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] };

type Table = ReturnType<NonNullable<typeof d100Ruleset.table>>;

function table() {
  const d: Table = d100Ruleset.table!({});
  let state = d.initialState();
  const host = seededDice(11);
  const events: { seq: number; event: any }[] = [];
  const send = (actor: Actor, raw: unknown, entered: EnteredPools = {}) => {
    const parsed = d.parseCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const out = d.decide(state, parsed.command, { actor, dice: poolDice(entered, host), now: '2026-11-26T12:00:00.000Z', settings: { physicalDice: true } });
    for (const e of out) {
      state = d.evolve(state, e);
      events.push({ seq: state.seq, event: e });
    }
    return out as any[];
  };
  return { d, send, events, get state() { return state; } };
}

describe('secret rolls at a d100 table', () => {
  it("commits at once to a hidden character's dice, shows players nothing else, and reveals verifiably", () => {
    const t = table();
    t.send(ANN, { type: 'add-character', id: 'hero', sheet: pc('Hero'), controller: 'ann' });
    t.send(GM, { type: 'add-character', id: 'shade', sheet: shade });
    t.send(GM, { type: 'start' });
    const out = t.send(GM, { type: 'test', who: 'shade', score: 'perception', label: 'Spot the hero' });
    expect(out.map((e) => e.type)).toEqual(['test-rolled', 'roll-committed']);
    const committed = out[1];
    const seq = t.state.seq;
    // A player reads the commitment and nothing else of the roll.
    expect(t.d.redactEvent(out[0], ANN, t.state)).toBeNull();
    expect(t.d.redactEvent(committed, ANN, t.state)).toEqual({ type: 'roll-committed', hash: committed.hash, reveal: 'gm', by: 'gm' });
    const playerView = JSON.stringify(t.d.viewState(t.state, ANN));
    expect(playerView).toContain(committed.hash);
    expect(playerView).not.toContain(committed.salt);
    expect(playerView).not.toContain('Spot the hero');
    expect((t.d.viewState(t.state, GM) as any).secretRolls.sealed).toContainEqual({ hash: committed.hash, committedAt: seq });
    expect(committed.dice).toEqual([out[0].data.roll]);

    expect(() => t.send(ANN, { type: 'reveal-roll', hash: committed.hash })).toThrow(/only the GM/);
    const [revealed] = t.send(GM, { type: 'reveal-roll', hash: committed.hash });
    expect(revealed).toMatchObject({ type: 'roll-revealed', hash: committed.hash, committedAt: seq, salt: committed.salt });
    // A player reads the dice and the outcome of the hidden character's test, not who rolled it or for what.
    const toAnn = t.d.redactEvent(revealed, ANN, t.state) as any;
    expect(toAnn).toEqual({ ...revealed, rolls: [{ type: 'withheld-roll', shown: { data: { roll: revealed.rolls[0].data.roll, success: revealed.rolls[0].data.success } } }] });
    expect(checkRevealedDice(committed.hash, toAnn, toAnn.rolls.flatMap(d100DiceOf))).toEqual({ ok: true });
    expect((t.d.viewState(t.state, ANN) as any).secretRolls.log.at(-1).rolls).toEqual(toAnn.rolls);
    const shown = revealed.rolls.flatMap(d100DiceOf);
    expect(checkRevealedDice(committed.hash, revealed, shown)).toEqual({ ok: true });
    // A changed die, whether in the dice or in the roll shown, does not verify.
    const other = (n: number) => (n % 100) + 1;
    expect(checkRevealedDice(committed.hash, { ...revealed, dice: revealed.dice.map(other) }, undefined).ok).toBe(false);
    const changedRoll = { ...revealed.rolls[0], data: { ...revealed.rolls[0].data, roll: other(revealed.rolls[0].data.roll) } };
    expect(checkRevealedDice(committed.hash, revealed, [changedRoll].flatMap(d100DiceOf))).toMatchObject({ ok: false, message: expect.stringMatching(/the result shows the dice/) });
    // Without a hash, every roll still sealed (here the hidden character's initiative, if it rolled).
    t.send(GM, { type: 'reveal-roll' });
    expect((t.d.viewState(t.state, GM) as any).secretRolls.sealed).toEqual([]);
    expect(() => t.send(GM, { type: 'reveal-roll' })).toThrow(/no secret roll left/);
  });

  it('reveals every sealed roll at the end of the Round when the GM sets it, and takes undo from the table version', () => {
    const t = table();
    t.send(ANN, { type: 'add-character', id: 'hero', sheet: pc('Hero'), controller: 'ann' });
    t.send(GM, { type: 'add-character', id: 'shade', sheet: shade });
    t.send(GM, { type: 'start' });
    expect(() => t.send(GM, { type: 'secret-reveal', reveal: 'scene' })).toThrow(/reveal: "scene" is not a moment.*gm, round, week/);
    t.send(GM, { type: 'secret-reveal', reveal: 'round' });
    while (t.state.game.current !== 'shade') t.send(GM, { type: 'end-turn' });
    const attack = t.send(GM, { type: 'attack', attacker: 'shade', defender: 'ann:hero' });
    const committed = attack.find((e) => e.type === 'roll-committed');
    expect(committed.dice).toEqual(attack[0].data.dice);
    // Undo names the version the GM saw, which counts the commitment too.
    const undone = t.send(GM, { type: 'undo', seen: t.state.seq });
    expect(undone[0].type).toBe('undone');
    expect(() => t.send(GM, { type: 'undo', seen: t.state.seq - 1 })).toThrow(/the table is at version/);
    t.send(GM, { type: 'attack', attacker: 'shade', defender: 'ann:hero' });
    let ended = t.send(GM, { type: 'end-turn' });
    while (!ended.some((e) => e.type === 'round-ended')) {
      expect(ended.some((e) => e.type === 'roll-revealed')).toBe(false);
      ended = t.send(GM, { type: 'end-turn' });
    }
    const reveals = ended.filter((e) => e.type === 'roll-revealed');
    // Every commitment of the Round, the attack taken back included: it was still rolled.
    expect(reveals.map((r) => r.hash)).toEqual(expect.arrayContaining([committed.hash]));
    expect(reveals.length).toBeGreaterThanOrEqual(2);
    expect(reveals.every((r) => r.when === 'round' && checkRevealedDice(r.hash, r, r.rolls.flatMap(d100DiceOf)).ok)).toBe(true);
    expect((t.d.viewState(t.state, GM) as any).secretRolls.sealed).toEqual([]);
  });
});

/** A percentile die whose tens digit is 0 a quarter of the time (rolls 1-10), fair otherwise. */
function loadedD100(seed: number): () => number {
  const d = seededDice(seed);
  return () => (d.die(4) === 4 ? d.die(10) : d.die(100));
}

function fairD100(seed: number): () => number {
  const d = seededDice(seed);
  return () => d.die(100);
}

describe('the fairness check of typed d100 dice', () => {
  it('counts the tens and units digits of a percentile roll as two d10s', () => {
    expect(percentileDigits(37, 100)).toEqual([3, 7]);
    expect(percentileDigits(100, 100)).toEqual([10, 10]);
    expect(percentileDigits(5, 100)).toEqual([10, 5]);
    expect(percentileDigits(40, 100)).toEqual([4, 10]);
    expect(percentileDigits(7, 10)).toEqual([7]);
  });

  it("flags a player's loaded die and passes another's fair one, in the GM's view only", () => {
    const t = table();
    t.send(ANN, { type: 'add-character', id: 'a', sheet: pc('Ann'), controller: 'ann' });
    t.send(BOB, { type: 'add-character', id: 'b', sheet: pc('Bob'), controller: 'bob' });
    const ann = loadedD100(7);
    const bob = fairD100(8);
    const typed: Record<string, number[]> = { ann: [], bob: [] };
    for (let i = 0; i < 60; i++) {
      for (const [who, actor, die] of [['ann', ANN, ann], ['bob', BOB, bob]] as const) {
        const roll = die();
        typed[who]!.push(roll);
        t.send(actor, { type: 'test', who: `${who}:${who === 'ann' ? 'a' : 'b'}`, score: 'perception', label: 'Search' }, { actor: [roll] });
      }
    }
    const rows = (t.d.viewState(t.state, GM) as any).diceFairness;
    const a = rows.find((r: any) => r.participantId === 'ann');
    const b = rows.find((r: any) => r.participantId === 'bob');
    expect(a.faces).toMatchObject({ sides: 10, dice: 120, enoughData: true, suspicious: true });
    expect(a.faces.pValue).toBeLessThan(0.001);
    // Rolling low succeeds more often than Perception 40 allows.
    expect(a.outcomes.challenges).toBe(60);
    expect(a.outcomes.expected).toBeCloseTo(60 * 0.4, 10);
    expect(a.outcomes.z).toBeGreaterThan(2);
    expect(b.faces).toMatchObject({ dice: 120, suspicious: false });
    expect(Math.abs(b.outcomes.z)).toBeLessThan(3);
    expect(b.faces.chiSquare).toBeCloseTo(faceFit(typed.bob!.flatMap((r) => percentileDigits(r, 100)), 10).chiSquare, 10);
    // The successes counted are the rules' own.
    expect(b.outcomes.successes).toBe(typed.bob!.filter((r) => resolveTest(40, r).success).length);
    expect((t.d.viewState(t.state, ANN) as any).diceFairness).toBeNull();
    expect(JSON.stringify(t.d.viewState(t.state, ANN))).not.toContain('chiSquare');
    expect(t.events.filter((e) => e.event.type === 'dice-tallied').every((e) => t.d.redactEvent(e.event, ANN, t.state) === null)).toBe(true);
  });

  it("counts a test's Advantages in its chance, as the test read them", () => {
    const t = table();
    t.send(ANN, { type: 'add-character', id: 'a', sheet: pc('Ann'), controller: 'ann' });
    // Perception 40 with one Advantage (+10): 50 of the hundred rolls succeed; 45 is one of them.
    const out = t.send(ANN, { type: 'test', who: 'ann:a', score: 'perception', label: 'Search', advantages: [{ label: 'Lantern', count: 1 }] }, { actor: [45] });
    expect(out[0]).toMatchObject({ type: 'test-rolled', data: { target: 40, roll: 45, success: true } });
    expect(out.find((e) => e.type === 'dice-tallied')).toEqual({ type: 'dice-tallied', by: 'ann', faces: [4, 5], outcomes: [{ chance: 0.5, succeeded: true }] });
  });

  it('calls a fair percentile die suspicious at about the stated error rate (1%), over 1,000 simulated players', () => {
    const die = fairD100(2026);
    let flagged = 0;
    for (let i = 0; i < 1000; i++) {
      const faces = new Array<number>(10).fill(0);
      for (let k = 0; k < 100; k++) for (const f of percentileDigits(die(), 100)) faces[f - 1]!++;
      const tally: DiceTally = { faces, challenges: 0, successes: 0, expected: 0, variance: 0 };
      if (fairnessRows({ p: tally }, 0.01)[0]!.faces.suspicious) flagged++;
    }
    // Binomial(1000, 0.01): mean 10, standard deviation about 3.1.
    expect(flagged).toBeGreaterThanOrEqual(2);
    expect(flagged).toBeLessThanOrEqual(20);
  });
});
