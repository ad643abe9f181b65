import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { givenDice, seededDice } from '@personae/dice';
import {
  compareDice,
  concertedEffort,
  judge,
  parseDifficulty,
  poolSize,
  resolveChallenge,
  resolveSubsequent,
  resolveUnopposed,
  tableOptions,
  type ChallengeSideSpec,
} from '../../src/index';
import { opposed, unopposed, type GivenSide } from '../helpers/given-sides';

const core = tableOptions('core-2011');
const v4 = tableOptions('srd-v4');
const none = givenDice([]);

function side(name: string, given: number[], modifier: number, extra: Partial<ChallengeSideSpec> = {}): GivenSide {
  return { name, pool: { base: given.length, baseSource: 'skill' }, modifiers: [{ value: modifier, source: 'attribute' }], given, ...extra };
}

describe('the opposed challenge (personae-core-2011.txt "The Challenge")', () => {
  it('the higher highest die plus modifier wins, decided on the highest dice (clear)', () => {
    const r = opposed({ actor: side('Ana', [9, 3], 2), reactor: side('Bo', [8, 7], 2) }, none, core);
    expect(r.outcome).toBe('success');
    expect(r.decidedBy).toBe(1);
    expect(r.grade).toBe('clear');
  });

  it("the documents' example: 3 dice against 2, highest and second-highest tie, the actor wins on the extra die", () => {
    // Actor 3 dice, reactor 2; both compared pairs tie, so the side with dice left (the actor) succeeds.
    const r = opposed({ actor: side('Actor', [7, 5, 2], 3), reactor: side('Reactor', [8, 6], 2) }, none, core);
    expect(r.steps.map((s) => s.result)).toEqual(['tie', 'tie']);
    expect(r.decidedBy).toBe('extra-dice');
    expect(r.winner).toBe('actor');
    expect(r.outcome).toBe('success');
    expect(r.grade).toBe('glancing');
    expect(r.explanation.join('\n')).toMatch(/Reactor has no dice left/);
  });

  it('a tie on the highest dice goes to the next pair, with the same modifiers', () => {
    const r = opposed({ actor: side('A', [6, 2], 4), reactor: side('R', [9, 4], 1) }, none, core);
    expect(r.steps).toHaveLength(2);
    expect(r.steps[1]).toMatchObject({ actor: { total: 6 }, reactor: { total: 5 }, result: 'actor' });
    expect(r.decidedBy).toBe(2);
    expect(r.grade).toBe('glancing');
  });

  it('a tie that survives every die with equal pools is a full tie, settled by option fullTie', () => {
    const spec = { actor: side('A', [5, 3], 1), reactor: side('R', [5, 3], 1) };
    expect(opposed(spec, none, core).outcome).toBe('tie');
    expect(opposed(spec, none, tableOptions('core-2011', { fullTie: 'reactor' })).outcome).toBe('failure');
    expect(opposed(spec, none, tableOptions('core-2011', { fullTie: 'actor' })).outcome).toBe('success');
    const rerolled = opposed(spec, givenDice([9, 1, 3, 2]), tableOptions('core-2011', { fullTie: 'reroll' }));
    expect(rerolled.previousAttempts).toHaveLength(1);
    expect(rerolled.actor.dice).toEqual([9, 1]);
    expect(rerolled.outcome).toBe('success');
  });

  it('the reroll on a full tie uses fresh dice from the source and keeps the earlier attempt', () => {
    const spec = { actor: { name: 'A', pool: { base: 1, baseSource: 's' }, modifiers: [] }, reactor: { name: 'R', pool: { base: 1, baseSource: 's' }, modifiers: [] } };
    const r = opposed(spec, givenDice([4, 4, 7, 2]), tableOptions('core-2011', { fullTie: 'reroll' }));
    expect(r.previousAttempts![0]!.outcome).toBe('tie');
    expect(r.actor.dice).toEqual([7]);
    expect(r.outcome).toBe('success');
  });

  it('every modifier keeps its source in the explanation', () => {
    const r = opposed(
      { actor: { ...side('Kara', [6], 0), modifiers: [{ value: 3, source: 'Stature' }, { value: 1, source: 'Longsword Training' }] }, reactor: side('Cultist', [5], 2) },
      none,
      core,
    );
    expect(r.explanation.join('\n')).toContain('+3 Stature, +1 Longsword Training = +4');
  });
});

