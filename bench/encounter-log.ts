/**
 * Long encounter logs of the d100 and Lucidity tables for the fold benchmark: two characters taking
 * turns, a test or a damage roll each command, a turn ended every fourth command and the last command
 * undone every fiftieth, decided and folded the way the server stores them.
 */
import type { Actor, Decider } from '@personae/core';
import { seededDice } from '@personae/dice';
import { encounterDecider } from '@personae/d100';
import { lucidityDecider } from '@personae/lucidity';

const GM: Actor = { role: 'gm', participantId: 'p_gm' };
const AT = '2026-11-25T22:00:00.000Z';

type AnyDecider = Decider<unknown, unknown, unknown>;

function generate(decider: AnyDecider, setup: readonly Record<string, unknown>[], step: (i: number) => Record<string, unknown>, total: number): unknown[] {
  const dice = seededDice(7);
  let state = decider.initialState();
  const events: unknown[] = [];
  const run = (raw: Record<string, unknown>) => {
    const parsed = decider.parseCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    for (const e of decider.decide(state, parsed.command, { actor: GM, dice, now: AT })) {
      const stored = JSON.parse(JSON.stringify(e)) as unknown;
      state = decider.evolve(state, stored);
      events.push(stored);
    }
  };
  for (const raw of setup) run(raw);
  for (let i = 0; events.length < total; i++) run(i % 50 === 49 ? { type: 'undo', seen: events.length } : i % 4 === 3 ? { type: 'end-turn' } : step(i));
  return events.slice(0, total);
}

const scores = { melee: 50, ballistic: 40, magic: 30, strength: 30, toughness: 40, agility: 50, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 };
const d100Sheet = (name: string, side: string) => ({ name, side, scores, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] });

export const encounterLogs = {
  d100: {
    decider: encounterDecider as unknown as AnyDecider,
    log: (total: number) =>
      generate(
        encounterDecider as unknown as AnyDecider,
        [{ type: 'add-character', id: 'a', sheet: d100Sheet('A', 'pc') }, { type: 'add-character', id: 'b', sheet: d100Sheet('B', 'shadows') }, { type: 'start' }],
        (i) => ({ type: 'test', who: i % 2 ? 'a' : 'b', score: 'agility', label: `test ${i}` }),
        total,
      ),
  },
  lucidity: {
    decider: lucidityDecider() as unknown as AnyDecider,
    log: (total: number) =>
      generate(
        lucidityDecider() as unknown as AnyDecider,
        [
          { type: 'add', id: 'a', side: 'party', statBlock: { name: 'A', health: 10, lucidity: 14, energy: 5, attributes: { STR: 1 } } },
          { type: 'add', id: 'b', side: 'foe', statBlock: { name: 'B', health: 20, defense: 10 } },
          { type: 'start', dice: { a: 20, b: 10 } },
        ],
        (i) => ({ type: 'damage', target: i % 2 ? 'a' : 'b', amount: 0, reason: `roll ${i}` }),
        total,
      ),
  },
};
