import { isDeepStrictEqual } from 'node:util';
import { RuleError } from './errors';

/**
 * Decider tests that read as the rules do: given these events, when this command, then these
 * events (or this refusal). Only tests import it (it uses node:util, so it is a subpath of its own).
 */
export interface SpecifiedDecider<S, C, E> {
  initialState(): S;
  evolve(state: S, event: E): S;
  decide(state: S, command: C): E[];
}

export interface Then<S, E> {
  /** The events decided: equal to `expected`, or checked by a function that also sees the state after them. */
  then(expected: readonly E[] | ((events: E[], after: S) => void)): E[];
  /** The command is refused with `code`; `check` sees the refusal. The state it was decided on is left as it was. */
  thenRefuses(code: string, check?: (error: RuleError) => void): RuleError;
}

export interface Given<S, C, E> {
  when(command: C): Then<S, E>;
  /** The state the given events fold into. */
  readonly state: S;
}

export class SpecificationError extends Error {
  override readonly name = 'SpecificationError';
}

export function deciderSpecification<S, C, E>(decider: SpecifiedDecider<S, C, E>): (...events: E[]) => Given<S, C, E> {
  return (...events) => {
    const state = events.reduce((s, e) => decider.evolve(s, e), decider.initialState());
    return {
      state,
      when: (command) => ({
        then(expected) {
          const decided = decider.decide(state, command);
          if (typeof expected === 'function') expected(decided, decided.reduce((s, e) => decider.evolve(s, e), state));
          else if (!isDeepStrictEqual(decided, expected)) {
            throw new SpecificationError(`expected the events\n${JSON.stringify(expected, null, 2)}\nbut the decider gave\n${JSON.stringify(decided, null, 2)}`);
          }
          return decided;
        },
        thenRefuses(code, check) {
          const before = JSON.stringify(state);
          let decided: E[];
          try {
            decided = decider.decide(state, command);
          } catch (error) {
            if (!(error instanceof RuleError)) throw error;
            if (error.code !== code) throw new SpecificationError(`expected the refusal "${code}", got "${error.code}": ${error.message}`);
            if (JSON.stringify(state) !== before) throw new SpecificationError('the refused command changed the state it was decided on');
            check?.(error);
            return error;
          }
          throw new SpecificationError(`expected the refusal "${code}", but the decider gave ${decided.length} event(s): ${decided.map((e) => JSON.stringify(e)).join(', ')}`);
        },
      }),
    };
  };
}