describe('pool size', () => {
  it('rating plus bonus dice less penalty dice, at least the minimum pool', () => {
    const p = poolSize({ base: 3, baseSource: 'Longsword', bonusDice: [{ value: 1, source: 'Expert Longsword' }], penaltyDice: [{ value: 2, source: 'Wounded' }] }, core);
    expect(p.dice).toBe(2);
    expect(p.explanation).toBe('Longsword 3 dice +1 die Expert Longsword -2 dice Wounded = 2 dice');
    expect(poolSize({ base: 1, baseSource: 'unskilled', penaltyDice: [{ value: 3, source: 'Incapacitated' }] }, core).dice).toBe(1);
    expect(poolSize({ base: 1, baseSource: 'unskilled', penaltyDice: [{ value: 3, source: 'Incapacitated' }] }, tableOptions('core-2011', { minimumPool: 0 })).dice).toBe(0);
  });

  it('bonus dice may pass the skill cap only when the table allows it', () => {
    const spec = { base: 5, baseSource: 'Longsword', maxDice: 5, bonusDice: [{ value: 1, source: 'Expert Longsword' }] };
    expect(poolSize(spec, core).dice).toBe(6);
    expect(poolSize(spec, tableOptions('core-2011', { bonusDiceMayExceedCap: false })).dice).toBe(5);
  });
});

describe('unopposed challenges (personae-core-2011.txt "Unopposed Challenges")', () => {
  it('the difficulty ladder', () => {
    expect(['easy', 'simple', 'normal', 'challenging', 'difficult', 'very difficult', 'extremely-difficult', 'nearly_impossible'].map((n) => parseDifficulty(n).value)).toEqual([0, 1, 2, 3, 5, 7, 9, 10]);
    expect(parseDifficulty('12').value).toBe(12);
    expect(() => parseDifficulty('trivial')).toThrow(/unknown difficulty/);
  });

  it("the unopposed example (a noble jumping from a 2nd-story window), reading Normal as +2 (the document's \"normal difficulty of 0\" is a slip: its own ladder says Normal is +2)", () => {
    // GM rolls 2 dice (one less than the 3-dice skill): 3 and 7; target 7 + 2 = 9.
    // The noble rolls 1, 5, 6 and adds Prowess 3: 9, which meets the target. Under the slip's reading (7 + 0) he succeeds too.
    const r = unopposed(
      { player: { name: 'Noble', pool: { base: 3, baseSource: 'Acrobatics' }, modifiers: [{ value: 3, source: 'Prowess' }], given: [1, 5, 6] }, difficulty: parseDifficulty('normal'), gmGiven: [3, 7] },
      none,
      core,
    );
    expect(r.reactor.dice).toEqual([7, 3]);
    expect(r.steps[0]).toMatchObject({ actor: { total: 9 }, reactor: { total: 9 } });
    expect(r.outcome).toBe('success');
    expect(r.grade).toBe('clear');
  });

  it('the GM rolls one die fewer than the skill, at least one', () => {
    const player = (base: number): ChallengeSideSpec => ({ name: 'P', pool: { base, baseSource: 'skill' }, modifiers: [] });
    expect(unopposed({ player: player(1), difficulty: parseDifficulty(0) }, seededDice(1), core).reactor.dice).toHaveLength(1);
    expect(unopposed({ player: player(5), difficulty: parseDifficulty(0) }, seededDice(1), core).reactor.dice).toHaveLength(4);
  });

  it('the literal reading compares only the highest dice; the tie-break reading goes on down', () => {
    const spec = { player: { ...side('P', [6, 1], 0) }, difficulty: parseDifficulty(0), gmGiven: [6] };
    expect(unopposed(spec, none, core).decidedBy).toBe(1);
    const tb = unopposed(spec, none, tableOptions('core-2011', { unopposed: 'tie-break' }));
    expect(tb.decidedBy).toBe('extra-dice');
    expect(tb.outcome).toBe('success');
    const lose = unopposed({ player: side('P', [6], 0), difficulty: parseDifficulty(1), gmGiven: [6] }, none, core);
    expect(lose.outcome).toBe('failure');
  });
});

