import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type EventRecord, type Store } from '../src/store';
import { hashToken } from '../src/tokens';
import { dropSchema, PG_URL, runPg, uniqueSchema } from './helpers';

const now = '2025-01-01T00:00:00.000Z';

/**
 * A table load on PostgreSQL reads each table's first events as one aggregated value, and the
 * events past `loadAggregateBytes` row by row: whatever the payloads and the bound, the load holds
 * exactly what reading the events one by one gives.
 */
describe.skipIf(!runPg)('PostgreSQL table loads: aggregated reads', () => {
  const schema = uniqueSchema();
  let store: Store;
  // Small enough that several of the generated logs cross it, some at their first event.
  const bound = 600;
  beforeAll(async () => {
    store = await openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 4, loadAggregateBytes: bound });
  });
  afterAll(async () => {
    await store.close();
    await dropSchema(schema);
  });

  let tables = 0;
  const payload = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record({ type: fc.constant('said'), text: fc.string({ unit: 'binary', maxLength: 400 }) }),
  );
  const log = fc.array(
    fc.record({ event: payload, participantId: fc.option(fc.constantFrom('gm1', 'p"1', 'p\\2'), { nil: null }), commandId: fc.option(fc.string({ maxLength: 12 }), { nil: null }) }),
    { maxLength: 12 },
  );

  it('gives the events one-by-one reads give, whatever their payloads and the bound', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(log, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 15 }), async (logs, limit) => {
        const ids: string[] = [];
        for (const entries of logs) {
          const id = `t${++tables}`;
          ids.push(id);
          const events: EventRecord[] = entries.map((e, i) => ({ seq: i + 1, at: `${now}#${i}`, participantId: e.participantId, commandId: e.commandId, event: e.event }));
          await store.createTable({
            table: { id, name: id, createdAt: now, ruleset: 'personae', settings: { physicalDice: false }, version: events.length },
            inviteHash: hashToken(`invite-${id}`),
            observerHash: hashToken(`observer-${id}`),
            participants: [{ participant: { id: 'gm1', role: 'gm', displayName: 'GM', joinedAt: now, removedAt: null }, tokenHash: hashToken(`gm-${id}`) }],
            events,
          });
        }
        const loads = await store.loadTables(ids, limit);
        for (const id of ids) expect(loads.get(id)!.events).toEqual(await store.readEvents(id, 0, limit));
      }),
      { numRuns: 40, seed: 1408 },
    );
  });

  it('reads a log whose first event alone is over the bound', async () => {
    const id = 'big-first';
    const big = { type: 'said', text: 'x'.repeat(bound * 2) };
    const events: EventRecord[] = [big, { small: true }, big].map((event, i) => ({ seq: i + 1, at: now, participantId: 'gm1', commandId: `c${i}`, event }));
    await store.createTable({
      table: { id, name: id, createdAt: now, ruleset: 'personae', settings: { physicalDice: false }, version: 3 },
      inviteHash: hashToken('invite-big'),
      observerHash: hashToken('observer-big'),
      participants: [],
      events,
    });
    expect((await store.loadTables([id], 10)).get(id)!.events).toEqual(events);
    expect((await store.loadTables([id], 2)).get(id)!.events).toEqual(events.slice(0, 2));
  });
});
