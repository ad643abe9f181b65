import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyAttackHits,
  CombatantSchema,
  ladder,
  severity,
  STATUS_PENALTY,
  statusForHits,
  tableOptions,
  threshold,
  STATUSES,
} from '../../src/index';
import { ALDRIC, CULTIST, Table } from './helpers';

const core = tableOptions('core-2011');
const cultist = CombatantSchema.parse(CULTIST);

describe('hits and statuses (personae-core-2011.txt "Injury and Death")', () => {
  it('a character reaches Injured at 1 + Stature hits, then one more hit for each status', () => {
    expect(threshold(cultist, core)).toBe(3);
    expect([0, 2, 3, 4, 5, 6, 9].map((h) => statusForHits(cultist, core, h))).toEqual(['unharmed', 'unharmed', 'injured', 'wounded', 'incapacitated', 'dying', 'dying']);
  });

  it('abilities add hits before Injured (Iron Constitution: 2 + Stature)', () => {
    const dwarf = CombatantSchema.parse({ ...CULTIST, specialAbilities: [{ name: 'Iron Constitution', effect: { type: 'extra-hits-before-injured', hits: 1 } }] });
    expect(threshold(dwarf, core)).toBe(4);
  });

  it("the document's example: a 3-hit threshold and a 4-hit attack make the opponent Injured only", () => {
    const r = applyAttackHits(cultist, core, 0, 4);
    expect(r).toMatchObject({ after: 3, lost: 1, statusAfter: 'injured' });
    // Only a following attack reaches Wounded.
    expect(applyAttackHits(cultist, core, 3, 1).statusAfter).toBe('wounded');
  });

  it('minor supporting characters reach Injured with one hit; minions have only Incapacitated and Dying', () => {
    const minor = CombatantSchema.parse({ ...CULTIST, tier: 'minor' });
    expect(statusForHits(minor, core, 1)).toBe('injured');
    const minion = CombatantSchema.parse({ ...CULTIST, tier: 'minion' });
    expect(ladder(minion)).toEqual(['incapacitated', 'dying']);
    expect([0, 1, 2, 3].map((h) => statusForHits(minion, core, h))).toEqual(['unharmed', 'incapacitated', 'dying', 'dying']);
    expect(statusForHits(minion, tableOptions('core-2011', { minionThreshold: 'stature' }), 1)).toBe('unharmed');
  });

  it('penalties: 1, 2, 3 dice, not cumulative', () => {
    expect(STATUS_PENALTY.injured).toBe(1);
    expect(STATUS_PENALTY.wounded).toBe(2);
    expect(STATUS_PENALTY.incapacitated).toBe(3);
  });

  it('property: one attack never moves a status more than one level, and a status never goes back by hits', () => {
    const tiers = fc.constantFrom('minion', 'minor', 'major');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), tiers, fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 12 }), (stature, tier, attacks) => {
        const c = CombatantSchema.parse({ ...CULTIST, tier, attributes: { ...CULTIST.attributes, stature } });
        let hits = 0;
        for (const n of attacks) {
          const r = applyAttackHits(c, core, hits, n);
          const levels = [r.statusBefore, r.statusAfter].map((s) => (s === 'unharmed' ? -1 : ladder(c).indexOf(s as never)));
          expect(levels[1]! - levels[0]!).toBeLessThanOrEqual(1);
          expect(levels[1]!).toBeGreaterThanOrEqual(levels[0]!);
          expect(r.after).toBeGreaterThanOrEqual(hits);
          hits = r.after;
        }
      }),
    );
  });

  it('property: a penalty is at most 3 dice', () => {
    for (const s of STATUSES) expect(STATUS_PENALTY[s]).toBeLessThanOrEqual(3);
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), (hits) => STATUS_PENALTY[statusForHits(cultist, core, hits)] <= 3));
  });
});