describe('criticals', () => {
  it('core-2011: every natural 10 beyond the first, for both sides, win or lose, no cap', () => {
    const r = opposed({ actor: side('A', [10, 10, 10], 0), reactor: side('R', [10, 10], 5) }, none, core);
    expect(r.outcome).toBe('failure');
    expect(r.criticals).toEqual({ actor: 2, reactor: 1 });
  });

  it('web: only the side that succeeds, capped at its Potential Threshold', () => {
    const web = tableOptions('core-2011', { criticals: 'web' });
    const r = opposed({ actor: side('A', [10, 10, 10, 10], 0, { potentialThreshold: 2 }), reactor: side('R', [10, 10], 5) }, none, web);
    expect(r.outcome).toBe('failure');
    expect(r.criticals).toEqual({ actor: 0, reactor: 1 });
    const w = opposed({ actor: side('A', [10, 10, 10, 10], 5, { potentialThreshold: 2 }), reactor: side('R', [3], 0) }, none, web);
    expect(w.criticals).toEqual({ actor: 2, reactor: 0 });
  });

  it('srd-v4: a clear win with a natural 10 banks one plus one per further 10; a responder never banks', () => {
    const r = opposed({ actor: side('A', [10, 10, 4], 1, { potentialThreshold: 5 }), reactor: side('R', [10, 10], 0) }, none, v4);
    expect(r.outcome).toBe('success');
    expect(r.grade).toBe('clear');
    expect(r.criticals).toEqual({ actor: 2, reactor: 0 });
  });

  it('srd-v4: a win by tie-break banks nothing', () => {
    const r = opposed({ actor: side('A', [10, 6], 0), reactor: side('R', [9, 2], 1) }, none, v4);
    expect(r.outcome).toBe('success');
    expect(r.grade).toBe('glancing');
    expect(r.criticals.actor).toBe(0);
  });

  it("srd-v4: a challenger's natural 10 turns a lost tie into a glancing success", () => {
    const r = opposed({ actor: side('A', [10, 1], 0), reactor: side('R', [9, 8], 1) }, none, v4);
    expect(r.winner).toBe('reactor');
    expect(r.outcome).toBe('success');
    expect(r.grade).toBe('glancing');
    expect(r.rulings.map((x) => x.rule)).toContain("challenger's natural 10");
  });

  it("srd-v4: a responder's natural 10 beats a tie", () => {
    const r = opposed({ actor: side('A', [9, 8], 1), reactor: side('R', [10, 1], 0) }, none, v4);
    expect(r.winner).toBe('actor');
    expect(r.outcome).toBe('failure');
  });

  it('srd-v4: both natural 10s on a tie follow option natTenBothTied', () => {
    const spec = { actor: side('A', [10, 8], 0), reactor: side('R', [10, 1], 0) };
    expect(opposed(spec, none, v4).outcome).toBe('failure');
    expect(opposed(spec, none, tableOptions('srd-v4', { natTenBothTied: 'challenger' })).outcome).toBe('success');
  });

  it('srd-v4: a natural 10 with a lower total follows option natTenLowerTotal', () => {
    const spec = { actor: side('A', [10], 0), reactor: side('R', [9], 4) };
    expect(opposed(spec, none, v4).outcome).toBe('failure');
    expect(opposed(spec, none, tableOptions('srd-v4', { natTenLowerTotal: 'glancing-success' })).grade).toBe('glancing');
  });
});

