import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AILMENT_NAMES, AILMENTS, ailmentsAtTurnEnd, ailmentsAtTurnStart, DEFAULT_OPTIONS, inflictAilment, isTechnicalAgainst, resolveOptions, type ActiveAilment } from '../src';

const give = (current: readonly ActiveAilment[], name: (typeof AILMENT_NAMES)[number], turnsStarted = 0, options = DEFAULT_OPTIONS) =>
  inflictAilment(current, name, { turnsStarted }, () => false, options);

describe('ailments (d100-combat-rules.txt, ailments passage after "Fate Points")', () => {
  it('one ailment per category: a second Physical ailment does not take hold by default, and replaces under replace', () => {
    const a = give([], 'dizzy');
    if (!a.ok) throw new Error();
    const b = give(a.ailments, 'shocked');
    expect(b).toMatchObject({ ok: false, reason: 'slot-taken' });
    const c = give(a.ailments, 'shocked', 0, resolveOptions('seed', { ailmentSameCategory: 'replace' }));
    expect(c).toMatchObject({ ok: true, replaced: 'dizzy' });
    const d = give(a.ailments, 'confused');
    expect(d.ok && d.ailments.map((x) => x.name)).toEqual(['dizzy', 'confused']);
  });
  it('immunity to the element confers immunity (Fire -> Burning)', () => {
    expect(inflictAilment([], 'burning', { turnsStarted: 0 }, (e) => e === 'fire', DEFAULT_OPTIONS)).toMatchObject({ ok: false, reason: 'immune' });
  });
  it('"Wears off after 2 turns" counts the sufferer\'s own turns that start after it took hold', () => {
    // inflicted during the sufferer's 3rd turn: turns 4 and 5 count, it ends at the end of turn 5
    const a = give([], 'dizzy', 3);
    if (!a.ok) throw new Error();
    let cur = ailmentsAtTurnEnd(a.ailments, 3).active; // the turn it was inflicted in does not count
    expect(cur).toHaveLength(1);
    cur = ailmentsAtTurnEnd(cur, 4).active;
    expect(cur).toHaveLength(1);
    const end = ailmentsAtTurnEnd(cur, 5);
    expect(end.expired).toEqual(['dizzy']);
  });
  it('Staggered ends at the start of the sufferer\'s next turn', () => {
    const a = give([], 'staggered', 2);
    if (!a.ok) throw new Error();
    expect(ailmentsAtTurnStart(a.ailments, 2).expired).toEqual([]);
    expect(ailmentsAtTurnStart(a.ailments, 3).expired).toEqual(['staggered']);
  });
  it('Technical Hit elements: Burning by Nuke and Wind, Frozen by Physical, Drowsed by all', () => {
    expect(isTechnicalAgainst('burning', 'wind', DEFAULT_OPTIONS)).toBe(true);
    expect(isTechnicalAgainst('burning', 'fire', DEFAULT_OPTIONS)).toBe(false);
    expect(isTechnicalAgainst('frozen', 'melee', DEFAULT_OPTIONS)).toBe(true);
    expect(isTechnicalAgainst('frozen', 'melee', { technicalPhysical: 'none' })).toBe(false);
    expect(isTechnicalAgainst('drowsed', 'curse', DEFAULT_OPTIONS)).toBe(true);
  });
  it('Stunned lasts two turns by default (option stunnedDuration)', () => {
    const a = give([], 'stunned');
    expect(a.ok && a.ailments[0]!.turns).toBe(2);
    const g = give([], 'stunned', 0, resolveOptions('seed', { stunnedDuration: 'gm' }));
    expect(g.ok && g.ailments[0]!.turns).toBe(null);
  });
  it('an ailment slot holds one ailment per category, whatever is inflicted in any order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...AILMENT_NAMES), { maxLength: 30 }), fc.constantFrom('ignore-new', 'replace' as const), (names, same) => {
        let cur: readonly ActiveAilment[] = [];
        const options = { ...DEFAULT_OPTIONS, ailmentSameCategory: same };
        for (const n of names) {
          const r = give(cur, n, 0, options);
          if (r.ok) cur = r.ailments;
        }
        const cats = cur.map((a) => AILMENTS[a.name].category);
        expect(new Set(cats).size).toBe(cats.length);
      }),
    );
  });
});
