import { describe, expect, it } from 'vitest';
import { describeEvent } from '../../src/index';
import { ALDRIC, CULTIST, Table } from './helpers';

// A companion who persuades the cultist with two natural 10s: one critical under core-2011.
const WREN = { ...ALDRIC, id: 'wren', name: 'Wren', role: 'companion' as const };
const persuade = { type: 'interact' as const, actor: 'wren', target: 'cultist', skill: 'Persuade', dice: { actor: [10, 10], reactor: [3, 1] } };
const banked = (t: Table, bank: string) => (t.now.banks[bank] ?? []).reduce((s, e) => s + e.count, 0);

describe('who earns criticals (personae-core-2011.txt "Critical Success")', () => {
  it('core-2011: a companion\'s unadjusted 10s beyond the first are criticals; only the GM\'s characters are left to the group', () => {
    const t = new Table([WREN, CULTIST]);
    expect(t.now.options.secondaryCharactersEarnCriticals).toBe(true);
    t.run(persuade);
    expect(banked(t, 'wren')).toBe(1);
  });

  it('srd-v4 leaves it to the group and withholds them by default; the log says why nothing was banked', () => {
    const t = new Table([WREN, CULTIST], {}, 'srd-v4');
    t.run(persuade);
    expect(banked(t, 'wren')).toBe(0);
    const withheld = t.events('criticals-banked').at(-1)!;
    expect(withheld).toMatchObject({ earnedBy: 'wren', count: 2, lost: 2, withheld: expect.stringMatching(/secondaryCharactersEarnCriticals/) });
    expect(describeEvent(withheld, t.now)[0]).toMatch(/Wren's natural 10s .* bank nothing: companions earn none at this table \(option secondaryCharactersEarnCriticals = false\)/);
  });

  it('the GM\'s characters bank nothing under gmCriticals = none, and the log says so', () => {
    const t = new Table([ALDRIC, CULTIST]);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice: { actor: [3, 1], reactor: [10, 10] } });
    const withheld = t.events('criticals-banked').at(-1)!;
    expect(withheld).toMatchObject({ earnedBy: 'cultist', lost: withheld.count, withheld: expect.stringMatching(/gmCriticals = none/) });
    expect(banked(t, 'gm')).toBe(0);
  });
});