describe('injury in a fight', () => {
  function fight(options = {}) {
    const t = new Table([ALDRIC, CULTIST], options);
    t.toViolence('aldric');
    return t;
  }
  const hit = (t: Table, dice = { actor: [9, 2, 1], reactor: [2, 1] }) => t.run({ type: 'attack', actor: 'aldric', target: 'cultist', dice, defense: 'dodge' });

  it('hits are tallied at once, the status takes effect at the end of the round', () => {
    const t = fight();
    const brutal = { ...ALDRIC, specialAbilities: [{ name: 'Brutal Longsword Strike', quality: true, effect: { type: 'extra-hits' as const, hits: 3 } }] };
    const t2 = new Table([brutal, CULTIST]);
    t2.toViolence('aldric');
    hit(t2);
    expect(t2.character('cultist').hits).toBe(3);
    expect(t2.character('cultist').status).toBe('unharmed');
    t2.endTurn();
    // The cultist still acts this round, without the Injured penalty.
    expect(t2.now.combat!.turn.actor).toBe('cultist');
    t2.endTurn();
    expect(t2.character('cultist').status).toBe('injured');
    expect(t2.events('status-changed').at(-1)).toMatchObject({ target: 'cultist', to: 'injured', reason: 'end of round 1' });
    expect(t.character('cultist').hits).toBe(0);
  });

  it('option injuryTiming = immediate applies the status when the hits are tallied', () => {
    const t = new Table([{ ...ALDRIC, specialAbilities: [{ name: 'Brutal', quality: true, effect: { type: 'extra-hits', hits: 2 } }] }, CULTIST], { injuryTiming: 'immediate' });
    t.toViolence('aldric');
    hit(t);
    expect(t.character('cultist').status).toBe('injured');
  });

  it('the status penalty applies to the next challenge: -1 die Injured', () => {
    const t = new Table([ALDRIC, { ...CULTIST, hits: 3 }]);
    expect(t.character('cultist').status).toBe('injured');
    t.toViolence('aldric');
    t.endTurn();
    t.run({ type: 'attack', actor: 'cultist', target: 'aldric', dice: { actor: [5], reactor: [3, 2] }, defense: 'dodge' });
    const r = t.events('challenge-resolved').at(-1)!.result;
    expect(r.actor.pool.dice).toBe(1);
    expect(r.actor.pool.explanation).toMatch(/-1 die Injured/);
  });

  it('an Incapacitated character falls unconscious at the end of the round and cannot act', () => {
    const t = new Table([ALDRIC, { ...CULTIST, hits: 4 }]);
    expect(t.character('cultist').status).toBe('wounded');
    t.toViolence('aldric');
    hit(t, { actor: [9, 2, 1], reactor: [1] });
    expect(t.character('cultist').hits).toBe(5);
    t.endTurn();
    t.endTurn();
    expect(t.character('cultist')).toMatchObject({ status: 'incapacitated', conscious: false });
    // Round 2: the cultist's turn is skipped.
    t.endTurn();
    expect(t.events('turn-skipped').at(-1)).toMatchObject({ actor: 'cultist' });
    t.refuse({ type: 'attack', actor: 'cultist', target: 'aldric' }, 'cannot-act', /Injury and Death/);
  });

  it('a Dying character dies at the end of the encounter unless stabilized, which takes an action and no roll', () => {
    const three = { ...ALDRIC, id: 'cora', name: 'Cora' };
    for (const stabilize of [false, true]) {
      const t = new Table([ALDRIC, { ...CULTIST, hits: 5 }, three]);
      t.toViolence('aldric');
      hit(t, { actor: [9, 2, 1], reactor: [1] });
      t.turnOf('cora');
      t.endTurn();
      expect(t.character('cultist').status).toBe('dying');
      if (stabilize) {
        t.turnOf('cora');
        t.refuse({ type: 'stabilize', actor: 'cultist', target: 'cultist' }, 'cannot-act');
        t.run({ type: 'stabilize', actor: 'cora', target: 'cultist' });
        expect(t.character('cultist').stabilized).toBe(true);
        t.refuse({ type: 'stabilize', actor: 'cora', target: 'cultist' }, 'already-stabilized');
      }
      t.run({ type: 'end-encounter', actor: 'gm' });
      expect(t.character('cultist').status).toBe(stabilize ? 'dying' : 'dead');
    }
  });

  it('hits short of Injured are removed at the end of a violent encounter', () => {
    const t = fight();
    hit(t);
    expect(t.character('cultist').hits).toBe(1);
    t.run({ type: 'end-encounter', actor: 'gm' });
    expect(t.character('cultist').hits).toBe(0);
  });

  it('Horrific Wound: a critical spent on a successful attack gives the hits to reach Injured; the status waits for the end of the round like any other (personae-core-2011.txt "Injury and Death")', () => {
    const horrific = { ...ALDRIC, criticals: 1, specialAbilities: [{ name: 'Horrific Wound', effect: { type: 'critical-spend' as const, feat: 'injure-outright' as const } }] };
    const t = new Table([horrific, CULTIST]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', spend: { ability: 'Horrific Wound' }, dice: { actor: [9, 2, 1], reactor: [2, 1] }, defense: 'dodge' });
    expect(t.character('cultist')).toMatchObject({ hits: 3, status: 'unharmed' });
    expect(t.now.banks.aldric ?? []).toEqual([]);
    t.endTurn();
    t.endTurn();
    expect(t.character('cultist').status).toBe('injured');
    // With option injuryTiming = immediate, every status takes effect at once, this one too.
    const now = new Table([horrific, CULTIST], { injuryTiming: 'immediate' });
    now.toViolence('aldric');
    now.run({ type: 'attack', actor: 'aldric', target: 'cultist', spend: { ability: 'Horrific Wound' }, dice: { actor: [9, 2, 1], reactor: [2, 1] }, defense: 'dodge' });
    expect(now.character('cultist')).toMatchObject({ hits: 3, status: 'injured' });
    // A failed attack keeps the critical.
    const t2 = new Table([horrific, CULTIST]);
    t2.toViolence('aldric');
    t2.run({ type: 'attack', actor: 'aldric', target: 'cultist', spend: { ability: 'Horrific Wound' }, dice: { actor: [1, 1, 1], reactor: [9, 1] }, defense: 'dodge' });
    expect(t2.character('cultist').hits).toBe(0);
    expect(t2.now.banks.aldric).toEqual([{ count: 1, earned: expect.anything() }]);
  });

  it('severity orders the statuses', () => {
    expect(STATUSES.map(severity)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
