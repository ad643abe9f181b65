import { describe, expect, it } from 'vitest';
import { ALDRIC, CULTIST, Table } from './helpers';

/** Dunmore, the foppish noble of the documents' example: an acrobatic skill of three dice, Prowess 3. */
const DUNMORE = {
  id: 'dunmore',
  name: 'Dunmore',
  attributes: { competence: 2, prowess: 3, cunning: 2, power: 1, knowledge: 2, stature: 2 },
  skills: [
    { name: 'Acrobatics', dice: 3, attribute: 'prowess' as const },
    { name: 'Lockpicking', dice: 1, attribute: 'cunning' as const },
  ],
};

function last(t: Table) {
  return t.events('challenge-resolved').at(-1)!;
}

describe('Unopposed Challenges in encounters and scenes (personae-core-2011.txt "Unopposed Challenges")', () => {
  it("the documents' example: Dunmore jumps from a 2nd-story window, 1, 5, 6 + Prowess 3 against the GM's 3 and 7", () => {
    // The example calls the task normal yet adds 0 to the GM's 7; the ladder gives Easy 0 and Normal +2.
    // Either way Dunmore's 6 + 3 = 9 meets or beats the target (7, or 9 with the Normal +2).
    for (const [difficulty, target] of [['easy', 7], ['normal', 9]] as const) {
      const t = new Table([DUNMORE, CULTIST]);
      t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', attribute: 'prowess', difficulty, dice: { actor: [1, 5, 6], reactor: [3, 7] } });
      const c = last(t);
      expect(c).toMatchObject({ kind: 'unopposed', actor: 'dunmore', reactor: 'gm', skill: 'Acrobatics' });
      // The GM rolls one die fewer than the skill's three.
      expect(c.result.reactor.dice).toEqual([7, 3]);
      expect(c.result.reactor.modifier).toBe(target - 7);
      expect(c.result.actor.modifiers).toEqual([{ value: 3, source: 'Prowess' }]);
      expect(c.result.outcome).toBe('success');
    }
  });

  it('falls short of a Difficult lock: the GM adds +5 to the highest die', () => {
    const t = new Table([DUNMORE, CULTIST]);
    t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', difficulty: 'difficult', obstacle: 'the garden wall', dice: { actor: [4, 2, 1], reactor: [3, 2] } });
    const c = last(t);
    // 4 + Prowess 3 = 7 against 3 + 5 = 8.
    expect(c.result.outcome).toBe('failure');
    expect(c.reactorSkill).toBe('difficulty Difficult');
    expect(c.purpose).toBe('overcome the garden wall');
    expect(c.notes.join(' ')).toMatch(/"Obstacles": the garden wall/);
  });

  it('the GM rolls at least one die, and a number off the ladder is taken as it is', () => {
    const t = new Table([DUNMORE, CULTIST]);
    t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Lockpicking', difficulty: 12, dice: { actor: [9], reactor: [1] } });
    const c = last(t);
    expect(c.result.reactor.dice).toEqual([1]);
    expect(c.result.reactor.modifier).toBe(12);
    // 9 + Cunning 2 = 11 against 1 + 12 = 13.
    expect(c.result.outcome).toBe('failure');
  });

  it('an unknown difficulty is refused with the rule named, and the state is unchanged', () => {
    const t = new Table([DUNMORE, CULTIST]);
    const e = t.refuse({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', difficulty: 'impossible' }, 'unknown-difficulty', /"Unopposed Challenges"/);
    expect(e.field).toBe('difficulty');
    expect(e.message).toMatch(/nearly-impossible/);
  });

  it('in a violent encounter it is the turn\'s action, taken on one\'s own turn', () => {
    const t = new Table([ALDRIC, DUNMORE]);
    t.toViolence('aldric');
    const other = t.now.combat!.turn.actor === 'aldric' ? 'dunmore' : 'aldric';
    t.refuse({ type: 'unopposed', actor: other, skill: 'Acrobatics', difficulty: 'easy' }, 'out-of-turn', /"The Action Order, and Actions"/);
    t.turnOf('dunmore');
    t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', difficulty: 'easy', dice: { actor: [9, 1, 1], reactor: [1, 1] } });
    expect(t.now.combat!.turn.actionUsed).toBe(true);
    t.refuse({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', difficulty: 'easy' }, 'action-used');
  });

  it('counts toward the development tally and banks criticals like any challenge the character issues', () => {
    const t = new Table([DUNMORE, CULTIST]);
    // personae-core-2011.txt "Critical Success": every unadjusted 10 beyond the first is a critical.
    t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', difficulty: 'easy', dice: { actor: [10, 10, 1], reactor: [3, 2] } });
    t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', difficulty: 'nearly-impossible', dice: { actor: [2, 2, 1], reactor: [3, 2] } });
    expect(t.character('dunmore').tally).toMatchObject({ successes: 1, failures: 1 });
    expect(t.events('criticals-banked')).toEqual([expect.objectContaining({ owner: 'dunmore', count: 1 })]);
  });

  it('a critical spent before rolling makes it an automatic success, and one spent ahead is used by it', () => {
    const t = new Table([{ ...DUNMORE, criticals: 2 }, CULTIST], { criticalDefaultUse: 'automatic-success' });
    t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', difficulty: 'nearly-impossible', spend: { automaticSuccess: true } });
    expect(last(t).result).toMatchObject({ kind: 'automatic', outcome: 'success' });
    t.run({ type: 'spend-criticals', actor: 'dunmore', count: 1 });
    expect(t.character('dunmore').readiedSuccess).toBe(true);
    t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', difficulty: 'nearly-impossible' });
    expect(last(t).result.outcome).toBe('success');
    expect(t.character('dunmore').readiedSuccess).toBe(false);
  });

  it('a critical spent after the dice steers a failure to a glancing success (srd-v4 "Critical Success")', () => {
    const t = new Table([{ ...DUNMORE, criticals: 1 }, CULTIST], {}, 'srd-v4');
    t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', difficulty: 'difficult', spend: { steer: 1 }, dice: { actor: [4, 2, 1], reactor: [3, 2] } });
    expect(last(t).result).toMatchObject({ outcome: 'success', grade: 'glancing' });
    expect(t.events('criticals-spent')).toHaveLength(1);
  });
});
