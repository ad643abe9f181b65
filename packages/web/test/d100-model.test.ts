import { describe, expect, it } from 'vitest';
import { parseDice } from '../src/rulesets/d100/model';

describe('d100 physical dice as typed (d100-combat-rules.txt, "How Attacks Work")', () => {
  it('reads d100 results in order, "00" as 100, spaces or commas between', () => {
    expect(parseDice('23 70, 00')).toEqual({ dice: [23, 70, 100] });
    expect(parseDice('  ')).toEqual({ dice: [] });
  });
  it('names a word that is not a d100 result', () => {
    expect(parseDice('23 0')).toEqual({ error: 'dice: "0" is not a d100 result (1 to 100; "00" is 100)' });
    expect(parseDice('101')).toEqual({ error: 'dice: "101" is not a d100 result (1 to 100; "00" is 100)' });
    expect(parseDice('2x')).toMatchObject({ error: expect.stringContaining('"2x"') });
  });
});