describe('assisting (three documents, three rules)', () => {
  const spec = { actor: side('A', [6, 2], 0), reactor: side('R', [7, 3], 0), assistants: [{ name: 'Ben' }] };
  it('core-2011: +1 to the result per assistant', () => {
    const r = opposed(spec, none, core);
    expect(r.actor.modifier).toBe(1);
    expect(r.outcome).toBe('tie');
  });
  it('web: +1 die per assistant', () => {
    const s = { ...spec, actor: side('A', [6, 2, 9], 0, { pool: { base: 2, baseSource: 'skill' } }) };
    const r = opposed(s, none, tableOptions('core-2011', { assist: 'web' }));
    expect(r.actor.pool.dice).toBe(3);
    expect(r.outcome).toBe('success');
  });
  it('srd-v4: each assistant steers one grade', () => {
    const r = opposed(spec, none, v4);
    expect(r.outcome).toBe('success');
    expect(r.grade).toBe('glancing');
    const two = opposed({ ...spec, assistants: [{ name: 'Ben' }, { name: 'Cy' }] }, none, v4);
    expect(two.grade).toBe('clear');
  });
  it('refuses more assistants than the table allows', () => {
    expect(() => opposed(spec, none, tableOptions('core-2011', { maxAssistants: 0 }))).toThrow(/at most 0/);
  });
});

describe('rerolls and armor (personae-core-2011.txt "What Special Abilities Can Do", "Armor")', () => {
  it("an own reroll takes the lowest die, keeps the second result, and can't touch the highest", () => {
    const r = opposed(
      { actor: side('A', [8, 5, 1], 0, { rerolls: [{ dice: 1, keep: 'second', mayTouchHighest: false, source: 'Sword Focus' }] }), reactor: side('R', [8, 5], 0) },
      givenDice([9]),
      core,
    );
    expect(r.actor.rerolls[0]).toMatchObject({ position: 3, old: 1, new: 9, kept: 9 });
    expect(r.actor.dice).toEqual([9, 8, 5]);
    expect(r.decidedBy).toBe(1);
  });
  it('a "better" reroll keeps the higher of the two results', () => {
    const r = opposed(
      { actor: side('A', [8, 5], 0, { rerolls: [{ dice: 1, keep: 'better', mayTouchHighest: false, source: 'Focus' }] }), reactor: side('R', [1], 0) },
      givenDice([2]),
      core,
    );
    expect(r.actor.dice).toEqual([8, 5]);
  });
  it("a forced reroll takes the opponent's highest die it may touch", () => {
    const r = opposed(
      { actor: side('A', [7], 0, { forceRerolls: [{ dice: 1, keep: 'second', mayTouchHighest: true, source: 'Misdirection' }] }), reactor: side('R', [9, 4], 0) },
      givenDice([2]),
      core,
    );
    expect(r.reactor.rerolls[0]).toMatchObject({ kind: 'forced', position: 1, old: 9, kept: 2 });
    expect(r.reactor.dice).toEqual([4, 2]);
    expect(r.outcome).toBe('success');
  });
  it("armor ignores the attacker's highest dice after rerolls", () => {
    const r = opposed({ actor: side('A', [10, 6], 0), reactor: side('R', [7], 0, { ignoreOpponentDice: { value: 1, source: 'Exceptional Mail' } }) }, none, core);
    expect(r.actor.ignored).toEqual([10]);
    expect(r.actor.dice).toEqual([6]);
    expect(r.outcome).toBe('failure');
  });
});

describe('subsequent challenges (personae-core-2011.txt "Subsequent vs. Additional Challenges")', () => {
  it('are issued and answered with the next-highest dice', () => {
    const first = opposed({ actor: side('A', [9, 3, 2], 0), reactor: side('R', [4, 4], 0) }, none, core);
    const next = resolveSubsequent(first, core);
    expect(next.steps[0]).toMatchObject({ actor: { die: 3 }, reactor: { die: 4 } });
    expect(next.outcome).toBe('failure');
    const third = resolveSubsequent(next, core);
    expect(third.decidedBy).toBe('extra-dice');
    expect(() => resolveSubsequent(third, core)).toThrow(/no next-highest die/);
  });
});

