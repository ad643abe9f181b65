/** A roll as the server stores it: the `rolled` event of a 4d10 against 2d10 (1,295 characters of JSON), for the store benchmarks. */
export const ROLL_EVENT_JSON = JSON.stringify({
  type: 'rolled',
  hidden: false,
  result: {
    kind: 'opposed',
    actor: { name: 'Roller', pool: { dice: 4, base: 4, bonus: [], penalty: [], explanation: '4d10 4 dice = 4 dice' }, roll: { sides: 10, rolled: [2, 7, 7, 2], sorted: [7, 7, 2, 2], source: 'crypto' }, rerolls: [], ignored: [], dice: [7, 7, 2, 2], modifiers: [], modifier: 0, naturalTens: 0, criticals: 0 },
    reactor: { name: 'Opposition', pool: { dice: 2, base: 2, bonus: [], penalty: [], explanation: '2d10 2 dice = 2 dice' }, roll: { sides: 10, rolled: [8, 10], sorted: [10, 8], source: 'crypto' }, rerolls: [], ignored: [], dice: [10, 8], modifiers: [], modifier: 0, naturalTens: 1, criticals: 0 },
    steps: [{ position: 1, actor: { die: 7, total: 7 }, reactor: { die: 10, total: 10 }, result: 'reactor' }],
    winner: 'reactor',
    decidedBy: 1,
    outcome: 'failure',
    grade: null,
    criticals: { actor: 0, reactor: 0 },
    rulings: [],
    explanation: ['Roller: 4d10 4 dice = 4 dice.', 'Roller rolled 2, 7, 7, 2; sorted 7, 7, 2, 2.', "Roller's modifier: +0.", 'Opposition: 2d10 2 dice = 2 dice.', 'Opposition rolled 8, 10; sorted 10, 8.', "Opposition's modifier: +0.", 'Pair #1: 7+0 = 7 against 10+0 = 10: Opposition wins.', 'Outcome for Roller: failure (decided on the highest dice).', 'Criticals: Roller 0, Opposition 0.'],
  },
  by: 'p_9jt_0TRZHn_FNW7Q',
  at: '2026-12-08T01:38:52.516Z',
});
