import { describe, expect, it } from 'vitest';
import { describeEvent } from '../../src/index';
import { ALDRIC, CULTIST, Table, given } from './helpers';

// A companion who persuades the cultist with two natural 10s.
const WREN = { ...ALDRIC, id: 'wren', name: 'Wren', role: 'companion' as const };
const persuade = { type: 'interact' as const, actor: 'wren', target: 'cultist', skill: 'Persuade', dice: { actor: [10, 10], reactor: [3, 1] } };
const setUp = (preset: 'core-2011' | 'srd-v4') => new Table([WREN, CULTIST], {}, preset).log;

describe('who earns criticals (personae-core-2011.txt "Critical Success")', () => {
  it('core-2011: a companion\'s unadjusted 10s beyond the first are criticals; only the GM\'s characters are left to the group', () => {
    given(setUp('core-2011'))
      .when(persuade)
      .then([{ type: 'action-taken' }, { type: 'challenge-resolved' }, { type: 'criticals-banked', owner: 'wren', count: 1, lost: 0 }]);
  });

  it('srd-v4 leaves it to the group and withholds them by default; the log says why nothing was banked', () => {
    const t = new Table([WREN, CULTIST], {}, 'srd-v4');
    const [, , withheld] = given(t.log)
      .when(persuade)
      .then([{ type: 'action-taken' }, { type: 'challenge-resolved' }, { type: 'criticals-banked', earnedBy: 'wren', count: 2, lost: 2, withheld: expect.stringMatching(/secondaryCharactersEarnCriticals/) }]);
    expect(describeEvent(withheld!, t.now)[0]).toMatch(/Wren's natural 10s .* bank nothing: companions earn none at this table \(option secondaryCharactersEarnCriticals = false\)/);
  });

  it('the GM\'s characters bank nothing under gmCriticals = none, and the log says so', () => {
    given(new Table([ALDRIC, CULTIST]).log)
      .when({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice: { actor: [3, 1], reactor: [10, 10] } })
      .then([{ type: 'action-taken' }, { type: 'challenge-resolved' }, { type: 'criticals-banked', earnedBy: 'cultist', count: 1, lost: 1, withheld: expect.stringMatching(/gmCriticals = none/) }]);
  });
});

describe('steering with criticals after the dice (personae-v4-srd-playing.txt "Critical Success")', () => {
  const rich = { ...ALDRIC, criticals: 3 };
  const steerTable = () => new Table([rich, CULTIST], { criticalDefaultUse: 'steer' }).log;
  const persuadeCultist = { type: 'interact' as const, actor: 'aldric', target: 'cultist', skill: 'Persuade' };

  it('one critical steers a failure to a glancing success', () => {
    given(steerTable())
      .when({ ...persuadeCultist, dice: { actor: [1, 1], reactor: [9, 1] }, spend: { criticals: 1 } })
      .then([{ type: 'action-taken' }, { type: 'criticals-spent', count: 1 }, { type: 'challenge-resolved', result: { outcome: 'success', grade: 'glancing' } }]);
  });

  it('no further: two criticals are refused', () => {
    given(steerTable())
      .when({ ...persuadeCultist, dice: { actor: [1, 1], reactor: [9, 1] }, spend: { criticals: 2 } })
      .thenRefused('spend-count', /personae-v4-srd-playing\.txt "Critical Success"/);
  });
});
