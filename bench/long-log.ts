/**
 * The long table log the server benchmarks share: free rolls of three dice a side against each
 * other, one in five hidden, decided and folded by the Personae table the way the server stores them.
 */
import { seededDice } from '@personae/dice';
import { personaeTable, type TableEvent, type TableState } from '@personae/rules';

export const LOG_AT = '2026-11-25T22:00:00.000Z';

/** `total` stored events (each one a JSON round trip of what `decide` returned). */
export function longRollLog(total: number): TableEvent[] {
  const gm = { role: 'gm' as const, participantId: 'p_gm' };
  const dice = seededDice(5);
  let state: TableState = personaeTable.initialState();
  const events: TableEvent[] = [];
  const side = (name: string) => ({ name, dice: 3, modifiers: [{ value: 2, source: 'Prowess' }] });
  for (let i = 0; events.length < total; i++) {
    const parsed = personaeTable.parseCommand({ type: 'roll', actor: side('Ann'), reactor: side('Bob'), hidden: i % 5 === 0, purpose: `roll ${i}` });
    if (!parsed.ok) throw new Error(parsed.error.message);
    for (const e of personaeTable.decide(state, parsed.command, { actor: gm, dice, now: LOG_AT })) {
      const stored = JSON.parse(JSON.stringify(e)) as TableEvent;
      state = personaeTable.evolve(state, stored);
      events.push(stored);
    }
  }
  return events.slice(0, total);
}

/** A table export holding `events` (GM `p_gm`), as `POST /api/tables/import` takes it. */
export function exportOf(events: readonly TableEvent[], table: { id: string; name: string }) {
  return {
    formatVersion: 1,
    kind: 'personae-table',
    exportedAt: LOG_AT,
    table: { ...table, createdAt: LOG_AT, settings: { physicalDice: false }, version: events.length },
    participants: [{ id: 'p_gm', role: 'gm', displayName: 'GM', joinedAt: LOG_AT, removedAt: null }],
    events: events.map((event, i) => ({ seq: i + 1, at: LOG_AT, participantId: 'p_gm', commandId: `c${i}`, event })),
    redactedFor: null,
  };
}
