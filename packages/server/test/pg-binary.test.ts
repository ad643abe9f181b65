import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type CommandRecord, type EventRecord, type Store, type TableWake } from '../src/store';
import { intArray, textArray } from '../src/store/pg-binary';
import { dropSchema, fixtureTable, PG_URL, runPg, uniqueSchema } from './helpers';

const now = '2025-01-01T00:00:00.000Z';

const table = (id: string) => fixtureTable(id, 'gm1');

const event = (seq: number, commandId: string): EventRecord => ({ seq, at: now, participantId: 'gm1', commandId, event: { type: 'tick', text: 'a "quoted" \\ {brace}, ünï' } });
const command = (commandId: string, from: number, count: number): CommandRecord => ({
  participantId: 'gm1',
  commandId,
  commandHash: `hash-${commandId}`,
  firstSeq: count ? from + 1 : null,
  lastSeq: count ? from + count : null,
  versionAfter: from + count,
  at: now,
});
const append = (store: Store, tableId: string, from: number, commandId: string, count = 1) =>
  store.appendEvents(
    tableId,
    from,
    Array.from({ length: count }, (_, i) => event(from + 1 + i, commandId)),
    command(commandId, from, count),
  );

describe('binary array parameters', () => {
  it('refuses what is not a 32-bit integer instead of writing something else', () => {
    expect(() => intArray([1, Number.NaN])).toThrow(RangeError);
    expect(() => intArray([1.5])).toThrow(RangeError);
    expect(() => intArray([2 ** 31])).toThrow(RangeError);
  });
});

describe.skipIf(!runPg)('PostgreSQL: appends sent as binary arrays', () => {
  const schema = uniqueSchema();
  let store: Store;
  let client: pg.Client;
  const wakes: TableWake[] = [];
  let stopListening: () => Promise<void>;
  beforeAll(async () => {
    store = await openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 4 });
    stopListening = await store.fanout!.listen({ wake: (w) => wakes.push(w), reconnected: () => undefined });
    client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
  });
  afterAll(async () => {
    await stopListening();
    await store.close();
    await client.end();
    await dropSchema(schema);
  });

  it('reads back every text and integer as sent, nulls and empty arrays included', async () => {
    const texts = ['', 'plain', 'a "quoted" word', 'back\\slash', '{braces, commas}', 'NULL', null, 'ünïcødé ☃ 🎲', ' spaced ', 'x'.repeat(70_000)];
    const ints = [0, -1, 1, 2147483647, -2147483648, null, 42];
    const r = await client.query<{ t: Array<string | null>; i: Array<number | null>; et: string[]; ei: number[]; n: number }>(
      'SELECT $1::text[] AS t, $2::int[] AS i, $3::text[] AS et, $4::int[] AS ei, cardinality($1::text[]) AS n',
      [textArray(texts), intArray(ints), textArray([]), intArray([])],
    );
    expect(r.rows[0]).toEqual({ t: texts, i: ints, et: [], ei: [], n: texts.length });
  });

  it('stores the appends of many tables made at once (quotes, backslashes and braces in the events), and announces each', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `many${i}`);
    for (const id of ids) await store.createTable(table(id));
    wakes.length = 0;
    const results = await Promise.all(ids.map((id, i) => append(store, id, 0, `c-${id}`, 1 + (i % 3))));
    expect(results.every((r) => r.ok)).toBe(true);
    for (const [i, id] of ids.entries()) {
      expect((await store.getTable(id))!.version).toBe(1 + (i % 3));
      expect((await store.readEvents(id, 0)).map((e) => e.event)).toEqual(Array.from({ length: 1 + (i % 3) }, () => event(0, '').event));
      expect(await store.getCommand(id, 'gm1', `c-${id}`)).toEqual(command(`c-${id}`, 0, 1 + (i % 3)));
    }
    await expect.poll(() => wakes.length, { timeout: 15_000 }).toBe(ids.length);
    expect(new Set(wakes.map((w) => `${w.tableId} ${w.version}`))).toEqual(new Set(ids.map((id, i) => `${id} ${1 + (i % 3)}`)));
  });

  it('takes two appends of one table queued together one after the other, in order', async () => {
    await store.createTable(table('pair'));
    const [first, second, stale] = await Promise.all([append(store, 'pair', 0, 'p1'), append(store, 'pair', 1, 'p2', 2), append(store, 'pair', 0, 'p3')]);
    expect([first, second, stale]).toEqual([{ ok: true }, { ok: true }, { ok: false, reason: 'conflict' }]);
    expect((await store.readEvents('pair', 0)).map((e) => [e.seq, e.commandId])).toEqual([
      [1, 'p1'],
      [2, 'p2'],
      [3, 'p2'],
    ]);
  });

  it('answers an append of no events, a repeated command and a stale version each on its own in one call', async () => {
    for (const id of ['n0', 'n1', 'n2']) await store.createTable(table(id));
    expect(await append(store, 'n1', 0, 'done')).toEqual({ ok: true });
    const results = await Promise.all([append(store, 'n0', 0, 'nothing', 0), append(store, 'n1', 1, 'done'), append(store, 'n2', 5, 'late')]);
    expect(results).toEqual([{ ok: true }, { ok: false, reason: 'duplicate_command' }, { ok: false, reason: 'conflict' }]);
    expect(await store.getCommand('n0', 'gm1', 'nothing')).toEqual(command('nothing', 0, 0));
    expect((await store.getTable('n0'))!.version).toBe(0);
    expect(await store.getCommand('n2', 'gm1', 'late')).toBeNull();
  });

  it('an append whose events are in the store already is refused alone; the others of its call are stored', async () => {
    for (const id of ['w0', 'w1', 'w2']) await store.createTable(table(id));
    // An event the table's version does not count (written behind the store's back).
    await client.query(`INSERT INTO "${schema}".events (table_id, seq, at, participant_id, command_id, payload) VALUES ('w1', 1, $1, 'gm1', 'x', '{}')`, [now]);
    const results = await Promise.all([append(store, 'w0', 0, 'a0'), append(store, 'w1', 0, 'a1'), append(store, 'w2', 0, 'a2')]);
    expect(results).toEqual([{ ok: true }, { ok: false, reason: 'conflict' }, { ok: true }]);
    expect((await store.getTable('w1'))!.version).toBe(0);
    expect(await store.getCommand('w1', 'gm1', 'a1')).toBeNull();
    expect((await store.readEvents('w0', 0)).map((e) => e.commandId)).toEqual(['a0']);
    expect((await store.readEvents('w2', 0)).map((e) => e.commandId)).toEqual(['a2']);
  });

  it('a table row another transaction holds is a conflict at once, without waiting for it', async () => {
    await store.createTable(table('held'));
    await store.createTable(table('free'));
    const other = new pg.Client({ connectionString: PG_URL });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM "${schema}".tables WHERE id = 'held' FOR UPDATE`);
      const results = await Promise.all([append(store, 'held', 0, 'h1'), append(store, 'free', 0, 'f1')]);
      expect(results).toEqual([{ ok: false, reason: 'conflict' }, { ok: true }]);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    expect(await append(store, 'held', 0, 'h1')).toEqual({ ok: true });
  });
});
