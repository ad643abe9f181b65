import { describe, expect, it } from 'vitest';
import { ALDRIC, BRENNA, CULTIST, Table } from './helpers';

const RECOVERY = /Healing and Recovery/;
const win = { actor: [9], reactor: [1] };
const dice = (gm: number) => ({ actor: [9], reactor: Array.from({ length: gm }, () => 1) });

function last(t: Table) {
  return t.events('challenge-resolved').at(-1)!;
}

describe('recovery challenges (personae-core-2011.txt "Healing and Recovery")', () => {
  it("the character's dice + Stature against the GM's dice + the hits sustained: 1, 2, 3 or 4 dice by status", () => {
    const cases = [
      [2, 1],
      [4, 1],
      [5, 2],
      [6, 3],
    ] as const;
    for (const [hits, gm] of cases) {
      const t = new Table([{ ...ALDRIC, hits }, CULTIST]);
      t.run({ type: 'recover', actor: 'gm', target: 'aldric', dice: dice(gm) });
      const c = last(t);
      expect(c.kind).toBe('recovery');
      expect(c.result.reactor.pool.dice).toBe(gm);
      expect(c.result.reactor.modifiers).toEqual([{ value: hits, source: 'hits sustained' }]);
      expect(c.result.actor.modifiers).toEqual([{ value: 3, source: 'Stature' }]);
    }
  });

  it('once per scene', () => {
    const t = new Table([{ ...ALDRIC, hits: 4 }, CULTIST]);
    t.run({ type: 'recover', actor: 'aldric', dice: { actor: [1], reactor: [9] } });
    expect(last(t).result.outcome).toBe('failure');
    t.refuse({ type: 'recover', actor: 'aldric' }, 'recovery-once-per-scene', RECOVERY);
    t.run({ type: 'begin-scene', actor: 'gm' });
    t.run({ type: 'recover', actor: 'aldric', dice: win });
  });

  it('Injured: half the hits (rounded down) now, the other half at the end of the following scene', () => {
    // Aldric reaches Injured at 4 hits.
    const u = new Table([{ ...ALDRIC, hits: 4 }, CULTIST]);
    u.run({ type: 'recover', actor: 'aldric', dice: win });
    expect(u.character('aldric')).toMatchObject({ hits: 2, status: 'unharmed', healLater: { hits: 2, atEndOfScene: 2 } });
    u.run({ type: 'end-scene', actor: 'gm' });
    expect(u.character('aldric').hits).toBe(2);
    u.run({ type: 'end-scene', actor: 'gm' });
    expect(u.character('aldric').hits).toBe(0);
  });

  it('during a violent encounter only a character no worse than Injured may try, on its turn and without its action', () => {
    const t = new Table([{ ...ALDRIC, hits: 4 }, { ...CULTIST, hits: 4 }]);
    t.toViolence('aldric');
    t.run({ type: 'recover', actor: 'aldric', dice: win });
    expect(t.now.combat!.turn.actionUsed).toBe(false);
    t.endTurn();
    t.refuse({ type: 'recover', actor: 'cultist' }, 'recovery-during-violence', RECOVERY);
  });

  it('Wounded: only in the scene after the violent encounter; a success rolls back to Injured, the next try a scene later', () => {
    const t = new Table([ALDRIC, { ...CULTIST, hits: 3 }]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', dice: { actor: [9, 2, 1], reactor: [1] } });
    t.run({ type: 'end-encounter', actor: 'gm' });
    expect(t.character('cultist')).toMatchObject({ status: 'wounded', recoverFromScene: 2 });
    t.refuse({ type: 'recover', actor: 'gm', target: 'cultist' }, 'recovery-too-soon', RECOVERY);
    t.run({ type: 'end-scene', actor: 'gm' });
    // A Wounded individual acts normally in the following scene.
    t.run({ type: 'interact', actor: 'cultist', target: 'aldric', skill: 'Lie', dice: { actor: [1], reactor: [1, 1] } });
    t.run({ type: 'recover', actor: 'gm', target: 'cultist', dice: { actor: [9], reactor: [1, 1] } });
    expect(t.character('cultist')).toMatchObject({ hits: 3, status: 'injured', recoverFromScene: 3 });
  });

  it('Incapacitated: out of the following scene but for recovering; back to consciousness, and a relapse if it fights before a non-violent encounter', () => {
    const t = new Table([ALDRIC, { ...CULTIST, hits: 4 }]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', dice: { actor: [9, 2, 1], reactor: [1] } });
    t.run({ type: 'end-encounter', actor: 'gm' });
    expect(t.character('cultist')).toMatchObject({ status: 'incapacitated', conscious: false, outForScene: 2 });
    t.run({ type: 'end-scene', actor: 'gm' });
    t.refuse({ type: 'escalate', actor: 'cultist', to: 'non-violent' }, 'cannot-act');
    t.run({ type: 'recover', actor: 'gm', target: 'cultist', dice: { actor: [9], reactor: [1, 1, 1] } });
    expect(t.character('cultist')).toMatchObject({ status: 'incapacitated', conscious: true, relapse: true, hits: 5 });
    t.run({ type: 'end-scene', actor: 'gm' });
    // Scene 3: a fight before any non-violent encounter is completed: unconscious at the end of the first round it acts in.
    t.toViolence('cultist');
    t.run({ type: 'move', actor: 'cultist' });
    t.endTurn();
    t.endTurn();
    expect(t.character('cultist')).toMatchObject({ conscious: false, relapse: false });
  });

  it('a completed non-violent encounter lifts the relapse', () => {
    const t = new Table([ALDRIC, { ...CULTIST, hits: 5 }]);
    t.run({ type: 'recover', actor: 'gm', target: 'cultist', dice: { actor: [9], reactor: [1, 1, 1] } });
    expect(t.character('cultist').relapse).toBe(true);
    t.run({ type: 'escalate', actor: 'aldric', to: 'non-violent' });
    t.run({ type: 'end-encounter', actor: 'gm' });
    expect(t.character('cultist').relapse).toBe(false);
  });

  it('Dying (stabilized): four GM dice; conscious but unable to act, then back to Incapacitated', () => {
    const t = new Table([{ ...ALDRIC, hits: 7 }, BRENNA]);
    t.refuse({ type: 'recover', actor: 'gm', target: 'aldric' }, 'not-stabilized', RECOVERY);
    t.run({ type: 'stabilize', actor: 'brenna', target: 'aldric' });
    t.run({ type: 'recover', actor: 'gm', target: 'aldric', dice: dice(4) });
    expect(t.character('aldric')).toMatchObject({ status: 'dying', conscious: true });
    t.refuse({ type: 'move', actor: 'aldric' }, 'cannot-act');
    t.run({ type: 'end-scene', actor: 'gm' });
    t.run({ type: 'recover', actor: 'gm', target: 'aldric', dice: dice(4) });
    expect(t.character('aldric')).toMatchObject({ status: 'incapacitated', conscious: true, hits: 6 });
  });

  it('a character recovers on its own; the GM may roll for anyone', () => {
    const t = new Table([{ ...ALDRIC, hits: 2 }, BRENNA]);
    t.refuse({ type: 'recover', actor: 'brenna', target: 'aldric' }, 'recover-self');
    t.run({ type: 'recover', actor: 'aldric', dice: win });
    expect(t.character('aldric').hits).toBe(0);
    t.refuse({ type: 'recover', actor: 'gm', target: 'brenna' }, 'nothing-to-recover');
  });
});
