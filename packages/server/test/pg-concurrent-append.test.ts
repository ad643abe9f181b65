import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type AppendResult, type NewTable, type Store } from '../src/store';
import { hashToken } from '../src/tokens';
import { dropSchema, PG_URL, runPg, uniqueSchema } from './helpers';

const now = '2025-01-01T00:00:00.000Z';

function table(id: string): NewTable {
  return {
    table: { id, name: `Table ${id}`, createdAt: now, ruleset: 'personae', settings: { physicalDice: false }, version: 0 },
    inviteHash: hashToken(`invite-${id}`),
    observerHash: hashToken(`observer-${id}`),
    participants: [{ participant: { id: 'gm1', role: 'gm', displayName: 'GM', joinedAt: now, removedAt: null }, tokenHash: hashToken(`gm-${id}`) }],
    events: [],
  };
}

/**
 * Two nodes append to the same tables at the same moment, each in one batch (one transaction) but
 * in opposite orders of tables: the classic way for two transactions to wait on each other's row
 * locks. Every append must be answered ok or conflict, never fail.
 */
describe.skipIf(!runPg)('PostgreSQL appends from several nodes at once', () => {
  const schema = uniqueSchema();
  let a: Store;
  let b: Store;
  const ids = Array.from({ length: 24 }, (_, i) => `t${String(i).padStart(2, '0')}`);
  beforeAll(async () => {
    a = await openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 4 });
    b = await openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 4 });
    for (const id of ids) await a.createTable(table(id));
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await dropSchema(schema);
  });

  it('answers every append of two crossing batches ok or conflict, with each table version taken once', async () => {
    const version = new Map(ids.map((id) => [id, 0]));
    const failures: string[] = [];
    for (let round = 0; round < 15; round++) {
      const append = (store: Store, node: string, id: string): Promise<AppendResult | 'failed'> => {
        const v = version.get(id)!;
        const commandId = `${node}-${round}-${id}`;
        return store
          .appendEvents(id, v, [{ seq: v + 1, at: now, participantId: 'gm1', commandId, event: { type: 'tick', node } }], {
            participantId: 'gm1',
            commandId,
            commandHash: `h-${commandId}`,
            firstSeq: v + 1,
            lastSeq: v + 1,
            versionAfter: v + 1,
            at: now,
          })
          .catch((error: unknown) => {
            failures.push(String((error as Error).message));
            return 'failed' as const;
          });
      };
      // Queued in the same turn, so each store sends them as one batch, in this order.
      const fromA = ids.map((id) => append(a, 'a', id));
      const fromB = [...ids].reverse().map((id) => append(b, 'b', id));
      const results = await Promise.all([...fromA, ...fromB]);
      const okPerTable = new Map<string, number>();
      results.forEach((r, i) => {
        const id = i < ids.length ? ids[i]! : [...ids].reverse()[i - ids.length]!;
        if (r !== 'failed' && r.ok) okPerTable.set(id, (okPerTable.get(id) ?? 0) + 1);
      });
      for (const id of ids) {
        // Exactly one of the two appends for the same version wins.
        expect(okPerTable.get(id) ?? 0, `table ${id} round ${round}`).toBeLessThanOrEqual(1);
        version.set(id, version.get(id)! + (okPerTable.get(id) ?? 0));
      }
    }
    expect(failures).toEqual([]);
    for (const id of ids) expect((await a.getTable(id))!.version).toBe(version.get(id));
  });
});
