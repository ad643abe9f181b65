import { describe, expect, it } from 'vitest';
import { RuleError } from '../src/index';
import { deciderSpecification, SpecificationError } from '../src/specification';

// A counter that may not go below zero, as the smallest decider there is.
type Event = { type: 'added'; by: number };
const given = deciderSpecification<number, { add: number }, Event>({
  initialState: () => 0,
  evolve: (n, e) => n + e.by,
  decide: (n, c) => {
    if (n + c.add < 0) throw new RuleError('below-zero', `${n} cannot lose ${-c.add}`, 'add');
    return [{ type: 'added', by: c.add }];
  },
});

describe('deciderSpecification: given / when / then', () => {
  it('folds the given events, decides the command and compares the events', () => {
    expect(given({ type: 'added', by: 2 }).state).toBe(2);
    expect(given({ type: 'added', by: 2 }).when({ add: 3 }).then([{ type: 'added', by: 3 }])).toEqual([{ type: 'added', by: 3 }]);
    given({ type: 'added', by: 2 })
      .when({ add: 3 })
      .then((events, after) => {
        expect(events).toHaveLength(1);
        expect(after).toBe(5);
      });
  });

  it('fails when the events differ, or a refusal was expected and none came, or another came', () => {
    expect(() => given().when({ add: 1 }).then([{ type: 'added', by: 2 }])).toThrow(SpecificationError);
    expect(() => given().when({ add: 1 }).thenRefuses('below-zero')).toThrow(/expected the refusal "below-zero", but the decider gave 1 event/);
    expect(() => given().when({ add: -1 }).thenRefuses('too-big')).toThrow(/got "below-zero"/);
  });

  it('returns the refusal for further checks', () => {
    const e = given({ type: 'added', by: 1 }).when({ add: -2 }).thenRefuses('below-zero', (error) => expect(error.field).toBe('add'));
    expect(e.message).toBe('1 cannot lose 2');
  });
});