describe('spending criticals', () => {
  it('a critical spent before rolling succeeds without dice', () => {
    const r = opposed({ actor: side('A', [1], 0), reactor: side('R', [10], 5), automaticSuccess: { source: 'spent 1 critical' } }, none, v4);
    expect(r.kind).toBe('automatic');
    expect(r.outcome).toBe('success');
    expect(r.actor.dice).toEqual([]);
    expect(r.explanation[0]).toMatch(/spent 1 critical/);
  });
  it('a critical spent after the result steers a failure to a glancing success', () => {
    const r = opposed({ actor: side('A', [3], 0), reactor: side('R', [9], 0), steer: [{ value: 1, source: 'spent 1 critical' }] }, none, v4);
    expect(r.outcome).toBe('success');
    expect(r.grade).toBe('glancing');
    expect(r.rulings.at(-1)!.text).toMatch(/spent 1 critical steers failure to glancing success/);
  });
});

describe('concerted effort (personae-v4-srd-playing.txt "Concerted Effort")', () => {
  it('pools ratings up to two more than the average Potential Threshold, one hit per participant', () => {
    const c = concertedEffort({ name: 'Ana', rating: 4, potentialThreshold: 6 }, [{ name: 'Bo', rating: 3, potentialThreshold: 5 }, { name: 'Cy', rating: 0, potentialThreshold: 6 }], 'Athletics');
    expect(c.cap).toBe(7);
    expect(c.pool.base).toBe(7);
    expect(c.hits).toBe(3);
  });
});

describe('invariants', () => {
  const dieArray = fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 8 }).map((a) => a.sort((x, y) => y - x));
  it('swapping the sides swaps the winner', () => {
    fc.assert(
      fc.property(dieArray, dieArray, fc.integer({ min: -5, max: 5 }), fc.integer({ min: -5, max: 5 }), (a, r, ma, mr) => {
        const x = compareDice(a, ma, r, mr);
        const y = compareDice(r, mr, a, ma);
        const flip = { actor: 'reactor', reactor: 'actor' } as const;
        expect(y.winner).toBe(x.winner === null ? null : flip[x.winner]);
        expect(y.decidedBy).toEqual(x.decidedBy);
      }),
    );
  });
  it('under core-2011 a success is clear exactly when the first pair decided it', () => {
    fc.assert(
      fc.property(dieArray, dieArray, fc.integer({ min: -5, max: 5 }), (a, r, d) => {
        const raw = compareDice(a, d, r, 0);
        const v = judge(raw, { options: core });
        if (v.outcome === 'success') expect(v.grade === 'clear').toBe(raw.decidedBy === 1);
      }),
    );
  });
  it('resolution with a seed is reproducible', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const spec = { actor: { name: 'A', pool: { base: 4, baseSource: 's' }, modifiers: [] }, reactor: { name: 'R', pool: { base: 3, baseSource: 's' }, modifiers: [] } };
        expect(opposed(spec, seededDice(seed), v4)).toEqual(opposed(spec, seededDice(seed), v4));
      }),
      { numRuns: 50 },
    );
  });
});

describe('full ties rerolled more than once (option fullTie = reroll)', () => {
  it('only the final result lists the earlier attempts, so the result is plain data', () => {
    const o = tableOptions('core-2011', { fullTie: 'reroll' });
    const one = (name: string): ChallengeSideSpec => ({ name, pool: { base: 1, baseSource: 'skill' }, modifiers: [] });
    // Seed 67 ties twice before a side wins.
    const r = resolveChallenge({ actor: one('A'), reactor: one('B') }, seededDice(67), o);
    expect(r.previousAttempts).toHaveLength(2);
    expect(r.previousAttempts![0]!.previousAttempts).toBeUndefined();
    expect(r.previousAttempts![1]!.previousAttempts).toBeUndefined();
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });
});
